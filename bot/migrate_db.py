"""``python -m bot migrate-db SQLITE_FILE POSTGRES_URL``: move the bot's data from SQLite to PostgreSQL.

Stop the bot first (a move made during the copy would stay behind in the file). Every game with its seats,
action log and snapshot, every preference, request vote and outbox item (pending reminders and held turn
pings) is copied with its id, in one transaction: the target holds all of it or nothing. The target must be
empty (its schema is created if needed).

Then both sides are checked: every table must hold the same rows, and every game with a stored log is replayed
from its first action by this engine on each side; the two replays must agree (the same refused action, or
the same state at the end). The exit status is 0 when the copy is complete and checked, 1 when a check
failed, 2 when nothing was copied (no such file, a target that is not empty or cannot be reached).
Then start the bot with ``--db POSTGRES_URL`` (or ``ROUNDHOUSE_DB=POSTGRES_URL``); keep the file as a backup.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any, TextIO

from bot import logs
from bot.core.live import LoadError, replay_stored
from bot.storage import GameRecord, GameStatus, Storage, is_postgres_url
from bot.storage.transfer import TABLES, TargetNotEmptyError, copy_database, table_rows
from engine.reconcile import ledger


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-db",
        description="Copy every game, seat, preference and pending reminder from SQLite to PostgreSQL, then "
        "check the copy by replaying every game on both sides.",
    )
    parser.add_argument("sqlite_file", help="the bot's SQLite database (the bot stopped)")
    parser.add_argument("postgres_url", help="postgresql://user[:password]@host[:port]/database (empty)")
    return parser


async def replay_outcome(storage: Storage, record: GameRecord) -> tuple[Any, ...]:
    """What replaying a game's whole log gives: the refused action, or the state at the end."""
    try:
        game = await replay_stored(storage, record)
    except LoadError as exc:
        failure = exc.failure
        return ("refused", failure.seq, failure.action_type, failure.message)
    return ("replays", list(game.raw_actions), ledger(game), list(game.log_lines), game.finished)


async def verify(source: Storage, target: Storage) -> tuple[int, list[str]]:
    """Compare both databases table by table and replay every game on both; returns (games replayed, problems)."""
    problems: list[str] = []
    for table in TABLES:
        here, there = await table_rows(source, table), await table_rows(target, table)
        if here != there:
            differ = sum(1 for a, b in zip(here, there, strict=False) if a != b) + abs(len(here) - len(there))
            problems.append(f"{table}: {len(here)} rows in SQLite, {len(there)} in PostgreSQL, {differ} differ")
    replayed = 0
    for record in await source.list_games():
        started = record.status in (GameStatus.ACTIVE, GameStatus.FINISHED)
        if not started and await source.last_seq(record.id) == 0:
            continue  # never started, nothing stored: nothing to replay
        copied = await target.get_game(record.id)
        if copied != record:
            problems.append(f"game {record.id}: the copied record differs")
            continue
        replayed += 1
        if await replay_outcome(source, record) != await replay_outcome(target, copied):
            problems.append(f"game {record.id} {record.title}: the two replays differ")
    return replayed, problems


async def migrate(sqlite_file: str, postgres_url: str, out: TextIO) -> int:
    async with await Storage.open(sqlite_file) as source, await Storage.open(postgres_url) as target:
        try:
            counts = await copy_database(source, target)
        except TargetNotEmptyError as exc:
            print(f"migrate-db: nothing copied: {exc}", file=out)
            return 2
        print("copied " + ", ".join(f"{n} {table}" for table, n in counts.items()), file=out)
        replayed, problems = await verify(source, target)
    for problem in problems:
        print(f"migrate-db: MISMATCH {problem}", file=out)
    if problems:
        print(f"migrate-db: the copy differs from the file in {len(problems)} places (see above)", file=out)
        return 1
    print(f"checked: every table is equal on both sides; {replayed} games replay alike on both", file=out)
    return 0


def main(argv: list[str] | None = None, *, out: TextIO | None = None) -> int:
    logs.configure(logging.ERROR, "%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    stream = out or sys.stdout
    if not Path(args.sqlite_file).is_file():
        print(f"migrate-db: no SQLite database at {args.sqlite_file}", file=sys.stderr)
        return 2
    if not is_postgres_url(args.postgres_url):
        print(f"migrate-db: {args.postgres_url!r} is not a postgresql:// URL", file=sys.stderr)
        return 2
    try:
        return asyncio.run(migrate(args.sqlite_file, args.postgres_url, stream))
    except OSError as exc:
        print(f"migrate-db: cannot reach PostgreSQL: {exc}", file=sys.stderr)
        return 2
