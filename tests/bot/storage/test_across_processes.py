"""Several bot processes on one database (SQLite file or PostgreSQL): each is a GameService of its own here.

What one process stores, the others see at their next command (their in-memory games follow the log and the
seats), and a reminder that came due is handed out by exactly one of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.core.replies import Reply
from bot.core.service import GameService
from bot.storage import Storage
from tests.bot.storage.conftest import FakeClock

HOUR = 3600.0


@pytest.fixture
async def services(db_url: str, clock: FakeClock) -> AsyncIterator[list[GameService]]:
    settings = Settings(images=False, snapshot_every=25)
    opened = [GameService(await Storage.open(db_url, clock=clock), settings, clock=clock) for _ in range(3)]
    try:
        yield opened
    finally:
        for service in opened:
            await service.close()


async def say(service: GameService, user: str, text: str, channel: str = "general") -> Reply:
    (reply,) = await service.handle("test", channel, user, user.capitalize(), text)
    return reply


async def start(service: GameService, channel: str, users: tuple[str, ...], seed: int = 5) -> None:
    assert (await say(service, users[0], f"new 1882 seed={seed}", channel)).ok
    for user in users[1:]:
        assert (await say(service, user, "join", channel)).ok
    assert (await say(service, users[0], "start", channel)).ok


async def test_a_move_and_a_new_seat_stored_by_one_process_are_seen_by_another(
    services: list[GameService],
) -> None:
    a, b, _ = services
    await start(a, "general", ("alice", "bob"))
    assert (await say(a, "alice", "buy HB")).ok  # a has the game in memory now
    # b hands bob's seat on; a still holds the game (and its seats) from before.
    assert (await say(b, "bob", "replace @bob @carol")).ok
    reply = await say(a, "carol", "pass")
    assert reply.ok, reply.text
    refused = await say(a, "bob", "pass")
    assert not refused.ok


async def test_due_reminders_are_handed_out_once_across_processes(
    services: list[GameService], clock: FakeClock
) -> None:
    tables = [f"table-{n}" for n in range(4)]
    for n, channel in enumerate(tables):
        await start(services[n % 3], channel, (f"a{n}", f"b{n}"), seed=5)
        assert (await say(services[n % 3], f"a{n}", "buy HB", channel)).ok  # b{n} is to move now
    clock.advance(25 * HOUR)
    rounds = await asyncio.gather(*(service.due_notifications() for service in services for _ in range(2)))
    delivered = sorted((note.user_id, note.kind) for notes in rounds for note in notes)
    assert delivered == [(f"b{n}", "reminder") for n in range(4)]
