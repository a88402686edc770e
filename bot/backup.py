"""``python -m bot backup [--db DB] OUT``: a consistent copy of a live SQLite database, checked by replaying it.

The copy is made with SQLite's online backup (``sqlite3.Connection.backup``): it reads the database page by page
as one consistent snapshot while the bot keeps running and writing (WAL mode), so no game is copied half
stored. Then the copy itself is checked: SQLite's integrity check, and every game replayed from its whole log
with this engine, as ``check-games`` does. The last line is ``backup OUT: N games; checked N games: K replay,
F fail``. Exit status 0 when the copy is sound and every game replays, 1 when a game fails, 2 when no backup
could be made (no database, OUT exists, a PostgreSQL URL: back those up with ``pg_dump``, see the README).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sqlite3
import sys
from pathlib import Path
from typing import TextIO

from bot.check_games import run as check_games
from bot.config import load_settings
from bot.storage import is_postgres_url

#: Pages copied per step: small steps let the running bot write between them.
PAGES_PER_STEP = 256


def copy_database(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into the new file ``target`` (removed again if it fails)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst, pages=PAGES_PER_STEP)
            # The copy is a plain file with no -wal beside it: readable by itself, e.g. on another machine.
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    finally:
        src.close()


def integrity(target: Path) -> str:
    conn = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
    try:
        return "; ".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


def backup(source: str, target: str, *, out: TextIO) -> int:
    """Copy and check; returns the exit status (see the module's docstring)."""
    if is_postgres_url(source):
        print(
            "backup: the database is PostgreSQL: use `pg_dump --format=custom` (see the README's backups section)",
            file=sys.stderr,
        )
        return 2
    src, dst = Path(source), Path(target)
    if not src.is_file():
        print(f"backup: no database at {src}", file=sys.stderr)
        return 2
    if dst.exists():
        print(f"backup: {dst} exists already; name a new file", file=sys.stderr)
        return 2
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        copy_database(src, dst)
    except sqlite3.Error as exc:
        print(f"backup: {src} could not be copied: {exc}", file=sys.stderr)
        return 2
    sound = integrity(dst)
    if sound != "ok":
        print(f"backup: the copy {dst} is damaged: {sound}", file=sys.stderr)
        return 1
    report = io.StringIO()
    status = asyncio.run(check_games(str(dst), mark=False, out=report))
    lines = report.getvalue().splitlines()
    for line in lines[:-1]:
        print(line, file=out)
    games = lines[-1].split()[1] if lines else "0"
    print(f"backup {dst}: {games} games; {lines[-1] if lines else 'nothing to check'}", file=out)
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy a live SQLite database consistently (online backup), then check the copy by replaying "
        "every game. PostgreSQL: use pg_dump (README).",
    )
    parser.add_argument("--db", help="the SQLite database (default: $ROUNDHOUSE_DB, else config)")
    parser.add_argument("--config", help="a TOML file with settings on top of config/defaults.toml")
    parser.add_argument("out", help="the new file to write the copy to (must not exist)")
    return parser


def main(argv: list[str] | None = None, *, out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    db = args.db or load_settings(args.config).database
    return backup(db, args.out, out=out or sys.stdout)
