"""The state fingerprint of the oracle (shared/oracle/FINGERPRINT.md), named by 18xx.games ids.

Both engines write it after every kept action so that a comparison finds the first action where they
disagree. Its fields and their order are fixed by that contract; nothing here is rules logic.
"""

from __future__ import annotations

from typing import Any

from .core.entities import Company, Corporation, Player, Train
from .core.game import Game


def entity_id(entity: Any) -> str | None:
    if isinstance(entity, Player):
        return str(entity.id)
    if isinstance(entity, Corporation):
        return entity.sym
    if isinstance(entity, Company):
        return entity.sym
    return None  # the bank, the pool, the depot: nobody's


def train_id(train: Train) -> str:
    """``NAME-INDEX``, then ``=VARIANT`` once bought as a variant other than the type's own ("L-4=2")."""
    return train.id if train.name == train.sym else f"{train.id}={train.name}"


def round_name(game: Game) -> str:
    kind = game.round.kind
    if kind == "operating":
        return f"operating {game.turn}.{game.round.number}"
    return f"{kind} {game.turn}"


def _player(game: Game, player: Player) -> dict[str, Any]:
    shares: dict[str, int] = {}
    pres: list[str] = []
    for share in player.shares:
        shares[share.corp] = shares.get(share.corp, 0) + share.percent
        if share.president:
            pres.append(share.corp)
    return {
        "cash": player.cash,
        "shares": {k: v for k, v in shares.items() if v},
        "pres": sorted(pres),
        "companies": sorted(c.sym for c in player.companies if not c.closed),
        "bankrupt": bool(player.bankrupt),
    }


def _operator(game: Game, corp: Corporation) -> dict[str, Any]:
    cell = game.market.location.get(corp.sym)
    return {
        "cash": corp.cash,
        "price": cell.price if cell is not None else None,
        "coords": [cell.row, cell.col] if cell is not None else None,
        "trains": sorted(train_id(t) for t in corp.trains),
        "ipo": corp.percent_of(corp.sym) + corp.treasury.percent_of(corp.sym),  # IPO and treasury, as specified
        "pool": game.pool.percent_of(corp.sym),
        "president": entity_id(corp.owner),
        "floated": bool(corp.floated),
        "companies": sorted(c.sym for c in corp.companies if not c.closed),
        "tokens_left": sum(1 for t in corp.tokens if not t.used and t.corp == corp.sym),
        "neutral_left": sum(1 for t in corp.tokens if not t.used and t.corp != corp.sym),
    }


def fingerprint(game: Game) -> dict[str, Any]:
    tiles: dict[str, str] = {}
    tokens: dict[str, list[str]] = {}
    for hx in game.board.hexes.values():
        if hx.tile is not hx.original:
            tiles[hx.id] = f"{hx.tile.name}@{hx.tile.rotation}"
        placed = sorted(corp for _, _, corp in hx.tile.city_tokens())
        if placed:
            tokens[hx.id] = placed
    return {
        "players": {str(p.id): _player(game, p) for p in game.players},
        "corps": {c.sym: _operator(game, c) for c in game.corporations.values() if c.ipoed and not c.closed},
        "companies": {c.sym: ("closed" if c.closed else entity_id(c.owner)) for c in game.companies.values()},
        "bank": game.bank.cash,
        "phase": str(game.phase["name"]),
        "round": round_name(game),
        "acting": [] if game.finished else [entity_id(e) for e in game.round.active_entities()],
        "depot": [train_id(t) for t in game.depot],
        "discarded": sorted(train_id(t) for t in game.pool_trains),
        "tiles": tiles,
        "tokens": tokens,
        "finished": bool(game.finished),
        "end": game.game_end_reason,
    }
