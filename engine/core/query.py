"""What may be done now: who acts, which action types, and the concrete legal choices.

The chat layer uses these for prompts, buttons and autocomplete; random playouts use them to
play whole games. Every choice is a complete action dict that :meth:`Game.process` accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .entities import Company, Corporation, Player
from .track import crossing_cost, legal_rotations

if TYPE_CHECKING:
    from .game import Game

Action = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Actor:
    """Someone who must act now: the acting entity and the player who decides for it."""

    entity_type: str  # "player", "corporation" or "company"
    entity: str | int  # player id, corporation or company symbol (as in actions)
    player_id: int | None  # the deciding player
    label: str  # readable: "Alice" or "CPR (Alice)"


def entity_ref(game: Game, entity: Any) -> tuple[str, str | int]:
    if isinstance(entity, Player):
        return "player", entity.id
    if isinstance(entity, Company):
        return "company", entity.sym
    return "corporation", entity.sym


def actors(game: Game) -> list[Actor]:
    out: list[Actor] = []
    for ent in game.acting():
        kind, ref = entity_ref(game, ent)
        player = game.acting_player(ent)
        pid = player.id if isinstance(player, Player) else None
        label = game.describe(ent)
        if not isinstance(ent, Player) and isinstance(player, Player):
            label = f"{label} ({player.name})"
        out.append(Actor(kind, ref, pid, label))
    return out


def entity_action(game: Game, entity: Any, kind: str) -> Action:
    """The head every action of ``entity`` starts with: its type and who acts."""
    etype, ref = entity_ref(game, entity)
    return {"type": kind, "entity": ref, "entity_type": etype}


_base = entity_action


def deciding_entities(game: Game) -> list[Any]:
    """Entities that have something to do now (acting ones, plus presidents who may sell in an emergency)."""
    out = list(game.acting())
    for ent in list(out):
        if isinstance(ent, Corporation) and ent.owner is not None and game.actions_for(ent.owner):
            out.append(ent.owner)
    for comp in game.companies.values():
        if not comp.closed and game.actions_for(comp):
            out.append(comp)
    return out


def choices(game: Game, entity: Any, kind: str, *, limit: int = 500) -> list[Action]:
    """Concrete actions of one type the entity may take now (possibly truncated to ``limit``)."""
    handler = _CHOICES.get(kind)
    if handler is None or kind not in game.actions_for(entity):
        return []
    return handler(game, entity)[:limit]


def all_choices(game: Game, entity: Any, *, limit: int = 500) -> list[Action]:
    out: list[Action] = []
    for kind in game.actions_for(entity):
        out.extend(choices(game, entity, kind, limit=limit))
    return out


# ---------------------------------------------------------------------- per type
def _pass(game: Game, entity: Any) -> list[Action]:
    return [_base(game, entity, "pass")]


def _bid(game: Game, entity: Any) -> list[Action]:
    step: Any = game.round.active_step()
    out = []
    companies = getattr(step, "companies", [])
    auctioning = getattr(step, "auctioning", None)
    for comp in companies:
        if auctioning is not None and len(step.bids.get(auctioning.sym, [])) > 1 and comp is not auctioning:
            continue
        low = step.min_bid(comp)
        if low <= step.max_bid(entity, comp):
            out.append({**_base(game, entity, "bid"), "company": comp.sym, "price": low})
    return out


def _par(game: Game, entity: Any) -> list[Action]:
    out = []
    step: Any = game.round.active_step()
    corps = step.parable(entity) if hasattr(step, "parable") else [
        game.corporations[c] for _, c in getattr(game.round, "pending_par", [])[:1]]
    for corp in corps:
        for cell in game.market.par_cells():
            if game.par_cost(corp, cell.price) <= entity.cash or not hasattr(step, "parable"):
                out.append({**_base(game, entity, "par"), "corporation": corp.sym,
                            "share_price": f"{cell.price},{cell.row},{cell.col}"})
    return out


def _buy_shares(game: Game, entity: Any) -> list[Action]:
    step: Any = game.round.active_step()
    if not hasattr(step, "buyable_shares"):
        return []
    return [{**_base(game, entity, "buy_shares"), "shares": [s.id], "percent": s.percent}
            for s in step.buyable_shares(entity)]


def _sell_shares(game: Game, entity: Any) -> list[Action]:
    # The stock round's and the emergency's sales: the step that takes the sale lists what it allows.
    step: Any = game.round.active_step()
    bundles = step.sellable_bundles(entity) if hasattr(step, "sellable_bundles") else []
    return [{**_base(game, entity, "sell_shares"), "shares": [s.id for s in shares], "percent": percent}
            for shares, percent in bundles]


def _lay_tile(game: Game, entity: Any) -> list[Action]:
    corp: Any = entity.owner if isinstance(entity, Company) else entity
    net = game.network(corp)
    out = []
    names_seen: set[str] = set()
    supply = []
    for tile in game.tile_supply.values():
        if tile.name in names_seen or tile.colour not in game.phase["tiles"]:
            continue
        names_seen.add(tile.name)
        supply.append(tile)
    step: Any = game.round.active_step()
    nwr_dest = getattr(step, "destination", None) if isinstance(entity, Company) else None
    spec = step.next_lay() if hasattr(step, "next_lay") and not isinstance(entity, Company) else None
    extra = int(spec.get("cost", 0)) if spec else 0
    if spec is not None:
        supply = [t for t in supply if (t.colour == "yellow" and spec.get("lay", True))
                  or (t.colour != "yellow" and spec.get("upgrade", True))]
    for hex_id, edges in sorted(net.hex_edges.items()):
        if nwr_dest is not None and hex_id != nwr_dest:
            continue
        hx = game.board.hexes[hex_id]
        if game.blocked_hex(hx) is not None:
            continue
        for tile in supply:
            for rot in legal_rotations(game, hx, tile.tdef, edges):
                exits = frozenset((e + rot) % 6 for e in tile.tdef.edges())
                terrain = hx.terrain_cost if hx.tile is hx.original else 0
                if terrain + extra + crossing_cost(game, hx, exits) > corp.cash:
                    continue
                out.append({**_base(game, entity, "lay_tile"), "hex": hex_id, "tile": tile.id, "rotation": rot})
    return out


def _place_token(game: Game, entity: Any) -> list[Action]:
    out = []
    pending = getattr(game, "pending_tokens", [])
    if pending and pending[0][0] is entity:
        corp, hexes, token = pending[0]
        for hx, node, slot in game.home_token_spots(game.token_owner(token, corp), hexes):
            out.append({**_base(game, entity, "place_token"), "city": f"{hx.tile.id}-{node}", "slot": slot})
        return out
    if isinstance(entity, Company):
        owner: Any = entity.owner
        for hex_id in entity.data.get("token_hexes", ()):
            hx = game.board.hexes[hex_id]
            for node in hx.tile.tokens:
                if game.can_token_city(owner, hx, node):
                    out.append({**_base(game, entity, "place_token"), "city": f"{hx.tile.id}-{node}", "slot": 0})
        return out
    net = game.network(entity)
    for hex_id, node in sorted(net.nodes):
        hx = game.board.hexes[hex_id]
        if node not in hx.tile.tokens:
            continue
        for neutral in (False, True):
            token = game.token_for(entity, "neutral" if neutral else None)
            if token is None or token.price > entity.cash or not game.can_token_city(entity, hx, node, token):
                continue
            action = {**_base(game, entity, "place_token"), "city": f"{hx.tile.id}-{node}"}
            if neutral:
                action["token_type"] = "neutral"
            out.append(action)
    return out


def _remove_token(game: Game, entity: Any) -> list[Action]:
    owner = entity.owner
    out = []
    for token in owner.tokens:
        if token.used and not token.neutral and token.hex is not None:
            hx = game.board.hexes[token.hex]
            home = token is owner.tokens[0]
            if home and any("CN" in s for s in hx.tile.tokens.values()):
                continue
            if "nwr" not in hx.tags:
                out.append({**_base(game, entity, "remove_token"), "city": f"{hx.tile.id}-{token.node}",
                            "slot": token.slot})
    return out


def _run_routes(game: Game, entity: Any) -> list[Action]:
    best = game.best_routes(entity)
    return [{**_base(game, entity, "run_routes"), "routes": best}]


def _dividend(game: Game, entity: Any) -> list[Action]:
    return [{**_base(game, entity, "dividend"), "kind": k} for k in game.dividend_kinds(entity)]


def _buy_train(game: Game, entity: Any) -> list[Action]:
    out = []
    must = game.must_buy_train(entity)
    room = len(entity.trains) < game.train_limit(entity)
    budget = entity.cash + (entity.owner.cash if must and entity.owner is not None else 0)
    depot = game.available_depot_trains()
    cheapest = min((t.price for t in [*depot, *game.pool_trains]), default=None)
    for train in depot:
        if room and (train.price <= entity.cash or (must and train.price == cheapest and train.price <= budget)):
            out.append({**_base(game, entity, "buy_train"), "train": train.id, "price": train.price})
        for own in entity.trains:
            off = train.discount.get(own.name)
            if off and train.price - off <= entity.cash:
                out.append({**_base(game, entity, "buy_train"), "train": train.id, "price": train.price - off,
                            "exchange": own.id})
    for train in game.pool_trains:
        if room and (train.price <= entity.cash or (must and train.price == cheapest and train.price <= budget)):
            out.append({**_base(game, entity, "buy_train"), "train": train.id, "price": train.price})
    if room:
        step: Any = game.round.active_step()
        last_sale = getattr(step, "last_sale_price", None)
        for corp in game.corporations.values():
            if corp is entity or corp.closed or corp.owner is not entity.owner:
                continue  # other presidents must consent; offered through the chat layer's deal flow
            for train in corp.trains:
                low, high = game.other_train_price_range(entity, train, last_sale)
                if high > entity.cash and not game.president_may_contribute(entity):
                    high = entity.cash
                if 1 <= low <= high:
                    out.append({**_base(game, entity, "buy_train"), "train": train.id, "price": high})
    return out


def _discard_train(game: Game, entity: Any) -> list[Action]:
    return [{**_base(game, entity, "discard_train"), "train": t.id} for t in entity.trains]


def _buy_company(game: Game, entity: Any) -> list[Action]:
    out = []
    for comp in game.companies.values():
        if comp.closed or not isinstance(comp.owner, Player) or comp.data.get("no_corporation_buy"):
            continue
        low = (comp.value + 1) // 2
        if low <= entity.cash:
            out.append({**_base(game, entity, "buy_company"), "company": comp.sym,
                        "price": min(comp.value, entity.cash)})
    return out


def _bankrupt(game: Game, entity: Any) -> list[Action]:
    return [_base(game, entity, "bankrupt")]


_CHOICES = {
    "pass": _pass,
    "bid": _bid,
    "par": _par,
    "buy_shares": _buy_shares,
    "sell_shares": _sell_shares,
    "lay_tile": _lay_tile,
    "place_token": _place_token,
    "remove_token": _remove_token,
    "run_routes": _run_routes,
    "dividend": _dividend,
    "buy_train": _buy_train,
    "discard_train": _discard_train,
    "buy_company": _buy_company,
    "bankrupt": _bankrupt,
}
