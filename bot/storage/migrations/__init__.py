"""Ordered schema migrations, applied by :meth:`bot.storage.Storage.open`.

Each migration is a SQL script in its own module (kept as Python so it ships without package-data settings).
To change the schema, add ``mNNNN_<what>.py`` with a ``SQL`` string and append it to ``MIGRATIONS``; never
edit a migration that has been released.

Applied versions are recorded in ``schema_version``. Each migration runs in its own ``BEGIN IMMEDIATE``
transaction together with its ``schema_version`` row, after re-reading the current version under that write
lock, so reopening is idempotent and two processes opening a fresh file at once cannot both apply it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.storage.errors import SchemaError
from bot.storage.migrations import m0001_initial, m0002_broken_games


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial", m0001_initial.SQL),
    Migration(2, "broken_games", m0002_broken_games.SQL),
)

_CREATE_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
)
"""


def split_statements(script: str) -> list[str]:
    """Split a SQL script into complete statements (trigger bodies stay whole).

    >>> split_statements("CREATE TABLE t (x); -- note\\nINSERT INTO t VALUES (';');")
    ['CREATE TABLE t (x);', "-- note\\nINSERT INTO t VALUES (';');"]

    Raises:
        SchemaError: if the script ends with an incomplete statement.
    """
    statements: list[str] = []
    chunk = ""
    for part in script.split(";")[:-1]:
        chunk += part + ";"
        # A ";" inside a string, comment or trigger body leaves the statement incomplete: keep accumulating.
        if sqlite3.complete_statement(chunk):
            statements.append(chunk.strip())
            chunk = ""
    leftover = chunk + script.split(";")[-1]
    if any(line.strip() and not line.strip().startswith("--") for line in leftover.splitlines()):
        raise SchemaError(f"incomplete SQL statement at end of migration script: {leftover.strip()[:200]!r}")
    return statements


def _check_order(migrations: Sequence[Migration]) -> None:
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise SchemaError(f"migration versions must be 1..N in order, got {versions}")


async def current_version(db: aiosqlite.Connection) -> int:
    """The highest applied migration version (0 for a fresh database)."""
    async with db.execute("SELECT coalesce(max(version), 0) FROM schema_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def apply_migrations(
    db: aiosqlite.Connection, migrations: Sequence[Migration], *, now: float
) -> list[int]:
    """Apply every migration newer than the database's version; return the versions applied.

    ``db`` must be in autocommit mode (``isolation_level=None``) with no open transaction.

    Raises:
        SchemaError: if the database was migrated by newer code than ``migrations`` knows about,
            or the migration list is malformed.
        sqlite3.Error: if a migration script fails; that migration is rolled back entirely.
    """
    _check_order(migrations)
    await db.execute(_CREATE_VERSION_TABLE)
    applied: list[int] = []
    for migration in migrations:
        if migration.version <= await current_version(db):
            continue
        await db.execute("BEGIN IMMEDIATE")
        try:
            # Re-check under the write lock: another process may have migrated while we waited.
            if migration.version <= await current_version(db):
                await db.execute("ROLLBACK")
                continue
            for statement in split_statements(migration.sql):
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, now),
            )
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
        applied.append(migration.version)
    latest = await current_version(db)
    known = migrations[-1].version if migrations else 0
    if latest > known:
        raise SchemaError(
            f"database schema version {latest} is newer than this code supports ({known}); upgrade the bot"
        )
    return applied
