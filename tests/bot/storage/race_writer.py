"""Child process for the race test: one of several bot processes racing on the same database.

``python -m tests.bot.storage.race_writer TARGET GAME_ID NAME APPENDS`` appends until it has stored APPENDS
actions (each at the position it last read, again after every refusal), then claims every due outbox item it
can; it prints ``append SEQ`` and ``claim ID`` for each success. Not a test module (no ``test_`` prefix).
"""

from __future__ import annotations

import asyncio
import sys

from bot.storage import StaleStateError, Storage


async def _main(target: str, game_id: int, name: str, appends: int) -> None:
    async with await Storage.open(target) as storage:
        stored = 0
        while stored < appends:
            seq = await storage.last_seq(game_id) + 1
            try:
                await storage.append_action(game_id, seq, {"type": "pass", "by": name, "seq": seq}, name)
            except StaleStateError:
                continue
            stored += 1
            print(f"append {seq}", flush=True)
        while items := await storage.outbox_due(1e12, limit=20):
            for item in items:
                if await storage.outbox_mark_sent(item.id):
                    print(f"claim {item.id}", flush=True)


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])))
