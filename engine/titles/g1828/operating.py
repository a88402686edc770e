"""1828's operating-round steps: the C&P's half pay and its run over its new tile, coal markers, stations the
privates give, one station a turn, a system's two shells of trains, and the order of the round."""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, entity_action, opt_text, route_list, text, whole
from ...core.entities import Company, Corporation, CorporationKind, Entity, Player, as_company, as_corporation, sym_of
from ...core.errors import illegal
from ...core.round import InterruptStep, Step
from ...core.steps.operating import BlockingBuyCompany, BuyCompany, Dividend, RouteStep, TokenStep
from ...core.steps.trains import BuyTrain, DiscardTrain
from . import coal, minor, privates, routes, shells
from .operating_round import operating_round_of
from .state import Game1828
from .track import current, turn_lay_waits


class DiscardTrain1828(DiscardTrain[Game1828]):
    """A system over the limit discards from the shell that is over it (rules 7.5.4)."""

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "discard_train":
            return super().choices(entity, kind)
        entity = as_corporation(entity)
        return [{**entity_action(entity, "discard_train"), "train": t.id}
                for t in shells.discardable_trains(self.game, entity)]

    def process_discard_train(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        train = self.game.all_trains.get(text(action, "train"))
        if train is None or train not in shells.discardable_trains(self.game, entity):
            raise illegal(f"{entity.sym} cannot discard train {text(action, 'train')} now")
        self.game.discard_train(entity, train)


class Dividend1828(Dividend[Game1828]):
    """The C&P pays half its run to its owner and keeps half, without a decision (rules 13.2)."""

    def actions(self, entity: Entity) -> list[str]:
        if isinstance(entity, Corporation) and entity.kind is CorporationKind.MINOR:
            return []
        return super().actions(entity)

    def skip(self) -> None:
        corp = self.round.entity()
        if isinstance(corp, Corporation) and corp.kind is CorporationKind.MINOR:
            minor.half_pay(self.game, corp, int(getattr(self.round, "revenue", 0) or 0))
            self.round.routes = []  # type: ignore[attr-defined]
            self.pass_()
            return
        super().skip()


class RouteStep1828(RouteStep[Game1828]):
    """Coal barring and the C&P's run over its own tile (game.check_route); the C&P runs only after a lay."""

    def actions(self, entity: Entity) -> list[str]:
        if _minor(entity) and not operating_round_of(self).laid_hexes:
            return []
        return super().actions(entity)

    def process_run_routes(self, action: Action, entity: Entity) -> None:
        laid = list(operating_round_of(self).laid_hexes)
        if not self.game.runs.recorded_run(action):  # a run as recorded on 18xx.games stands unchecked there
            for data in route_list(action):
                hexes = {h for leg in data.get("connections") or [] for h in leg} | set(data.get("hexes") or [])
                stops = set(data.get("hexes") or []) | {str(n).rsplit("-", 1)[0] for n in data.get("nodes") or []}
                routes.check_route(self.game, as_corporation(entity), hexes, stops, laid)
        super().process_run_routes(action, entity)


class TokenStep1828(TokenStep[Game1828]):
    """No station in the Virginia Coalfields (rules 16); a company places one station a turn, the C&P's
    included."""

    def actions(self, entity: Entity) -> list[str]:
        if isinstance(entity, Corporation) and entity.sym in self.game.tokened_this_round:
            return []
        return super().actions(entity)

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        coal = self.game.coal["coalfields"]
        return [c for c in super().choices(entity, kind) if kind != "place_token"
                or self.game.track.city_by_id(c["city"])[0].id != coal]

    def process_place_token(self, action: Action, entity: Entity) -> None:
        if self.game.track.city_by_id(text(action, "city"))[0].id == self.game.coal["coalfields"]:
            raise illegal("the Virginia Coalfields may not be tokened")
        super().process_place_token(action, entity)
        self.game.tokened_this_round.add(sym_of(entity))


def _minor(entity: object) -> bool:
    return isinstance(entity, Corporation) and entity.kind is CorporationKind.MINOR


class BuyTrain1828(BuyTrain[Game1828]):
    """The C&P never buys trains; a system keeps its trains in two shells, each within the limit, and names the
    shell a new train goes to (rules 7.5.4)."""

    def setup(self) -> None:
        super().setup()
        self.sold_for_train = False

    def actions(self, entity: Entity) -> list[str]:
        if _minor(self.round.entity()):
            return []
        out = super().actions(entity)
        # Once the president has sold shares for a train, the company buys before it may pass (18xx.games).
        if self.sold_for_train and "pass" in out:
            out = [a for a in out if a != "pass"]
        return out

    def process_sell_shares(self, action: Action, entity: Entity) -> None:
        super().process_sell_shares(action, entity)
        self.sold_for_train = True

    def needs_emergency_sale(self, corp: Corporation) -> bool:
        player = corp.owner
        if corp.kind is not CorporationKind.SYSTEM or self.game.must_buy_train(corp):
            return super().needs_emergency_sale(corp)
        if not isinstance(player, Player) or not self.game.president_may_contribute(corp):
            return False
        # Only sales that can complete the purchase: a system with trains is never forced to buy.
        cheapest = self.game.min_depot_price()
        if cheapest is None or corp.cash + player.cash + self.game.emergency_liquidity(player, corp) < cheapest:
            return False
        return bool(self.sellable_bundles(player))

    def can_buy(self, corp: Corporation) -> bool:
        # A system with an empty shell may buy for it whatever its treasury holds (18xx.games).
        if corp.kind is CorporationKind.SYSTEM and any(not s.trains for s in self.game.shells.get(corp.sym, [])):
            return True
        return super().can_buy(corp)

    def room(self, corp: Corporation) -> bool:
        if corp.kind is CorporationKind.SYSTEM:
            return bool(shells.with_room(self.game, corp))
        return super().room(corp)

    def other_trains(self, corp: Corporation) -> list[Any]:
        return [t for t in super().other_trains(corp) if not _minor(t.owner)]  # the C&P's train is never sold

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        out = super().choices(entity, kind)
        if kind == "buy_train":
            out = [c for c in out if not _minor(self.game.all_trains[c["train"]].owner)]
        if kind != "buy_train" or as_corporation(entity).kind is not CorporationKind.SYSTEM:
            return out
        entity = as_corporation(entity)
        out = [{**c, "shell": shell.name} for c in out for shell in shells.with_room(self.game, entity)
               if int(c["price"]) <= entity.cash or not shell.trains]
        empty = [s for s in self.game.shells.get(entity.sym, []) if not s.trains]
        depot = self.game.trains.available_depot_trains()
        owner = entity.owner
        if empty and depot and isinstance(owner, Player):
            # With its president's money, the cheapest new train for an empty shell.
            cheapest = min(depot, key=lambda t: t.price)
            if entity.cash < cheapest.price <= entity.cash + owner.cash:
                offer = {**entity_action(entity, "buy_train"), "train": cheapest.id, "price": cheapest.price}
                out += [{**offer, "shell": s.name} for s in empty if {**offer, "shell": s.name} not in out]
        return out

    def process_buy_train(self, action: Action, entity: Entity) -> None:
        shell = None
        if isinstance(entity, Corporation) and entity.kind is CorporationKind.SYSTEM:
            roomy = shells.with_room(self.game, entity)
            shell = next((s for s in roomy if s.name == opt_text(action, "shell")), None)
            if shell is None:
                names = ", ".join(s.name for s in roomy) or "none"
                raise illegal(f"name the shell the train goes to: one with room ({names})")
        train = self.game.all_trains.get(text(action, "train"))
        if train is not None and _minor(train.owner):
            raise illegal(f"train {train.id} runs for the C&P and is not for sale")
        if shell is None:
            super().process_buy_train(action, entity)
            self.sold_for_train = False
            return
        if train is None:
            raise illegal(f"there is no train {text(action, 'train')}")
        entity = as_corporation(entity)  # a system: it named a shell
        # The president helps only with a train for an empty shell (or when the system has no train at all).
        must = self.game.must_buy_train(entity) or not shell.trains
        exchange = self.game.all_trains.get(text(action, "exchange")) if opt_text(action, "exchange") else None
        variant = text(action, "variant") if opt_text(action, "variant") else None
        self.game.trains.buy_train_action(entity, train, whole(action, "price"), exchange=exchange, must_buy=must,
                                   last_sale_price=self.last_sale_price, variant=variant)
        shell.trains.append(train)
        self.sold_for_train = False
        if not self.can_buy(entity):
            self.pass_()


class BuyCompany1828(BuyCompany[Game1828]):
    def actions(self, entity: Entity) -> list[str]:
        return [] if _minor(entity) else super().actions(entity)


class BlockingBuyCompany1828(BlockingBuyCompany[Game1828]):
    """The last chance of the turn to buy privates, or to use a private's lay that may come any time in the
    company's turn (the C&StL's): the company passes it explicitly (18xx.games)."""

    def actions(self, entity: Entity) -> list[str]:
        if _minor(entity):
            return []
        out = super().actions(entity)
        if not out and isinstance(entity, Corporation) and entity is self.round.entity() \
                and turn_lay_waits(self.game, entity):
            return ["pass"]
        return out


class SpecialToken1828(InterruptStep[Game1828]):
    """A company that buys the C&P places a station in Peterborough for free, or the space gets a blocking
    marker (rules 13.2); after the D&H's lay in Scranton its company may place a station there for free (rules
    13.2.2.4)."""

    name = "Place a private's station"

    def pending(self) -> Company | None:
        company = operating_round_of(self).just_sold_company
        if isinstance(company, Company) and company.data.get("minor") and minor.token_pending(self.game, company):
            return company
        return self.lay_station_company()

    def lay_station_company(self) -> Company | None:
        corp = current(self)
        if not isinstance(corp, Corporation):
            return None
        return next((c for c in corp.companies if c.sym in self.game.lay_station_owed), None)

    def token_price(self, entity: Entity, action: Action) -> int:
        return 0  # both private stations are free

    def offered_by_reference(self, entity: Entity, action: Action) -> bool:
        company = self.lay_station_company()
        lays = company.data.get("special_lays", ()) if company is not None and entity is company else ()
        return all(lay.get("reference", True) is not False for lay in lays if lay.get("station"))

    def blocking(self) -> bool:
        return self.pending() is not None

    def active_entities(self) -> list[Any]:
        company = self.pending()
        return [company] if company is not None else []

    def actions(self, entity: Entity) -> list[str]:
        return ["place_token", "pass"] if entity is not None and entity is self.pending() else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        company = self.lay_station_company()
        if kind == "place_token" and company is not None and entity is company:
            corp = as_corporation(current(self))
            hex_id = self.game.lay_station_owed[company.sym]
            hx = self.game.board[hex_id]
            return [{**entity_action(company, "place_token"), "city": f"{hx.tile.id}-{node}",
                     "slot": self.game.track.free_slot(hx, node, corp.sym)}
                    for node in privates.lay_station_cities(self.game, corp, hex_id)]
        if kind == "place_token":
            hx = self.game.board[minor.cp_hex(self.game)]
            return [{**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}", "slot": 0}
                    for node in hx.tile.tdef.cities]
        return super().choices(entity, kind)

    def process_place_token(self, action: Action, entity: Entity) -> None:
        company = self.lay_station_company()
        if company is not None and entity is company:
            privates.lay_station_place(self.game, company, action)
            return
        minor.place_token(self.game, as_company(entity), action)
        operating_round_of(self).just_sold_company = None

    def process_pass(self, action: Action, entity: Entity) -> None:
        company = self.lay_station_company()
        if company is not None and entity is company:
            privates.lay_station_pass(self.game, company)
            return
        minor.pass_token(self.game, as_company(entity))
        operating_round_of(self).just_sold_company = None


class SpecialBuy1828(InterruptStep[Game1828]):
    """A company connected to the Virginia Coalfields buys one of its coal markers for $120 (rules 16)."""

    name = "Buy a coal marker"
    blocks = False

    def actions(self, entity: Entity) -> list[str]:
        if entity is current(self) and isinstance(entity, Corporation) and coal.can_buy_marker(self.game, entity):
            return ["special_buy"]
        return []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "special_buy":
            return [{**entity_action(entity, "special_buy"), "description": "Coal Marker",
                     "cost": int(self.game.coal["price"])}]
        return super().choices(entity, kind)

    def process_special_buy(self, action: Action, entity: Entity) -> None:
        if str(opt_text(action, "description")) != "Coal Marker":
            raise illegal(f"there is no {opt_text(action, 'description')} for sale")
        entity = as_corporation(entity)
        if not coal.can_buy_marker(self.game, entity):
            raise illegal(f"{entity.sym} must be connected to the Virginia Coalfields, hold no coal marker and "
                          f"have {self.game.format_money(int(self.game.coal['price']))}")
        coal.buy_marker(self.game, entity)


class SwapTrain(Step[Game1828]):
    """A system moves trains between its two shells, each within the train limit (rules 7.5.4)."""

    name = "Arrange trains between shells"

    def setup(self) -> None:
        operating_round_of(self).ignore_train_limit = False

    def actions(self, entity: Entity) -> list[str]:
        if entity is not current(self) or not isinstance(entity, Corporation):
            return []
        if entity.kind is not CorporationKind.SYSTEM or not entity.trains:
            return []
        if shells.over_limit(self.game, entity):
            return ["swap_train"]
        return ["swap_train", "pass"]

    def pass_(self) -> None:
        operating_round_of(self).ignore_train_limit = False
        super().pass_()

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "swap_train":
            return [{**entity_action(entity, "swap_train"), "train": t.id} for t in as_corporation(entity).trains]
        return super().choices(entity, kind)

    def process_swap_train(self, action: Action, entity: Entity) -> None:
        system = as_corporation(entity)
        train = self.game.all_trains.get(text(action, "train"))
        if train is None or train.owner is not system:
            raise illegal(f"{system.sym} does not own train {text(action, 'train')}")
        shells.swap_train(self.game, system, train)
        operating_round_of(self).ignore_train_limit = True
