"""Consistency checks that must hold after every action (used by tests and playouts)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from . import query
from .entities import Corporation, Player

if TYPE_CHECKING:
    from .game import Game

# Kinds whose choices are cheap to list, asked first: one legal action is enough to show the game can go on.
_CHEAP_FIRST = ("pass", "bankrupt", "sell_shares", "buy_train", "dividend", "run_routes")


def total_money(game: Game) -> int:
    """The cash in the game: the bank's and every holder's. Loans and debts move cash from the bank to the
    borrower and back, so they leave this total as it was; what is owed is counted by ``total_owed``."""
    return game.total_cash()


def total_owed(game: Game) -> int:
    """What players and companies owe the bank (loans at their size, and debts)."""
    return sum(p.debt for p in game.players) + sum(game.shares.liabilities(c) for c in game.corporations.values())


def problems(game: Game, money: int, *, live: bool = True) -> list[str]:
    """Everything wrong with the state; ``money`` is the total at the start of the game. ``live`` adds the
    liveness checks (``liveness_problems``, ``forced_purchase_problems``)."""
    out: list[str] = []
    if live:
        out += liveness_problems(game) + forced_purchase_problems(game)
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


def has_legal_action(game: Game, entity: Any) -> bool:
    """Whether ``entity`` has at least one concrete legal action now."""
    kinds = game.actions_for(entity)
    for kind in sorted(kinds, key=lambda k: _CHEAP_FIRST.index(k) if k in _CHEAP_FIRST else len(_CHEAP_FIRST)):
        if query.choices(game, entity, kind, limit=1):
            return True
    return False


def liveness_problems(game: Game) -> list[str]:
    """Until the game is over, someone who must act has a legal action: the game can never get stuck."""
    if game.finished:
        return []
    deciding = query.deciding_entities(game)
    if any(has_legal_action(game, ent) for ent in deciding):
        return []
    who = [game.describe(e) for e in game.acting()] or ["nobody"]
    step = game.round.active_step()
    where = f"{game.round.name()}, {step.name if step is not None else 'no step'}"
    return [f"dead end: no legal action for {', '.join(who)} in {where}"]


def forced_purchase_problems(game: Game) -> list[str]:
    """A company that must buy a train has the way out the rules give, measured against the cheapest train of the
    bank and the pool: bankruptcy only when the treasury, the president's cash and every sale the forced-sale rules
    allow cannot pay for it; otherwise a purchase or a sale towards it."""
    if game.finished:
        return []
    corp = game.round.entity() if hasattr(game.round, "entity") else None
    step = game.round.active_step()
    if not isinstance(corp, Corporation) or corp.closed or step is None or step.name != "Buy trains" \
            or not game.must_buy_train(corp):
        return []
    player = corp.owner
    cheapest = game.trains.cheapest_train_on_sale()
    if not isinstance(player, Player) or cheapest is None:
        return []
    funds = corp.cash + player.cash + game.emergency_liquidity(player, corp)
    price = min([cheapest.price, *(v.price for v in cheapest.variants)])
    if "bankrupt" in game.actions_for(corp) and funds >= price:
        return [f"{corp.sym} may go bankrupt though {game.format_money(funds)} (treasury, president's cash and "
                f"forced sales) pays for the cheapest train on sale ({cheapest.name}, {game.format_money(price)})"]
    if not has_legal_action(game, corp) and not has_legal_action(game, player):
        return [f"{corp.sym} must buy a train and has no way to: no purchase, sale or bankruptcy"]
    return []
