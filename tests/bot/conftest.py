"""Fixtures for the game service: a fresh database per test, a controllable clock, pictures off."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.config import Settings
from bot.core.replies import Reply
from bot.core.service import GameService
from bot.storage import Storage, repo


class FakeClock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture(autouse=True)
def _no_fsync_per_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests open their databases with synchronous=NORMAL: a power cut is not what they exercise, and an
    fsync per append makes the suite more than twice as slow. ``test_storage_durability`` checks the
    production default."""
    monkeypatch.setattr(repo, "DEFAULT_SYNCHRONOUS", "NORMAL", raising=False)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings() -> Settings:
    return Settings(images=False, snapshot_every=25)


@pytest.fixture
async def service(tmp_path: Path, clock: FakeClock, settings: Settings) -> AsyncIterator[GameService]:
    storage = await Storage.open(tmp_path / "bot.db", clock=clock)
    svc = GameService(storage, settings, clock=clock)
    try:
        yield svc
    finally:
        await svc.close()


@dataclass
class Table:
    """A channel with players who talk to the bot."""

    service: GameService
    channel: str = "general"
    platform: str = "test"

    async def say(self, user: str, text: str, *, channel: str | None = None) -> Reply:
        replies = await self.service.handle(self.platform, channel or self.channel, user.lower(), user, text)
        assert len(replies) == 1
        return replies[0]


@pytest.fixture
def table(service: GameService) -> Table:
    return Table(service)


async def started(table: Table, users: tuple[str, ...] = ("alice", "bob"), seed: int = 7) -> int:
    reply = await table.say(users[0], f"new 1882 seed={seed}")
    assert reply.ok, reply.text
    for user in users[1:]:
        assert (await table.say(user, "join")).ok
    reply = await table.say(users[0], "start")
    assert reply.ok, reply.text
    assert reply.game_id is not None
    return reply.game_id
