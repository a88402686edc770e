"""The two databases :class:`bot.storage.Storage` runs on: one SQLite file (the default) or a PostgreSQL server.

Everything the games need is the same SQL on both; this module holds what differs (opening, transactions,
placeholders, errors), so :mod:`bot.storage.repo` is written once:

* ``session()`` lends a connection in autocommit mode (one statement = one transaction);
* ``write()`` lends one inside a transaction that sees no concurrent writer's changes to the rows it locks:
  SQLite's ``BEGIN IMMEDIATE`` takes the file's write lock; PostgreSQL locks rows as they are read with the
  dialect's ``FOR UPDATE`` suffix (``Backend.for_update``), so the check-then-act methods stay race-free
  across processes on different machines too;
* statements are written with ``?`` placeholders and renumbered to ``$1, $2, ...`` for PostgreSQL.

A PostgreSQL database is named by a URL (``postgresql://user@host/db``); anything else is a SQLite file path.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import aiosqlite
import asyncpg

from bot import metrics

#: A result row: ``sqlite3.Row`` or ``asyncpg.Record``; both index by position and by column name.
Row = Any

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: Errors the database raises for a broken constraint (unique, foreign key, check, our triggers' refusals).
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def is_foreign_key_error(exc: BaseException) -> bool:
    return isinstance(exc, asyncpg.ForeignKeyViolationError) or "FOREIGN KEY" in str(exc)


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (no statement of ours has a ``?`` in a literal)."""
    counter = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def _session_time(seconds: float) -> None:
    metrics.storage("session", seconds)


def _transaction_time(seconds: float) -> None:
    metrics.storage("transaction", seconds)


class Db(Protocol):
    """A borrowed connection: statements with ``?`` placeholders, on either database."""

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]: ...

    async def one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row, or None."""

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> None: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


class _FirstRow:
    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.all(sql, params)
        return rows[0] if rows else None


class Backend(Protocol):
    dialect: str
    for_update: str

    def session(self) -> contextlib.AbstractAsyncContextManager[Db]: ...

    def write(self) -> contextlib.AbstractAsyncContextManager[Db]: ...

    async def integrity_check(self) -> list[str]: ...

    async def close(self) -> None: ...


# ---------------------------------------------------------------------------------------------------- SQLite


class _SqliteDb(_FirstRow):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    # Every aiosqlite call is a round trip to its worker thread, so each of these is one call (no cursor).
    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self.conn.execute_fetchall(sql, tuple(params)))

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> None:
        await self.conn.execute(sql, tuple(params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)


class SqliteBackend:
    """One connection, used by one task at a time (an ``asyncio.Lock``); other processes may share the file."""

    dialect = "sqlite"
    for_update = ""  # BEGIN IMMEDIATE already holds the whole file's write lock

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.db = _SqliteDb(conn)
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def session(self) -> AsyncIterator[Db]:
        async with self._lock:
            with metrics.Timer(_session_time):
                yield self.db

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Db]:
        """One ``BEGIN IMMEDIATE`` transaction, committed on success and rolled back on any exception.

        IMMEDIATE takes SQLite's write lock up front, so reads inside the transaction cannot be invalidated by
        another process before we write (no check-then-act races, no SQLITE_BUSY upgrade deadlocks).
        """
        async with self._lock:
            with metrics.Timer(_transaction_time):
                try:
                    await self.conn.execute("BEGIN IMMEDIATE")
                    yield self.db
                    await self.conn.execute("COMMIT")
                except BaseException:
                    # Unconditional: if we were cancelled while BEGIN was queued, in_transaction may not show it
                    # yet. aiosqlite runs queued statements in order, so this ROLLBACK runs after them. (If COMMIT
                    # itself was queued before a cancellation, it still commits and the ROLLBACK is a no-op.)
                    # OperationalError: no transaction is open (BEGIN failed, or SQLite rolled back: disk full).
                    with contextlib.suppress(sqlite3.OperationalError):
                        await self.conn.execute("ROLLBACK")
                    raise

    async def integrity_check(self) -> list[str]:
        async with self.session() as db:
            return [str(row[0]) for row in await db.all("PRAGMA integrity_check")]

    async def close(self) -> None:
        await self.conn.close()


async def enable_wal(db: aiosqlite.Connection, busy_timeout: float) -> str:
    """Switch to WAL (persistent in the file) and return the resulting journal mode.

    Converting a fresh file needs an exclusive lock, and SQLite reports "database is locked" at once, without
    its busy handler, when several connections race to convert the same new file. Retry for up to
    ``busy_timeout``; once a file is in WAL mode this succeeds on the first try.
    """
    deadline = time.monotonic() + busy_timeout
    delay = 0.005
    while True:
        try:
            rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + delay > deadline:
                raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.1)
            continue
        return str(rows[0][0]).lower() if rows else ""


# ---------------------------------------------------------------------------------------------------- PostgreSQL


class _PgDb(_FirstRow):
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *params))

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> None:
        await self.conn.execute(numbered(sql), *params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(numbered(sql), list(rows))


class PostgresBackend:
    """A pool of connections: tasks of one process run their statements side by side, as other processes do."""

    dialect = "postgresql"
    # Under READ COMMITTED a row read with FOR UPDATE stays as read until the transaction ends; a concurrent
    # writer of the same row waits, and one that committed first is seen (the row is re-read after the wait).
    for_update = " FOR UPDATE"

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    @asynccontextmanager
    async def session(self) -> AsyncIterator[Db]:
        with metrics.Timer(_session_time):
            async with self.pool.acquire() as conn:
                yield _PgDb(conn)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Db]:
        with metrics.Timer(_transaction_time):
            async with self.pool.acquire() as conn, conn.transaction():
                yield _PgDb(conn)

    async def integrity_check(self) -> list[str]:
        # The server checks its own pages (data_checksums); here: can we read every table at all.
        async with self.session() as db:
            await db.all("SELECT count(*) FROM games")
        return ["ok"]

    async def close(self) -> None:
        await self.pool.close()


async def _keep_session(conn: Any) -> None:
    """Nothing to undo when a connection goes back to the pool: storage never changes session state (no SET,
    LISTEN, cursors or session-level locks), and asyncpg itself rolls back an unfinished transaction."""


async def connect_postgres(url: str, *, pool_size: int, timeout: float) -> PostgresBackend:
    # Statements are prepared once per connection and reused; the pool keeps its connections open. Without
    # reset=, every release would cost another round trip (RESET ALL etc.): half of all round trips.
    pool = await asyncpg.create_pool(
        url, min_size=1, max_size=max(1, pool_size), timeout=timeout, reset=_keep_session
    )
    return PostgresBackend(pool)
