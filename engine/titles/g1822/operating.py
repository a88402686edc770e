"""1822's operating round: its step list, and the steps that differ from the core's.

A minor's first turn may start with buying the next L train; minors lay one tile, majors from phase 3 two yellow
or one upgrade; L trains run from one of the company's stations (plus one town); minors always pay half, majors
choose payout, half or withhold; an L train may be upgraded to a 2 train.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.actions import Action, entity_action
from ...core.entities import Corporation, Train
from ...core.errors import illegal, malformed
from ...core.round import OperatingRound, Step
from ...core.routes import Route
from ...core.steps.operating import BuyTrain, DiscardTrain, Dividend, RouteStep, TokenStep, Track
from ...core.steps.stock import HomeToken

if TYPE_CHECKING:
    from .game import G1822


def operating_round(game: G1822, number: int) -> OperatingRound:
    return OperatingRound(game, [DiscardTrain, HomeToken, FirstTurnHousekeeping, AcquireCompany, Track1822,
                                 DestinationToken, TokenStep, Route1822, Dividend1822, BuyTrain1822], number)


def _current(step: Step, entity: Any) -> bool:
    return isinstance(entity, Corporation) and entity is step.round.entity()


class FirstTurnHousekeeping(Step):
    """A minor's first turn: it may buy the next L train before laying track (18xx.games buys the depot's next)."""

    name = "Buy a first L train"
    game: G1822

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or entity.kind.value != "minor" or entity.operated:
            return []
        depot = self.game.available_depot_trains()
        if not depot or depot[0].sym != "L" or entity.cash < depot[0].price:
            return []
        if entity.trains_in_limit() >= self.game.train_limit(entity):
            return []
        return ["buy_train", "pass"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "buy_train":
            return super().choices(entity, kind)
        train = self.game.available_depot_trains()[0]
        return [{**entity_action(entity, "buy_train"), "train": train.id, "price": train.price, "variant": "L"}]

    def process_buy_train(self, action: dict[str, Any], entity: Any) -> None:
        train = self.game.available_depot_trains()[0]
        price = int(action["price"])
        if price != train.price:
            raise illegal(f"the L train costs {self.game.format_money(train.price)}")
        if action.get("variant") not in (None, "L"):
            raise illegal("only an L train may be bought now")
        self.game.buy_train(entity, train, price)
        self.pass_()


class AcquireCompany(Step):
    """A company may take over privates any player owns, as the private's card allows (its phase and whether
    minors may); the players settle the price among themselves, so the engine moves no money."""

    name = "Acquire private companies"
    game: G1822

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or not self.game.purchasable_companies(entity):
            return []
        return ["acquire_company", "pass"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "acquire_company":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "acquire_company"), "company": c.sym}
                for c in self.game.purchasable_companies(entity)]

    def process_acquire_company(self, action: dict[str, Any], entity: Any) -> None:
        company = self.game.company(action["company"])
        if company not in self.game.purchasable_companies(entity):
            raise illegal(f"{entity.sym} cannot acquire {company.sym} now")
        self.game.acquire_private(entity, company)
        if not self.game.purchasable_companies(entity):
            self.pass_()


class DestinationToken(Step):
    """A major places its destination station once its home reaches the destination (it may not pass then)."""

    name = "Place the destination token"
    game: G1822

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or entity.kind.value != "major":
            return []
        if self.game.destination_token(entity) is None:
            return []
        return ["hex_token", "pass"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "hex_token":
            if not self.game.destination_connected(entity):
                return []
            return [{**entity_action(entity, "hex_token"), "hex": entity.data["destination"],
                     "token_type": "destination"}]
        if kind == "pass" and self.game.destination_connected(entity):
            return []
        return super().choices(entity, kind)

    def process_hex_token(self, action: dict[str, Any], entity: Any) -> None:
        if action["hex"] != entity.data["destination"]:
            raise illegal(f"{entity.sym}'s destination is {entity.data['destination']}")
        if not self.game.destination_connected(entity):
            raise illegal(f"{entity.sym} is not connected to its destination {entity.data['destination']}")
        self.game.place_destination_token(entity)
        self.pass_()

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        if self.game.destination_connected(entity):
            raise illegal(f"{entity.sym} must place its destination token: it reaches {entity.data['destination']}")
        self.pass_()


class Track1822(Track):
    game: G1822

    def next_lay(self) -> dict[str, Any] | None:
        corp = self.round.entity()
        lays = self.game.tile_lays_for(corp)
        if self.lays >= len(lays):
            return None
        spec: dict[str, Any] = lays[self.lays]
        if self.upgraded and spec.get("not_if_upgraded"):
            return None
        return spec

    def process_lay_tile(self, action: dict[str, Any], entity: Any) -> None:
        super().process_lay_tile(action, entity)
        if self.next_lay() is None:
            self.pass_()


class Route1822(RouteStep):
    """Runs routes; L trains run from one station of the company, optionally to a town beside it."""

    game: G1822

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or not self.game.route_trains(entity):
            return []
        if not any(t.name in ("L", "LP") for t in entity.trains) and not self.game.network(entity).route_possible:
            return []
        return ["run_routes"]

    def process_run_routes(self, action: dict[str, Any], entity: Any) -> None:
        corp: Corporation = entity
        routes: list[Route] = []
        total = 0
        used: set[str] = set()
        for data in action["routes"]:
            train = self.game.all_trains.get(str(data.get("train")))
            if train is None or train.owner is not corp:
                raise illegal(f"{corp.sym} does not own train {data.get('train')}")
            if train.id in used:
                raise illegal(f"train {train.id} can only run once")
            used.add(train.id)
            route = self.game.trace_1822_route(corp, train, data)
            claimed = data.get("revenue")
            if claimed is not None and int(claimed) != route.revenue:
                money = self.game.format_money
                raise illegal(f"the {train.name} train's route earns {money(route.revenue)}, not {money(claimed)}")
            total += route.revenue
            routes.append(route)
        for route in routes:
            route.train.operated = True
        self.round.routes = routes  # type: ignore[attr-defined]
        self.round.revenue = total  # type: ignore[attr-defined]
        self.game.last_routes = [{"train": r.train.id, "hexes": list(r.hexes), "revenue": r.revenue}
                                 for r in routes]
        self.game.log(f"{corp.sym} runs for {self.game.format_money(total)}")
        self.pass_()


class Dividend1822(Dividend):
    game: G1822

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or entity.kind.value == "minor":
            return []
        if not getattr(self.round, "routes", None):
            return []
        return ["dividend"]

    def skip(self) -> None:
        corp = self.round.entity()
        if isinstance(corp, Corporation):
            revenue = int(getattr(self.round, "revenue", 0)) if getattr(self.round, "routes", None) else 0
            kind = "half" if corp.kind.value == "minor" and revenue > 0 else "withhold"
            self.game.pay_dividend(corp, revenue, kind)
            self.round.routes = []  # type: ignore[attr-defined]
        self.pass_()


class BuyTrain1822(BuyTrain):
    """Trains from the depot (and from other companies from phase 3); an L train may become a 2 train."""

    game: G1822

    def room(self, corp: Corporation) -> bool:
        return corp.trains_in_limit() < self.game.train_limit(corp)

    def can_buy(self, corp: Corporation) -> bool:
        if any(t.sym == "L" and t.name == "L" for t in corp.trains) and self.game.l_upgrade_open() \
                and corp.cash >= self.game.l_upgrade_price():
            return True
        return super().can_buy(corp)

    def other_trains(self, corp: Corporation) -> list[Train]:
        # 18xx.games keeps the step open for them even before they may be bought (its cheapest-train check).
        return [t for t in super().other_trains(corp) if t.name not in ("2P", "LP", "P+")]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        out = super().choices(entity, kind)
        if kind == "buy_train" and "can_buy_trains" not in self.game.phase.get("status", []):
            out = [a for a in out if not isinstance(self.game.all_trains[a["train"]].owner, Corporation)]
        if kind == "buy_train" and self.game.l_upgrade_open():
            price = self.game.l_upgrade_price()
            if price <= entity.cash:
                out += [{**entity_action(entity, "buy_train"), "train": t.id, "price": price, "variant": "2",
                         "exchange": t.id} for t in entity.trains if t.sym == "L" and t.name == "L"]
        return out

    def process_buy_train(self, action: dict[str, Any], entity: Any) -> None:
        exchange = action.get("exchange")
        if exchange:
            train = self.game.all_trains.get(str(exchange))
            if train is None or not isinstance(entity, Corporation) or train.owner is not entity \
                    or train.name != "L" or str(action["train"]) != train.id:
                raise illegal(f"{entity.sym} can only upgrade its own L trains to 2 trains")
            if action.get("variant") != "2":
                raise malformed("an L train is upgraded to a 2 train (variant 2)")
            self.game.upgrade_l_train(entity, train, int(action["price"]))
            if not self.can_buy(entity):
                self.pass_()
            return
        train = self.game.all_trains.get(str(action["train"]))
        if train is not None and isinstance(train.owner, Corporation) and \
                "can_buy_trains" not in self.game.phase.get("status", []):
            raise illegal(f"trains cannot be bought from other companies in phase {self.game.phase['name']}")
        super().process_buy_train(action, entity)
