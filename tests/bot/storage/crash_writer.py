"""Child process for the crash test: appends actions forever, printing each seq once its commit returned.

Run as ``python -m tests.bot.storage.crash_writer DB_PATH GAME_ID``; the parent SIGKILLs it.
Not a test module (no ``test_`` prefix); the parent imports :func:`action_for` to check the rows.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from bot.storage import Storage


def action_for(seq: int) -> dict[str, Any]:
    """The deterministic action written at ``seq``; some are large so WAL checkpoints happen mid-run."""
    return {
        "type": ("lay_tile", "buy_train", "pass", "bid")[seq % 4],
        "seq": seq,
        "entity": f"P{seq % 5}",
        "hex": f"{chr(65 + seq % 12)}{seq % 20}",
        "rotation": seq % 6,
        "price": seq * 10 % 997,
        "note": "¥–✓" * (seq % 7),
        "pad": "x" * (6000 if seq % 25 == 0 else seq % 50),
        "nested": {"list": list(range(seq % 5)), "even": seq % 2 == 0, "none": None},
    }


def actor_for(seq: int) -> str:
    return f"user-{seq % 4}"


async def _main(path: str, game_id: int) -> None:
    storage = await Storage.open(path)
    seq = await storage.last_seq(game_id)
    while True:
        seq += 1
        await storage.append_action(game_id, seq, action_for(seq), actor_for(seq))
        sys.stdout.write(f"{seq}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2])))
