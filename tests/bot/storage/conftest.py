"""Fixtures for storage tests: a fresh database per test, on SQLite and on PostgreSQL, and a controllable clock.

``storage`` and ``db_url`` are parametrised over both backends. The PostgreSQL server is one per test session:
the one ./test.sh started (``ROUNDHOUSE_TEST_POSTGRES``), else a throwaway one started here when PostgreSQL is
installed; without either the PostgreSQL cases are skipped with the reason. Each test gets its own schema,
dropped afterwards.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Storage
from tests import pg_server

BACKENDS = ("sqlite", "postgresql")


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


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a PostgreSQL server for this session (skips the test when there is none)."""
    given = os.environ.get("ROUNDHOUSE_TEST_POSTGRES")
    if given:
        yield given
        return
    if os.environ.get("ROUNDHOUSE_TEST_POSTGRES_SKIP"):
        pytest.skip(f"PostgreSQL tests skipped: {os.environ['ROUNDHOUSE_TEST_POSTGRES_SKIP']}")
    directory = tmp_path_factory.mktemp("postgres") / "server"
    try:
        url = pg_server.start(directory)
    except pg_server.Unavailable as exc:
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    try:
        yield url
    finally:
        pg_server.stop(directory)


async def _admin(server: str, sql: str) -> None:
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def fresh_schema(server: str) -> AsyncIterator[str]:
    """A URL for ``server`` whose connections work in a new, empty schema, dropped afterwards."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    await _admin(server, f"CREATE SCHEMA {schema}")
    try:
        yield f"{server}&search_path={schema}"
    finally:
        await _admin(server, f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
async def postgres_url(postgres_server: str) -> AsyncIterator[str]:
    async with fresh_schema(postgres_server) as url:
        yield url


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def db_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """An empty database on this test's backend: a SQLite file path or a PostgreSQL URL."""
    if backend == "sqlite":
        yield str(db_path)
        return
    async with fresh_schema(request.getfixturevalue("postgres_server")) as url:
        yield url


@pytest.fixture
async def storage(db_url: str, clock: FakeClock) -> AsyncIterator[Storage]:
    async with await Storage.open(db_url, clock=clock) as opened:
        yield opened


async def raw(storage: Storage, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    """Run one statement on the storage's own database, bypassing its methods (``?`` placeholders)."""
    async with storage._backend.session() as db:
        return await db.all(sql, params)


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
