"""Writes the pictures of the README's "your first game" walk-through into docs/images/.

A seeded two-player 1882 game is played through the game service (as the console would) up to the first
operating round; the pictures are exactly what the players are sent there: the tiles that fit on the acting
company's home hex (``lay HEX``), the map with the hexes where it may lay outlined (``map``), and the status
card (``status``).

    .venv/bin/python scripts/first_game_pictures.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.config import Settings  # noqa: E402
from bot.console.scripted import Policy, next_move  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from engine import new_game  # noqa: E402
from engine.core import query  # noqa: E402

USERS = ("alice", "bob")
SEED = 7


async def main() -> None:
    out = ROOT / "docs" / "images"
    with tempfile.TemporaryDirectory() as tmp:
        service = await GameService.open(Path(tmp) / "g.db", Settings(images=False))
        try:

            async def say(user: str, text: str) -> Any:
                [reply] = await service.handle("console", "first-game", user, user, text)
                assert reply.ok, (text, reply.text)
                return reply

            await say("alice", f"new 1882 seed={SEED}")
            await say("bob", "join")
            await say("alice", "start")
            mirror = new_game("1882", [(1, "alice"), (2, "bob")], seed=SEED)
            policy = Policy(SEED)
            names = {1: "alice", 2: "bob"}
            while not any("lay_tile" in mirror.actions_for(e) for e in mirror.acting()):
                move = next_move(mirror, policy, names)
                assert move is not None
                await say(move.user, move.command)
                if move.approver is not None:
                    await say(move.approver, "approve")
            service.images = True
            acting = names[query.actors(mirror)[0].player_id or 1]
            corp = next(e for e in mirror.acting() if "lay_tile" in mirror.actions_for(e))
            home = corp.tokens[0].hex
            for text, kind, name in (
                (f"lay {home}", "tiles", "first-game-tiles.png"),
                ("map", "map", "first-game-map.png"),
                ("status", "status", "first-game-status.png"),
            ):
                reply = await say(acting, text)
                picture = next(a for a in reply.images if kind in a.filename)
                (out / name).write_bytes(picture.data)
                print(out / name, len(picture.data) // 1000, "kB")
        finally:
            await service.close()


if __name__ == "__main__":
    asyncio.run(main())
