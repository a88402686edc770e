"""Discord failure paths through the real discord.py client (fake REST API): a refused lobby announcement, a
button no handler takes, a crafted button id beyond 64 bits. Each is answered clearly, never with an incident."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.discord.client import RoundhouseClient
from tests.bot.discord.real_stack import FakeDiscord, Interactions, channel_payload, guild_payload, settle, snowflake
from tests.bot.discord.test_real_stack import ALICE, EPHEMERAL, stack  # noqa: F401  (fixture)


def _answers(fake: FakeDiscord, since: int = 0) -> list[dict[str, Any]]:
    """What the bot said privately: interaction callbacks and follow-ups (their data)."""
    found = []
    for r in fake.requests[since:]:
        if r.path.endswith("/callback") and r.body.get("data"):
            found.append(r.body["data"])
        elif r.method in ("POST", "PATCH") and r.path.startswith("/webhooks/"):
            found.append(r.body)
    return found


async def test_a_refused_lobby_announcement_leaves_no_empty_thread_and_tells_the_creator(
    stack: tuple[RoundhouseClient, FakeDiscord],  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    client, fake = stack
    lobby = channel_payload(snowflake(), "games")
    client._connection._add_guild_from_data(guild_payload([lobby]))  # type: ignore[arg-type]
    make = Interactions(fake)
    # The bot may open threads but not post in the lobby itself (Send Messages missing there).
    fake.refuse[("POST", rf"/channels/{lobby['id']}/messages")] = (403, 50013)
    with caplog.at_level(logging.ERROR):
        options = [{"type": 3, "name": "title", "value": "1882"}]
        client._connection.parse_interaction_create(make.command(ALICE, lobby, "game new", options))  # type: ignore[arg-type]
        await settle()
    [thread] = fake.channels.values()
    posts = fake.of("POST", rf"/channels/{thread['id']}/messages")
    assert any("created 1882 game #1" in p.body.get("content", "") for p in posts)  # the thread is not empty
    told = [a.get("content", "") for a in _answers(fake)]
    assert any(f"<#{thread['id']}>" in text and "could not announce" in text and "permission" in text for text in told)
    assert not any("incident" in text for text in told)
    assert not [r for r in caplog.records if "incident" in r.getMessage()]
    assert await client.roundhouse.service.storage.find_game("discord", str(thread["id"])) is not None


@pytest.mark.parametrize(
    "custom_id",
    [
        "rh:99999999999999999999999999999:@0 pass",  # a game number beyond 64 bits
        "rh:18446744073709551617:@0 pass",
        "legacy-undo-button",  # a custom id of an old version, or of another bot
        "rh:notanumber:pass",
    ],
)
async def test_a_button_no_handler_takes_is_answered(
    stack: tuple[RoundhouseClient, FakeDiscord],  # noqa: F811
    caplog: pytest.LogCaptureFixture,
    custom_id: str,
) -> None:
    client, fake = stack
    lobby = channel_payload(snowflake(), "games")
    client._connection._add_guild_from_data(guild_payload([lobby]))  # type: ignore[arg-type]
    make = Interactions(fake)
    message = fake.message(snowflake(), {"content": "old", "components": []}, int(lobby["id"]))
    mark = len(fake.requests)
    with caplog.at_level(logging.ERROR):
        client._connection.parse_interaction_create(make.click(ALICE, lobby, message, custom_id))  # type: ignore[arg-type]
        await settle()
    [answer] = _answers(fake, mark)
    assert "not one of mine" in answer["content"] and answer.get("flags") == EPHEMERAL
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
