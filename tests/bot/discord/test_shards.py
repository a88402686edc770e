"""Sharding: one bot split over several processes (``--shards 0-3 --shard-count 16``) on one database.

Offline: the real discord.py client logs in against the fake REST API on 127.0.0.1 (no gateway is reached),
and two bots of the hand-made fakes share one database as two processes would.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from aiohttp.test_utils import TestServer

from bot.config import Settings
from bot.core.service import GameService
from bot.discord.app import build_parser, check_shards, shard_list
from bot.discord.client import RoundhouseClient
from bot.discord.settings import DiscordSettings
from bot.storage import Storage
from tests.bot.conftest import FakeClock
from tests.bot.discord.conftest import new_game, open_bot
from tests.bot.discord.fakes import FakeChannel, FakeUser, World
from tests.bot.discord.real_stack import FakeDiscord

HOUR = 3600.0


def test_shard_ranges_on_the_command_line() -> None:
    assert shard_list("0-3") == [0, 1, 2, 3]
    assert shard_list("4-5, 0,9") == [0, 4, 5, 9]
    parser = build_parser()
    args = parser.parse_args(["--shards", "0-3", "--shard-count", "16"])
    check_shards(parser, args)
    assert (args.shards, args.shard_count) == ([0, 1, 2, 3], 16)
    for bad in (["--shards", "3-1", "--shard-count", "4"], ["--shards", "x"]):
        with pytest.raises(SystemExit):
            check_shards(parser, parser.parse_args(bad))
    for incomplete in (["--shards", "0-3"], ["--shards", "12-16", "--shard-count", "16"], ["--shard-count", "0"]):
        with pytest.raises(SystemExit):
            check_shards(parser, parser.parse_args(incomplete))


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    server = TestServer(fake.app(), host="127.0.0.1")
    await server.start_server()
    fake.url = str(server.make_url("")).rstrip("/")
    monkeypatch.setattr(discord.http.Route, "BASE", f"{fake.url}/api/v10")
    try:
        yield fake
    finally:
        await server.close()


async def test_processes_split_the_shards_and_one_of_them_syncs_the_commands(
    tmp_path: Path, clock: FakeClock, fake_discord: FakeDiscord
) -> None:
    service = GameService(await Storage.open(tmp_path / "bot.db", clock=clock), Settings(images=False), clock=clock)
    settings = DiscordSettings(token="x", reminder_seconds=3600)
    clients = [
        RoundhouseClient(service, settings, shard_ids=range(first, first + 4), shard_count=16) for first in (0, 4)
    ]
    try:
        for client in clients:
            assert isinstance(client, discord.AutoShardedClient)
            await client.login("x")  # static_login and setup_hook, as at a real start (no gateway)
        assert [(c.shard_ids, c.shard_count) for c in clients] == [([0, 1, 2, 3], 16), ([4, 5, 6, 7], 16)]
        assert len(fake_discord.of("PUT", r"/applications/\d+/commands")) == 1  # shard 0's process only
    finally:
        for client in clients:
            await client.close()
        await service.close()
    with pytest.raises(ValueError, match="shard_count"):
        RoundhouseClient(service, settings, shard_ids=[0])


async def test_two_processes_on_one_database_ping_a_due_reminder_once(
    tmp_path: Path, world: World, clock: FakeClock, settings: Settings, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    first, first_service = await open_bot(tmp_path / "games.db", world, clock, settings)
    second, second_service = await open_bot(tmp_path / "games.db", world, clock, settings)
    try:
        thread = await new_game(first, lobby, users)
        await second.slash(users["alice"], "buy", thread, what="HB")  # bob is up now
        mark = len(thread.sent)
        clock.advance(25 * HOUR)
        rounds = await asyncio.gather(*(bot.adapter.reminders.tick() for bot in (first, second, first, second)))
        assert sorted(n.user_id for notes in rounds for n in notes) == [str(users["bob"].id)]
        pings = [m.content or "" for m in thread.sent[mark:] if re.search(r"Reminder", m.content or "")]
        assert len(pings) == 1
    finally:
        await first_service.close()
        await second_service.close()
