"""The North West Rebellion (1882 rules §8): it strikes with the first train of a type drawn at setup, and
removes every yellow tile laid in the NWR area (the printed hexes come back, stations kept); until then a
company laying a yellow tile there gains a bonus."""

from __future__ import annotations

from ...core import events as ev
from ...core.board import Hex
from ...core.entities import Corporation
from ...core.tiles import Tile
from .state import Game1882


def draw_train(game: Game1882) -> None:
    """The rebellion fires with the first train of a randomly drawn type."""
    candidates: list[str] = game.data()["game"]["nwr_event"]["train_candidates"]
    nwr = candidates[game.rng.next() % len(candidates)]
    next(t for t in game.depot if t.name == nwr).events.append("nwr")
    game.log(f"NWR Rebellion occurs on purchase of the first {nwr} train")


def yellow_bonus(game: Game1882, corp: Corporation, hx: Hex, tile: Tile) -> None:
    if "nwr" in hx.tags and tile.colour == "yellow":
        bonus = int(game.data()["game"]["track"]["nwr_yellow_bonus"])
        game.bank.spend(bonus, corp, ev.Why.TILE)
        game.log(f"{corp.sym} gains {game.format_money(bonus)} for laying a yellow tile in the NWR area")


def strike(game: Game1882) -> None:
    game.log("-- Event: North West Rebellion! --")
    for hx in game.board.hexes.values():
        if "nwr" not in hx.tags or hx.tile.colour != "yellow" or hx.tile is hx.original:
            continue
        old = hx.tile
        hx.tile = hx.original
        # The printed hex comes back with its river crossings unpaid (as 18xx.games does).
        hx.borders = {e: type(b)(b.kind, b.cost) for e, b in hx.printed_borders.items()}
        for node, slots in old.tokens.items():
            dest = hx.original.tokens.get(node)
            for i, s in enumerate(slots):
                if s is not None and dest is not None:
                    dest[i] = s
                    hx.original.kinds[node][i] = old.kinds[node][i]
                    slots[i] = None
        old.rotation = 0
        game.tile_supply[old.id] = old
        game.log(f"Rebellion destroys tile {hx.id}")
        ev.emit(ev.TileLaid(hx.id, hx.tile.name, hx.tile.id, hx.tile.rotation, old.name, ""))
    game.track.board_changed()
    game.routes_seen.clear()  # 18xx.games clears its whole graph here, memory of routes included
