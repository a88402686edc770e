"""Child process for the crash test: appends actions forever, printing each seq once its commit returned.

Run as ``python -m tests.bot.storage.crash_writer DB_PATH GAME_ID``; the parent SIGKILLs it. With ``import``
in place of the game id it imports whole games (:data:`IMPORT_ACTIONS` actions each) and prints their ids.
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


IMPORT_ACTIONS = 400


async def _imports(path: str) -> None:
    storage = await Storage.open(path)
    n = 0
    while True:
        n += 1
        game_id = await storage.import_game(
            platform="crash",
            channel=f"imp{n}-{id(storage)}",
            title="1882",
            seed=n,
            options={},
            engine_version="crash",
            created_by="crash",
            actions=[action_for(seq) for seq in range(1, IMPORT_ACTIONS + 1)],
            actor="import",
            snapshot=b"snap" * 1000,
        )
        sys.stdout.write(f"{game_id}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[2] == "import":
        asyncio.run(_imports(sys.argv[1]))
    else:
        asyncio.run(_main(sys.argv[1], int(sys.argv[2])))
