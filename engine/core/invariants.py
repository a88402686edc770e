"""Consistency checks that must hold after every action (used by tests and playouts)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def total_money(game: Game) -> int:
    """The cash in the game: the bank's and every holder's. Loans and debts move cash from the bank to the
    borrower and back, so they leave this total as it was; what is owed is counted by ``total_owed``."""
    return game.total_cash()


def total_owed(game: Game) -> int:
    """What players and companies owe the bank (loans at their size, and debts)."""
    return sum(p.debt for p in game.players) + sum(game.liabilities(c) for c in game.corporations.values())


def problems(game: Game, money: int) -> list[str]:
    """Everything wrong with the state; ``money`` is the total at the start of the game."""
    out: list[str] = []
    if game.total_cash() != money:
        out.append(f"money not conserved: {game.total_cash()} != {money}")
    for p in game.players:
        if p.cash < 0:
            out.append(f"{p.name} has negative cash {p.cash}")
        if p.debt < 0:
            out.append(f"{p.name} has negative debt {p.debt}")
    loan_limit = game.config.loans.limit
    for corp in game.corporations.values():
        if corp.cash < 0:
            out.append(f"{corp.sym} has negative cash {corp.cash}")
        if corp.loans < 0 or corp.debt < 0:
            out.append(f"{corp.sym} has negative loans {corp.loans} or debt {corp.debt}")
        if corp.loans and game.config.loans.size <= 0:
            out.append(f"{corp.sym} holds {corp.loans} loans in a game without loans")
        if loan_limit and corp.loans > loan_limit:
            out.append(f"{corp.sym} holds {corp.loans} loans, over the limit of {loan_limit}")
        held = sum(h.percent_of(corp.sym) for h in game._holders())
        if held != (100 if corp.issues_shares else 0):
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
