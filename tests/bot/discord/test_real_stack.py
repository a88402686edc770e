"""The real discord.py client against a fake Discord REST API on 127.0.0.1 (see ``real_stack``).

Unlike the hand-made fakes, this runs discord.py's login, ``setup_hook`` and command sync, the command tree's
dispatch and option transformers, autocomplete responses, the dynamic-item button dispatch, webhook
follow-ups, and real ``discord.Forbidden`` answers (50013 missing permissions, 50007 closed DMs).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from aiohttp.test_utils import TestServer

from bot.config import Settings
from bot.core.service import GameService
from bot.discord.client import RoundhouseClient
from bot.discord.settings import DiscordSettings
from bot.storage import Storage
from tests.bot.conftest import FakeClock
from tests.bot.discord.real_stack import (
    FakeDiscord,
    Interactions,
    channel_payload,
    guild_payload,
    settle,
    snowflake,
)

ALICE = (snowflake(), "alice")
BOB = (snowflake(), "bob")
EPHEMERAL = 64


@pytest.fixture
async def stack(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[RoundhouseClient, FakeDiscord]]:
    fake = FakeDiscord()
    server = TestServer(fake.app(), host="127.0.0.1")
    await server.start_server()
    fake.url = str(server.make_url("")).rstrip("/")
    monkeypatch.setattr(discord.http.Route, "BASE", f"{fake.url}/api/v10")
    service = GameService(await Storage.open(tmp_path / "bot.db", clock=clock), Settings(images=False), clock=clock)
    client = RoundhouseClient(service, DiscordSettings(token="x", reminder_seconds=3600))
    try:
        await client.login("x")  # static_login, application_info, setup_hook with the real sync
        yield client, fake
    finally:
        await client.close()
        await service.close()
        await server.close()


def _callbacks(fake: FakeDiscord, since: int = 0) -> list[dict[str, Any]]:
    return [r.body for r in fake.requests[since:] if r.path.endswith("/callback")]


def _followups(fake: FakeDiscord, since: int = 0) -> list[dict[str, Any]]:
    return [r.body for r in fake.requests[since:] if r.method == "POST" and r.path.startswith("/webhooks/")]


async def test_the_real_client_plays_through_discord_py(stack: tuple[RoundhouseClient, FakeDiscord]) -> None:
    client, fake = stack
    assert [c["name"] for c in fake.of("PUT", r"/applications/\d+/commands")[0].body] == ["18xx"]
    lobby = channel_payload(snowflake(), "games")
    client._connection._add_guild_from_data(guild_payload([lobby]))  # type: ignore[arg-type]
    make = Interactions(fake)
    state = client._connection

    # A slash command through the command tree: the game gets a thread of its own.
    options = [{"type": 3, "name": "title", "value": "1882"}, {"type": 4, "name": "seed", "value": 5}]
    state.parse_interaction_create(make.command(ALICE, lobby, "game new", options))  # type: ignore[arg-type]
    await settle()
    assert _callbacks(fake)[0] == {"type": 5, "data": {"flags": EPHEMERAL}}  # deferred, privately
    assert len(fake.of("POST", rf"/channels/{lobby['id']}/threads")) == 1
    [thread] = fake.channels.values()
    thread_channel = thread["id"]
    posts = fake.of("POST", rf"/channels/{thread_channel}/messages")
    assert any("created 1882 game #1" in p.body.get("content", "") for p in posts)
    [link] = fake.of("POST", rf"/channels/{lobby['id']}/messages")
    assert f"<#{thread_channel}>" in link.body["content"]

    # An autocomplete answered by the engine's legal values.
    mark = len(fake.requests)
    typing = [{"type": 3, "name": "title", "value": "18", "focused": True}]
    auto = make.command(ALICE, lobby, "game new", typing, kind=4)
    state.parse_interaction_create(auto)  # type: ignore[arg-type]
    await settle()
    [answer] = _callbacks(fake, mark)
    assert answer["type"] == 8 and {"name": "1882", "value": "1882"} in answer["data"]["choices"]

    state.parse_interaction_create(make.command(BOB, thread, "game join"))  # type: ignore[arg-type]
    await settle()
    mark = len(fake.requests)
    state.parse_interaction_create(make.command(ALICE, thread, "game start"))  # type: ignore[arg-type]
    await settle()
    in_thread = rf"/channels/{thread_channel}/messages"
    start = next(p for p in fake.of("POST", in_thread)[::-1] if "starts" in p.body["content"])
    buttons = [c for row in start.body["components"] for c in row["components"]]
    assert [b["custom_id"] for b in buttons] == ["rh:1:@0 buy HB", "rh:1:@0 pass"]

    # bob wants DMs, but his are closed (50007): the ping falls back to a mention in the thread.
    state.parse_interaction_create(
        make.command(BOB, thread, "prefs notify", [{"type": 3, "name": "mode", "value": "dm"}])  # type: ignore[arg-type]
    )
    await settle()
    fake.closed_dms = True

    # A button through discord.py's dynamic-item dispatch; the second click of the same button is refused.
    message = fake.message(snowflake(), start.body, int(thread_channel))
    for _ in range(2):
        state.parse_interaction_create(make.click(ALICE, thread, message, "rh:1:@0 buy HB"))  # type: ignore[arg-type]
        await settle()
    assert await client.roundhouse.service.storage.last_seq(1) == 1
    refusals = [f["content"] for f in _followups(fake) if f.get("flags") == EPHEMERAL]
    assert any("earlier step" in text for text in refusals)
    assert fake.of("POST", r"/users/@me/channels")  # the DM was tried first
    pinged = [p for p in fake.of("POST", in_thread) if f"<@{BOB[0]}>" in p.body["content"]]
    assert pinged and pinged[-1].body["allowed_mentions"]["users"] == [BOB[0]]


async def test_a_real_403_after_a_stored_move(stack: tuple[RoundhouseClient, FakeDiscord]) -> None:
    client, fake = stack
    lobby = channel_payload(snowflake(), "games")
    client._connection._add_guild_from_data(guild_payload([lobby]))  # type: ignore[arg-type]
    make = Interactions(fake)
    state = client._connection
    fake.refuse[("POST", r"/channels/\d+/threads")] = (403, 50013)  # no thread: the game is played in the lobby
    state.parse_interaction_create(
        make.command(ALICE, lobby, "game new", [{"type": 3, "name": "title", "value": "1882"}])  # type: ignore[arg-type]
    )
    await settle()
    for user, verb in ((BOB, "game join"), (ALICE, "game start")):
        state.parse_interaction_create(make.command(user, lobby, verb))  # type: ignore[arg-type]
        await settle()
    fake.refuse[("POST", rf"/channels/{lobby['id']}/messages")] = (403, 50013)
    mark = len(fake.requests)
    state.parse_interaction_create(make.command(ALICE, lobby, "pass"))  # type: ignore[arg-type]
    await settle()
    assert await client.roundhouse.service.storage.last_seq(1) == 1
    told = " ".join(f.get("content", "") for f in _followups(fake, mark))
    assert "Your move was stored (action 1)" in told and "lacks a permission" in told
    # Without Send Messages the bot says so before doing anything.
    mark = len(fake.requests)
    state.parse_interaction_create(make.command(BOB, lobby, "pass", permissions=0))  # type: ignore[arg-type]
    await settle()
    assert "Send Messages permission" in " ".join(f.get("content", "") for f in _followups(fake, mark))
    assert await client.roundhouse.service.storage.last_seq(1) == 1
