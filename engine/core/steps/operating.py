"""Operating round steps: track, tokens, routes, dividends, privates, bankruptcy (trains: ``steps/trains.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, entity_action, opt_text, opt_whole, route_list, text, whole
from ..autoroute import validate_route, validate_routes
from ..entities import Company, Corporation, Entity, as_corporation
from ..errors import GameError, illegal, insufficient, malformed
from ..round import G, Step
from .trains import BuyTrain

if TYPE_CHECKING:
    from typing_extensions import TypeIs


def _is_current_corp(entity: Entity, step: Step[Any]) -> TypeIs[Corporation]:
    return isinstance(entity, Corporation) and entity is step.round.entity()



def tile_lay_choices(game: Any, entity: Entity, corp: Corporation, *, spec: dict[str, Any] | None = None,
                     only_hex: str | None = None) -> list[Action]:
    """Every lay_tile ``corp`` can afford on its network (tiles of the phase; ``spec`` limits yellow lays or
    upgrades and adds its cost; ``only_hex`` restricts the hex); ``entity`` is who acts (the company, or a
    private acting for it)."""
    supply = []
    names_seen: set[str] = set()
    for tile in game.tile_supply.values():
        if tile.name in names_seen or tile.colour not in game.phase["tiles"]:
            continue
        names_seen.add(tile.name)
        supply.append(tile)
    extra = int(spec.get("cost", 0)) if spec else 0
    if spec is not None:
        supply = [t for t in supply if (t.colour == "yellow" and spec.get("lay", True))
                  or (t.colour != "yellow" and spec.get("upgrade", True))]
    out = []
    for hex_id, edges in sorted(game.track.network(corp).hex_edges.items()):
        if only_hex is not None and hex_id != only_hex:
            continue
        hx = game.board.hexes[hex_id]
        if game.track.blocked_hex(hx) is not None:
            continue
        for tile in supply:
            terrain = game.upgrade_cost(corp, hx, tile)
            for rot in game.tile_rotations(corp, hx, tile.tdef, edges):
                exits = frozenset((e + rot) % 6 for e in tile.tdef.edges())
                if terrain + extra + game.crossing_estimate(corp, hx, exits) > corp.cash:
                    continue
                out.append({**entity_action(entity, "lay_tile"), "hex": hex_id, "tile": tile.id, "rotation": rot})
    return out


class Track(Step[G]):
    """Lay one or two yellow tiles (the second at a cost), or upgrade one tile."""

    name = "Lay track"

    def setup(self) -> None:
        self.lays = 0
        self.upgraded = False

    def next_lay(self) -> dict[str, Any] | None:
        lays = self.game.tile_lays()
        if self.lays >= len(lays):
            return None
        spec = lays[self.lays]
        if self.upgraded and spec.get("not_if_upgraded"):
            return None
        return spec

    def actions(self, entity: Entity) -> list[str]:
        if not _is_current_corp(entity, self):
            return []
        spec = self.next_lay()
        if spec is None or not self.game.can_lay_track(entity):
            return []
        if entity.cash < int(spec.get("cost", 0)):
            return []
        return ["lay_tile", "pass"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "lay_tile":
            return super().choices(entity, kind)
        entity = as_corporation(entity)  # the company in turn (actions)
        return tile_lay_choices(self.game, entity, entity, spec=self.next_lay())

    def process_lay_tile(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        spec = self.next_lay()
        assert spec is not None
        tile = self.game.track.tile_from_supply(text(action, "tile"))
        upgrade = tile.colour != "yellow"
        if upgrade and not spec.get("upgrade", True):
            raise illegal("the second tile lay must be a yellow tile, not an upgrade")
        if not upgrade and not spec.get("lay", True):
            raise illegal("no more yellow tile lays this turn")
        self.game.track.lay_tile(entity, action, extra_cost=int(spec.get("cost", 0)))
        self.lays += 1
        self.upgraded = self.upgraded or upgrade


class TokenStep(Step[G]):
    """Place at most one station token, paying its price."""

    name = "Place a token"

    def actions(self, entity: Entity) -> list[str]:
        if not _is_current_corp(entity, self):
            return []
        return ["place_token", "pass"] if self.game.can_place_token(entity) else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "place_token":
            return super().choices(entity, kind)
        entity = as_corporation(entity)
        out = []
        for hex_id, node in sorted(self.game.track.network(entity).nodes):
            hx = self.game.board.hexes[hex_id]
            if node not in hx.tile.tokens:
                continue
            for neutral in (False, True):
                token = self.game.track.token_for(entity, "neutral" if neutral else None)
                if token is None or token.price > entity.cash or not self.game.can_token_city(entity, hx, node, token):
                    continue
                action = {**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}"}
                if neutral:
                    action["token_type"] = "neutral"
                out.append(action)
        return out

    def process_place_token(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        hx, node = self.game.track.city_by_id(text(action, "city"))
        token = self.game.track.token_for(entity, opt_text(action, "token_type"))
        if token is None:
            raise illegal(f"{entity.sym} has no station tokens left")
        if not self.game.track.reaches_node(entity, (hx.id, node)):
            raise illegal(f"{hx.id} is not connected to {entity.sym}'s network")
        if not self.game.can_token_city(entity, hx, node, token):
            raise illegal(f"{entity.sym} cannot place a token in {hx.id}")
        self.game.track.place_token(entity, token, hx, node, slot=opt_whole(action, "slot"))
        self.pass_()


class RouteStep(Step[G]):
    name = "Run routes"

    def round_setup(self) -> None:
        self.round.routes = []  # type: ignore[attr-defined]

    def setup(self) -> None:
        self.round.routes = []  # type: ignore[attr-defined]

    def actions(self, entity: Entity) -> list[str]:
        if not _is_current_corp(entity, self) or not self.game.route_trains(entity):
            return []
        if not self.game.trains.route_available(entity):
            return []
        return ["run_routes"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "run_routes":
            return super().choices(entity, kind)
        corp = as_corporation(entity)
        return [{**entity_action(corp, "run_routes"), "routes": self.game.best_routes(corp)}]

    def process_run_routes(self, action: Action, entity: Entity) -> None:
        entity = corp = as_corporation(entity)
        routes = []
        traced = []
        used_trains: set[str] = set()
        total = 0
        recorded = self.game.runs.recorded_run(action)
        for data in route_list(action):
            train = self.game.all_trains.get(str(data.get("train")))
            if train is None or train.owner is not entity:
                raise illegal(f"{entity.sym} does not own train {data.get('train')}")
            if train.id in used_trains:
                raise illegal(f"train {train.id} can only run once")
            used_trains.add(train.id)
            try:
                check = validate_route(self.game, corp, train, data)
                route = check.route(data)
            except GameError:
                if not recorded:
                    raise
                route = self.game.runs.recorded_route(train, data)
            else:
                traced.append(check)
            claimed: Any = data.get("revenue")  # as recorded: a number, or None when not claimed
            route.revenue = int(claimed) if recorded else self.game.route_revenue(corp, route)
            if claimed is not None and int(claimed) != route.revenue:
                earns, claimed_text = self.game.format_money(route.revenue), self.game.format_money(claimed)
                raise illegal(f"the {train.name} train's route earns {earns}, not {claimed_text}")
            total += route.revenue
            routes.append(route)
        if not recorded:
            validate_routes(self.game, entity, traced)
        for route in routes:
            route.train.operated = True
        self.round.routes = routes  # type: ignore[attr-defined]
        self.round.revenue = total  # type: ignore[attr-defined]
        self.game.last_routes = [{"train": r.train.id, "hexes": list(r.hexes), "revenue": r.revenue,
                                  "connections": [list(c) for c in data.get("connections") or []]}
                                 for r, data in zip(routes, route_list(action), strict=True)]
        self.game.log(f"{entity.sym} runs for {self.game.format_money(total)}")
        self.game.runs.routes_run(corp, routes)
        self.pass_()


class Dividend(Step[G]):
    name = "Pay or withhold dividends"

    def actions(self, entity: Entity) -> list[str]:
        if not _is_current_corp(entity, self) or not getattr(self.round, "routes", None):
            return []
        return ["dividend"]

    def skip(self) -> None:
        corp = self.round.entity()
        if isinstance(corp, Corporation):
            self.game.pay_dividend(corp, 0, "withhold")
        self.pass_()

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "dividend":
            return super().choices(entity, kind)
        corp = as_corporation(entity)
        return [{**entity_action(corp, "dividend"), "kind": k} for k in self.game.dividend_kinds(corp)]

    def process_dividend(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        kind = text(action, "kind")
        kinds = self.game.dividend_kinds(entity)
        if kind not in kinds:
            raise malformed(f"dividend must be one of {', '.join(kinds)}, not {kind!r}")
        revenue = int(getattr(self.round, "revenue", 0))
        self.game.pay_dividend(entity, revenue, kind)
        self.round.routes = []  # type: ignore[attr-defined]
        self.pass_()


class BuyCompany(Step[G]):
    """A company may buy a private from a player for half to twice its face value."""

    name = "Buy private companies"

    def __init__(self, game: Any, round_: Any, blocks: bool = False) -> None:
        super().__init__(game, round_)
        self.blocks = blocks

    def actions(self, entity: Entity) -> list[str]:
        if not _is_current_corp(entity, self):
            return []
        if self.game.can_buy_company(entity):
            return ["buy_company", "pass"] if self.blocks else ["buy_company"]
        # The last chance to use a private's ability during the company's turn.
        if self.blocks and self.game.has_turn_ability(entity):
            return ["pass"]
        return []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "buy_company":
            return super().choices(entity, kind)
        entity = as_corporation(entity)
        out = []
        for comp in self.game.companies.values():
            if not self.game.runs.company_for_sale(comp):
                continue
            low, high = self.game.company_price_range(entity, comp)
            if low <= min(high, entity.cash):
                out.append({**entity_action(entity, "buy_company"), "company": comp.sym,
                            "price": max(low, min(comp.value, high, entity.cash))})
        return out

    def price_range(self, entity: Entity, action: Action) -> tuple[int, int] | None:
        if action["type"] != "buy_company":
            return None
        entity = as_corporation(entity)
        low, high = self.game.company_price_range(entity, self.game.company(text(action, "company")))
        return low, min(high, entity.cash)

    def process_buy_company(self, action: Action, entity: Entity) -> None:
        company = self.game.company(text(action, "company"))
        price = whole(action, "price")
        self.game.runs.corporation_buys_company(as_corporation(entity), company, price)


class BlockingBuyCompany(BuyCompany[G]):
    def __init__(self, game: Any, round_: Any) -> None:
        super().__init__(game, round_, blocks=True)


class Bankrupt(Step[G]):
    name = "Bankruptcy"
    blocks = False

    def actions(self, entity: Entity) -> list[str]:
        # Only while the train is owed: 18xx.games sells the bankrupt's shares only from the train step.
        if not _is_current_corp(entity, self) or not isinstance(self.round.active_step(), BuyTrain):
            return []
        return ["bankrupt"] if self.game.can_go_bankrupt(entity) else []

    def offers(self, entity: Entity, kind: str) -> bool:
        # Asked before every operating action: listing asks which step is active, as costly as the whole action,
        # and only "bankrupt" is ever offered here.
        if kind != "bankrupt":
            return False
        return super().offers(entity, kind)

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        return [entity_action(entity, "bankrupt")] if kind == "bankrupt" else super().choices(entity, kind)

    def process_bankrupt(self, action: Action, entity: Entity) -> None:
        self.game.go_bankrupt(as_corporation(entity))


_ = (Company, insufficient)
