"""Fixtures for storage tests: a fresh database per test and a controllable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Storage


class FakeClock:
    """Injectable clock: returns ``now`` and only moves when told to."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "roundhouse.db"


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    async with await Storage.open(db_path, clock=clock) as opened:
        yield opened


async def make_game(storage: Storage, channel: str = "chan-1", **overrides: Any) -> int:
    fields: dict[str, Any] = {
        "platform": "discord",
        "channel": channel,
        "title": "1882",
        "seed": 12345,
        "options": {"variant": "base", "optional_rules": ["short_game"]},
        "engine_version": "0.1.0",
        "created_by": "u-host",
    }
    fields.update(overrides)
    return await storage.create_game(**fields)
