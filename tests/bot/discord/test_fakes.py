"""Drift guard: the fakes accept only what discord.py's real methods accept, with the same kind of parameter.

If discord.py renames or drops a keyword the adapter relies on, this fails instead of the fakes silently
accepting a call that the real library would reject.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import discord
import pytest

from tests.bot.discord.fakes import FakeChannel, FakeFollowup, FakeInteraction, FakeResponse, FakeUser, Sent

PAIRS: list[tuple[Callable[..., Any], Callable[..., Any]]] = [
    (FakeResponse.send_message, discord.InteractionResponse.send_message),
    (FakeResponse.defer, discord.InteractionResponse.defer),
    (FakeResponse.is_done, discord.InteractionResponse.is_done),
    (FakeFollowup.send, discord.Webhook.send),
    (FakeInteraction.delete_original_response, discord.Interaction.delete_original_response),
    (FakeChannel.send, discord.abc.Messageable.send),
    (FakeChannel.create_thread, discord.TextChannel.create_thread),
    (FakeChannel.delete, discord.Thread.delete),
    (FakeChannel.add_user, discord.Thread.add_user),
    (FakeUser.send, discord.abc.Messageable.send),
    (Sent.edit, discord.Message.edit),
]


@pytest.mark.parametrize(("fake", "real"), PAIRS, ids=lambda f: getattr(f, "__qualname__", str(f)))
def test_fake_parameters_exist_on_the_real_method(fake: Callable[..., Any], real: Callable[..., Any]) -> None:
    fake_params = inspect.signature(fake).parameters
    real_params = inspect.signature(real).parameters
    assert inspect.iscoroutinefunction(fake) == inspect.iscoroutinefunction(real), fake.__qualname__
    for name, param in fake_params.items():
        assert name in real_params, f"{fake.__qualname__}({name}=) does not exist on {real.__qualname__}"
        assert param.kind == real_params[name].kind, (
            f"{fake.__qualname__}({name}) is {param.kind}, not {real_params[name].kind}"
        )
    # Every parameter the real method requires, the fake requires too (so a call missing it fails in tests).
    required = [
        n
        for n, p in real_params.items()
        if p.default is inspect.Parameter.empty
        and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    ]
    assert [n for n in required if n not in fake_params] == []


def test_the_fake_interaction_has_the_attributes_the_adapter_reads() -> None:
    real = set(dir(discord.Interaction))
    for name in (
        "user",
        "channel",
        "channel_id",
        "guild_id",
        "namespace",
        "response",
        "followup",
        "client",
        "message",
        "delete_original_response",
    ):
        assert name in real, name
