"""Storage micro-benchmark: append throughput and load time of a 1,000-action game.

Run from the repository root: ``.venv/bin/python benchmarks/storage.py [--appends N] [--dir DIR]``.
Uses a temporary database in DIR (default: the system temp dir; pick a directory on the disk the bot's
database lives on, since tmpfs makes fsync free). Appends are timed with synchronous=FULL (the bot's
setting: every acknowledged move is fsynced) and with NORMAL (fsync only at checkpoints) for comparison.
``--postgres`` also times them on a throwaway PostgreSQL server in DIR (fsync on, over a unix socket).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import Storage


def _action(seq: int) -> dict[str, Any]:
    """A typical operating-round action (a route run is among the largest the engine writes)."""
    return {
        "type": "run_routes",
        "entity": "CPR",
        "entity_type": "corporation",
        "routes": [
            {"train": f"{seq % 6 + 2}-0", "connections": [["E2", "F3"], ["F3", "G4", "H5"]], "revenue": 120},
            {"train": "3-1", "connections": [["B10", "C11"]], "revenue": 60},
        ],
        "id": seq,
        "created_at": 1_700_000_000 + seq,
    }


async def _create(storage: Storage, channel: str) -> int:
    return await storage.create_game(
        platform="bench",
        channel=channel,
        title="1882",
        seed=1,
        options={},
        engine_version="bench",
        created_by="bench",
    )


async def _appends(target: str, appends: int, label: str, synchronous: str | None = None) -> None:
    async with await Storage.open(target, synchronous=synchronous) as storage:
        game_id = await _create(storage, "append")
        times = []
        for seq in range(1, appends + 1):
            start = time.perf_counter()
            await storage.append_action(game_id, seq, _action(seq), "user")
            times.append(time.perf_counter() - start)
    total = sum(times)
    p99 = sorted(times)[int(len(times) * 0.99) - 1]
    print(
        f"append_action, {label}: {appends / total:,.0f} appends/s "
        f"(mean {total / appends * 1e6:,.0f} µs, p99 {p99 * 1e6:,.0f} µs)"
    )


async def _loads(target: str, label: str) -> None:
    async with await Storage.open(target) as storage:
        game_id = await _create(storage, "load")
        for seq in range(1, 1001):
            await storage.append_action(game_id, seq, _action(seq), "user")
        warm = []
        for _ in range(20):
            start = time.perf_counter()
            loaded = await storage.load_actions(game_id)
            warm.append(time.perf_counter() - start)
        assert len(loaded) == 1000

    start = time.perf_counter()
    async with await Storage.open(target) as storage:
        loaded = await storage.load_actions(game_id)
    cold = time.perf_counter() - start
    assert len(loaded) == 1000
    print(f"load_actions, 1,000 actions, {label}: median {statistics.median(warm) * 1e3:.2f} ms (warm, 20 runs)")
    print(f"open + load_actions, 1,000 actions, {label}: {cold * 1e3:.2f} ms")


async def main(appends: int, folder: str | None, postgres: bool) -> None:
    folder = folder or tempfile.gettempdir()
    print(f"database folder: {folder}")
    for synchronous in ("FULL", "NORMAL"):
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            await _appends(str(Path(tmp) / "sync.db"), appends, f"SQLite synchronous={synchronous}", synchronous)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp) / "bench.db"
        await _loads(str(path), "SQLite")
        size_kib = path.stat().st_size / 1024  # WAL checkpointed into the main file on close
    print(f"database size after 1,000 actions: {size_kib:,.0f} KiB")
    if postgres:
        from tests import pg_server

        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            url = pg_server.start(Path(tmp) / "postgres", durable=True)
            try:
                await _appends(url, appends, "PostgreSQL (fsync on)")
                await _loads(url, "PostgreSQL")
            finally:
                pg_server.stop(Path(tmp) / "postgres")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000, help="appends to time (default 2000)")
    parser.add_argument("--dir", help="folder for the temporary databases (default: the system temp dir)")
    parser.add_argument("--postgres", action="store_true", help="also on a throwaway PostgreSQL server")
    args = parser.parse_args()
    asyncio.run(main(args.appends, args.dir, args.postgres))
