"""Schema migrations: applied once, idempotent on reopen, atomic, and refusing newer databases."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import SchemaError, Storage
from bot.storage.backends import INTEGRITY_ERRORS, is_foreign_key_error
from bot.storage.migrations import MIGRATIONS, Migration, apply_migrations, split_statements
from tests.bot.storage.conftest import raw

TABLES = {"games", "seats", "actions", "snapshots", "outbox", "user_prefs", "consents", "schema_version"}


def _versions(db_path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(db_path) as con:
        return con.execute("SELECT version, name FROM schema_version ORDER BY version").fetchall()


def _tables(db_path: Path) -> set[str]:
    with sqlite3.connect(db_path) as con:
        return {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


async def test_open_creates_schema_and_reopen_is_idempotent(db_path: Path) -> None:
    for _ in range(3):
        async with await Storage.open(db_path):
            pass
    assert _versions(db_path) == [(m.version, m.name) for m in MIGRATIONS]
    assert _tables(db_path) >= TABLES


async def test_apply_migrations_reports_what_it_applied(db_path: Path) -> None:
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        assert await apply_migrations(db, MIGRATIONS, now=1.0) == [m.version for m in MIGRATIONS]
        assert await apply_migrations(db, MIGRATIONS, now=2.0) == []


async def test_file_is_wal(db_path: Path) -> None:
    async with await Storage.open(db_path):
        pass
    with sqlite3.connect(db_path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_foreign_keys_are_enforced(storage: Storage) -> None:
    with pytest.raises(INTEGRITY_ERRORS) as refused:
        await raw(
            storage,
            "INSERT INTO seats (game_id, seat, platform, user_id, display_name) VALUES (999, 0, 'd', 'u', 'U')",
        )
    assert is_foreign_key_error(refused.value)


async def test_one_definition_gives_both_databases_the_same_tables(storage: Storage) -> None:
    if storage.dialect == "sqlite":
        rows = await raw(storage, "SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = await raw(storage, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    assert {row[0] for row in rows} >= TABLES
    assert [tuple(r) for r in await raw(storage, "SELECT version, name FROM schema_version ORDER BY version")] == [
        (m.version, m.name) for m in MIGRATIONS
    ]


def test_sqlite_rendering_of_the_shared_scripts_is_plain_sqlite() -> None:
    """The dialect placeholders are all spelled out (a leftover ``$INT`` would be a column type named so)."""
    for migration in MIGRATIONS:
        assert "$" not in migration.render("sqlite")
        assert "BIGINT" in migration.render("postgresql") or "DOUBLE PRECISION" in migration.render("postgresql")


async def test_postgres_concurrent_first_opens_apply_each_migration_once(postgres_url: str) -> None:
    opened = await asyncio.gather(*(Storage.open(postgres_url) for _ in range(4)))
    try:
        rows = await raw(opened[0], "SELECT version, name FROM schema_version ORDER BY version")
        assert [tuple(r) for r in rows] == [(m.version, m.name) for m in MIGRATIONS]
    finally:
        for storage in opened:
            await storage.close()


async def test_postgres_failed_migration_is_rolled_back_and_newer_schema_refused(postgres_url: str) -> None:
    script = "CREATE TABLE extra (x $INT);\nINSERT INTO no_such_table VALUES (1);"
    broken = Migration(len(MIGRATIONS) + 1, "broken", script)
    with pytest.raises(asyncpg.UndefinedTableError):
        await Storage.open(postgres_url, migrations=(*MIGRATIONS, broken))
    async with await Storage.open(postgres_url) as storage:
        rows = await raw(storage, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        assert "extra" not in {row[0] for row in rows}
    future = Migration(len(MIGRATIONS) + 1, "future", "CREATE TABLE future_feature (x $INT);")
    async with await Storage.open(postgres_url, migrations=(*MIGRATIONS, future)):
        pass
    with pytest.raises(SchemaError, match="newer"):
        await Storage.open(postgres_url)


async def test_concurrent_first_opens_apply_each_migration_once(db_path: Path) -> None:
    opened = await asyncio.gather(*(Storage.open(db_path) for _ in range(4)))
    for storage in opened:
        await storage.close()
    assert _versions(db_path) == [(m.version, m.name) for m in MIGRATIONS]


async def test_failed_migration_is_rolled_back_entirely(db_path: Path) -> None:
    broken = Migration(
        len(MIGRATIONS) + 1, "broken", "CREATE TABLE extra (x INTEGER);\nINSERT INTO no_such_table VALUES (1);"
    )
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        await Storage.open(db_path, migrations=(*MIGRATIONS, broken))
    assert _versions(db_path) == [(m.version, m.name) for m in MIGRATIONS]
    assert "extra" not in _tables(db_path)
    # The file is still usable by the current code.
    async with await Storage.open(db_path):
        pass


async def test_newer_schema_is_refused(db_path: Path) -> None:
    future = Migration(len(MIGRATIONS) + 1, "future", "CREATE TABLE future_feature (x INTEGER);")
    async with await Storage.open(db_path, migrations=(*MIGRATIONS, future)):
        pass
    with pytest.raises(SchemaError, match="newer"):
        await Storage.open(db_path)


async def test_upgrade_keeps_the_games_of_an_older_schema(db_path: Path) -> None:
    async with await Storage.open(db_path, migrations=MIGRATIONS[:1]) as old:
        game_id = await old.create_game(
            platform="d", channel="c", title="1882", seed=1, options={}, engine_version="e", created_by="u"
        )
        await old.append_action(game_id, 1, {"type": "pass"}, "u")
    async with await Storage.open(db_path) as storage:
        game = await storage.get_game(game_id)
        assert game.broken is None and game.title == "1882"
        assert await storage.load_actions(game_id) == [(1, {"type": "pass"})]
    assert _versions(db_path) == [(m.version, m.name) for m in MIGRATIONS]


async def test_migration_versions_must_be_contiguous(db_path: Path) -> None:
    with pytest.raises(SchemaError, match=r"1\.\.N"):
        await Storage.open(db_path, migrations=(Migration(2, "skipped_one", "SELECT 1;"),))


def test_split_statements_keeps_trigger_bodies_and_quoted_semicolons() -> None:
    script = """
    CREATE TABLE t (x TEXT); -- a comment; with a semicolon
    CREATE TRIGGER tr BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no; never'); END;
    INSERT INTO t VALUES ('a;b');
    """
    statements = split_statements(script)
    assert len(statements) == 3
    assert statements[1].endswith("END;")
    assert statements[2].endswith("('a;b');")


def test_split_statements_rejects_unterminated_statement() -> None:
    with pytest.raises(SchemaError, match="incomplete"):
        split_statements("CREATE TABLE t (x);\nCREATE TABLE u (y)")
