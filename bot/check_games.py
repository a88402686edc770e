"""``python -m bot check-games [--db PATH] [--mark]``: replay every stored game and list the ones that fail.

Run it after upgrading the engine, against the bot's database (the bot may keep running). Every game with a
stored log (active, finished, or any with actions) is rebuilt from its whole log with this engine, never from
a snapshot, since a snapshot could hide a rules change. Each failing game gets one line: its id, title,
channel, the stored action the engine refuses and the engine's message; the last line is ``checked N games:
K replay, F fail``. The exit status is 0 when every game replays, 1 when one fails (2: no such database).

``--mark`` records the result: failing games are marked broken (the bot answers every command in their
channels with what happened, the first time for the whole channel) and games that replay again lose their
mark. The bot marks and clears games by itself as it loads them; ``--mark`` does it for all at once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot import logs
from bot.config import load_settings
from bot.core.game_names import game_name
from bot.core.live import LoadError, replay_stored
from bot.core.text import refused_action
from bot.storage import GameRecord, GameStatus, ReplayFailure, Storage, is_postgres_url


@dataclass(frozen=True, slots=True)
class Checked:
    record: GameRecord
    failure: ReplayFailure | None  # None: the whole log replays


async def check_games(storage: Storage) -> list[Checked]:
    """Every game with a stored log, replayed from its first action, by id."""
    checked: list[Checked] = []
    for record in await storage.list_games():
        started = record.status in (GameStatus.ACTIVE, GameStatus.FINISHED)
        if not started and await storage.last_seq(record.id) == 0:
            continue  # never started and nothing stored: nothing to replay
        try:
            await replay_stored(storage, record)
        except LoadError as exc:
            checked.append(Checked(record, exc.failure))
        else:
            checked.append(Checked(record, None))
    return checked


def failure_line(record: GameRecord, failure: ReplayFailure) -> str:
    return f"game {record.id} {game_name(record)} in {record.platform}/{record.channel}: {refused_action(failure)}"


async def run(db: str, *, mark: bool, out: TextIO) -> int:
    """Check the games in ``db`` and print the report; returns the exit status."""
    async with await Storage.open(db) as storage:
        checked = await check_games(storage)
        for item in checked:
            if item.failure is not None:
                print(failure_line(item.record, item.failure), file=out)
                if mark:
                    await storage.mark_broken(item.record.id, item.failure)
            elif mark and item.record.broken is not None:
                await storage.clear_broken(item.record.id)
                print(f"game {item.record.id} replays again: its broken mark is cleared", file=out)
    failed = sum(1 for item in checked if item.failure is not None)
    print(f"checked {len(checked)} games: {len(checked) - failed} replay, {failed} fail", file=out)
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot check-games",
        description="Replay every stored game with this engine and list the ones whose log it refuses.",
    )
    parser.add_argument(
        "--db", help="SQLite file or postgresql:// URL (default: $ROUNDHOUSE_DB, else config: data/roundhouse.db)"
    )
    parser.add_argument(
        "--mark", action="store_true", help="mark the failing games broken and clear games that replay again"
    )
    parser.add_argument("--config", help="a TOML file with settings on top of config/defaults.toml")
    return parser


def main(argv: list[str] | None = None, *, out: TextIO | None = None) -> int:
    logs.configure(logging.ERROR, "%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    db = args.db or load_settings(args.config).database
    if not is_postgres_url(db) and not Path(db).is_file():
        print(f"check-games: no database at {db}", file=sys.stderr)
        return 2
    return asyncio.run(run(db, mark=args.mark, out=out or sys.stdout))
