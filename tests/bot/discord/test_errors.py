"""Refusals are private; failures on our side get an incident id in the log and in a short private apology."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.core.replies import Button
from bot.discord.buttons import view_for
from bot.discord.client import RoundhouseClient, intents
from bot.discord.settings import DiscordSettings, load_discord_settings
from tests.bot.discord.conftest import Bot, new_game
from tests.bot.discord.fakes import FakeAttachment, FakeChannel, FakeUser, Sent

INCIDENT = re.compile(r"incident ([0-9a-f]{8})")


async def test_a_failure_in_the_adapter_is_logged_with_an_incident_id_and_apologised_for(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser], caplog: pytest.LogCaptureFixture
) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    bot.world.fail_sends = True  # Discord refuses our message after the move was stored
    with caplog.at_level(logging.ERROR, logger="bot.discord"):
        answer = await bot.slash(users["alice"], "buy", thread, what="HB")
    [apology] = answer.private
    assert apology.ephemeral and "Sorry, something went wrong on our side" in (apology.content or "")
    match = INCIDENT.search(apology.content or "")
    assert match is not None
    logged = [r for r in caplog.records if match.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info is not None  # the traceback is in the log, not in the chat
    assert "Traceback" not in (apology.content or "")


async def test_a_bug_in_the_service_reaches_the_user_as_a_private_apology(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser], monkeypatch: pytest.MonkeyPatch
) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))

    async def broken(_: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setitem(bot.adapter.service._handlers, "who", broken)
    mark = len(thread.sent)
    answer = await bot.slash(users["bob"], "info who", thread)
    assert INCIDENT.search(answer.private_text) and "Nothing was stored" in answer.private_text
    assert all(m.ephemeral for m in answer.private) and thread.sent[mark:] == []


async def test_autocomplete_never_fails(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser], monkeypatch: pytest.MonkeyPatch
) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))

    async def broken(*_: Any, **__: Any) -> list[str]:
        raise RuntimeError("down")

    monkeypatch.setattr(bot.adapter.service, "suggest", broken)
    assert await bot.complete(users["alice"], "bid", "private", thread) == []


async def test_a_button_of_a_game_that_is_gone_is_refused(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    stale = Sent("old", view=view_for(99, [Button("Pass", "pass")]))
    answer = await bot.click(users["alice"], thread, stale, "Pass")
    assert "game #99, which is no longer running" in answer.private_text
    assert all(m.ephemeral for m in answer.private)


async def test_import_takes_the_attached_json_into_a_new_thread(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    await bot.slash(users["alice"], "buy", thread, what="HB")
    await bot.slash(users["eve"], "game export", thread)
    [export] = thread.sent[-1].files
    assert export.filename == "1882-game1.json"
    data = export.fp.getvalue()  # type: ignore[attr-defined]

    answer = await bot.slash(users["carol"], "game import", lobby, file=FakeAttachment("game.json", data))
    assert answer.private == [], answer.private_text
    imported = [c for c in bot.world.channels.values() if c.type == discord.ChannelType.public_thread][-1]
    assert imported is not thread and "Imported 1882 game" in (imported.sent[0].content or "")
    record = await bot.adapter.service.storage.find_game("discord", str(imported.id))
    assert record is not None and record.id == 2


async def test_the_tree_error_handler_apologises(bot: Bot, users: dict[str, FakeUser], lobby: FakeChannel) -> None:
    client = RoundhouseClient(bot.adapter.service, DiscordSettings(sync_commands=False))
    interaction = bot.world.interaction(users["alice"], lobby)
    await client._on_tree_error(interaction, app_commands.CheckFailure("no"))  # type: ignore[arg-type]
    assert INCIDENT.search(interaction.private_text) and interaction.private[0].ephemeral
    assert client.tree.get_command("18xx") is client.roundhouse.group
    wanted = intents()
    assert wanted.guilds and not wanted.message_content and not wanted.members


def test_settings_take_the_token_and_guild_from_the_environment() -> None:
    settings = load_discord_settings(environ={"DISCORD_TOKEN": " abc ", "DISCORD_GUILD_ID": "123"})
    assert (settings.token, settings.guild_id) == ("abc", 123)
    assert load_discord_settings(environ={}).token == ""
    assert load_discord_settings(environ={}).guild_id is None


def test_running_without_a_token_explains_what_to_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from bot.discord.app import main

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("ROUNDHOUSE_CONFIG", raising=False)
    assert main(["--db", str(tmp_path / "x.db")]) == 2
    assert "Set DISCORD_TOKEN" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()  # nothing opened before the token check
