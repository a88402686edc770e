"""Consistency checks that must hold after every action (used by tests and playouts)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def total_money(game: Game) -> int:
    return game.total_cash()


def problems(game: Game, money: int) -> list[str]:
    """Everything wrong with the state; ``money`` is the total at the start of the game."""
    out: list[str] = []
    if game.total_cash() != money:
        out.append(f"money not conserved: {game.total_cash()} != {money}")
    for p in game.players:
        if p.cash < 0:
            out.append(f"{p.name} has negative cash {p.cash}")
    for corp in game.corporations.values():
        if corp.cash < 0:
            out.append(f"{corp.sym} has negative cash {corp.cash}")
        held = sum(h.percent_of(corp.sym) for h in game._holders())
        if held != 100:
            out.append(f"{corp.sym} shares sum to {held}%")
        for holder in game._holders():
            for share in holder.shares:
                if share.owner is not holder:
                    out.append(f"{share.id} listed under {holder.name} but owned by {share.owner.name}")
    laid = Counter(hx.tile.name for hx in game.board.hexes.values() if not hx.tile.preprinted)
    for name, count in laid.items():
        limit = game.tile_counts.get(name)
        if limit is None and name not in game.unlimited_tiles:
            out.append(f"tile {name} is on the map but not in the manifest")
        elif limit is not None and count > limit:
            out.append(f"{count} copies of tile {name} on the map, manifest has {limit}")
    for corp in game.corporations.values():
        for t in corp.trains:
            if t.owner is not corp or t.rusted:
                out.append(f"train {t.id} listed under {corp.sym} is not its own")
        if corp.trains_in_limit() > game.train_limit(corp) and not game.crowded_corporations():
            out.append(f"{corp.sym} is over the train limit")
    return out
