"""Copying a whole database into another one (SQLite to PostgreSQL for ``python -m bot migrate-db``).

Rows keep their ids, so links between tables (and ids players have seen, like game #12) stay as they were.
The copy is one transaction on the target: it holds all of the source or nothing.
"""

from __future__ import annotations

from typing import Any

from bot.storage.migrations import ID_TABLES
from bot.storage.repo import Storage

#: Every table with the columns to copy, parents before children (foreign keys), actions in log order.
TABLES: dict[str, tuple[str, str]] = {
    "games": (
        "id, platform, channel, title, seed, options, engine_version, status, created_by, created_at,"
        " updated_at, broken, broken_noticed_at",
        "id",
    ),
    "seats": ("game_id, seat, platform, user_id, display_name, player_id", "game_id, seat"),
    "actions": ("game_id, seq, data, actor, created_at", "game_id, seq"),
    "snapshots": ("game_id, seq, data, created_at", "game_id"),
    "outbox": (
        "id, game_id, platform, user_id, kind, payload, due_at, sent_at, dedupe_key, attempts, created_at",
        "id",
    ),
    "user_prefs": ("platform, user_id, data, updated_at", "platform, user_id"),
    "consents": (
        "id, game_id, kind, requested_by, payload, approvers, status, expires_at, created_at, resolved_at",
        "id",
    ),
    "pace_spans": ("id, game_id, user_id, started_at, ended_at, waking", "id"),
    "away_spans": ("platform, user_id, started_at, ended_at", "platform, user_id, started_at"),
    "game_extras": ("game_id, data, updated_at", "game_id"),
    "auto_actions": ("id, game_id, user_id, spec, created_at, ended_at, ended_why", "id"),
    "forks": ("game_id, source_id, at_seq, owner, expires_at, closed_at", "game_id"),
}


class TargetNotEmptyError(RuntimeError):
    """The target database already holds games or other rows; copying into it could mix two bots' data."""


async def table_rows(storage: Storage, table: str) -> list[tuple[Any, ...]]:
    """Every row of a table (columns as in :data:`TABLES`) in key order."""
    columns, order = TABLES[table]
    async with storage._backend.session() as db:
        rows = await db.all(f"SELECT {columns} FROM {table} ORDER BY {order}")
    return [_plain(table, tuple(row)) for row in rows]


def _plain(table: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    # SQLite returns what was stored (a whole-number time may come back as an int); compare as the target has it.
    if table == "snapshots":
        return (row[0], row[1], bytes(row[2]), float(row[3]))
    return row


async def copy_database(source: Storage, target: Storage) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; returns the number of rows per table.

    Raises: TargetNotEmptyError if ``target`` holds any row already.
    """
    counts: dict[str, int] = {}
    rows_of = {table: await table_rows(source, table) for table in TABLES}
    async with target._backend.write() as db:
        for table in TABLES:
            if await db.all(f"SELECT 1 FROM {table} LIMIT 1"):
                raise TargetNotEmptyError(f"the target database already has rows in {table}")
        for table, (columns, _) in TABLES.items():
            rows = rows_of[table]
            if rows:
                marks = ", ".join("?" * len(columns.split(",")))
                await db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
            counts[table] = len(rows)
        if target.dialect == "postgresql":
            for table in ID_TABLES:
                # Rows came with their ids: the next id the database hands out must follow the largest.
                await db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false)"
                    f" FROM {table}"
                )
    return counts
