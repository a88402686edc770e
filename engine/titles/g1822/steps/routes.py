"""Running routes (L trains locally, Pullmans chosen) and paying dividends (minors half, majors' choice).
"""

from __future__ import annotations

from typing import Any, cast

from ....core.actions import Action, entity_action, opt_text, route_list, text, whole
from ....core.entities import Corporation, CorporationKind, Entity, Train, as_corporation
from ....core.errors import GameError, illegal, malformed
from ....core.routes import Route
from ....core.steps.operating import Dividend, RouteStep
from ..destinations import (
    add_route_bonuses,
)
from ..dividends import pay_dividend
from ..routes import mail_subsidy, suggest_routes, trace_1822_route
from ..state import Game1822
from ..turn_order import count_operation
from .common import in_turn


class Route1822(RouteStep[Game1822]):
    """Runs routes; L trains run from one station of the company, optionally to a town beside it."""


    def actions(self, entity: Entity) -> list[str]:
        if not in_turn(entity, self) or not self.game.route_trains(entity):
            return []
        if entity.kind is CorporationKind.MINOR and all(t.name == "E" for t in self.game.route_trains(entity)):
            return []  # a minor's E train does not run
        # 18xx.games remembers for good that the company had a route, even once its track no longer joins two
        # stops: it then still runs (nothing). A remembered route needs no walk.
        if entity.sym not in self.game.routes_seen:
            if self.game.track.reach(entity).route_possible:
                self.round.forget()  # recorded as this query reads the track: answers given before may change
                self.game.routes_seen.add(entity.sym)
            elif not any(t.name in ("L", "LP") for t in entity.trains):
                return []
        if self.pullman is None and self.pullman_choices(entity) and \
                any(t.name == "P+" for t in entity.trains):
            return ["run_routes", "choose"]
        return ["run_routes"]

    def setup(self) -> None:
        super().setup()
        self.pullman: Train | None = None

    def pullman_choices(self, corp: Corporation) -> list[Train]:
        return [t for t in self.game.route_trains(corp) if t.name not in ("L", "LP", "E")]

    def choice_label(self, entity: Entity, action: Action) -> str | None:
        """The Pullman's train, which the option names only by its place in the list."""
        trains = self.pullman_choices(as_corporation(entity))
        index = str(opt_text(action, "choice"))
        if not index.isdigit() or int(index) >= len(trains):
            return None
        return f"the Pullman runs with the {trains[int(index)].name} train"

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose":
            return [{**entity_action(entity, "choose"), "choice": str(i)}
                    for i, _ in enumerate(self.pullman_choices(as_corporation(entity)))]
        if kind == "run_routes":
            corp = as_corporation(entity)
            return [{**entity_action(corp, "run_routes"), "routes": suggest_routes(self.game, corp)}]
        return super().choices(entity, kind)

    def process_choose(self, action: Action, entity: Corporation) -> None:
        options = self.pullman_choices(entity)
        try:
            train = options[whole(action, "choice")]
        except (ValueError, IndexError):
            raise illegal(f"choose a train from 0 to {len(options) - 1}") from None
        self.pullman = train
        train.name += "+"
        self.game.log(f"{entity.sym} attaches the pullman to a {train.sym} train")

    def process_run_routes(self, action: Action, entity: Entity) -> None:
        corp = as_corporation(entity)
        routes: list[Route] = []
        total = 0
        used: set[str] = set()
        recorded = self.game.runs.recorded_run(action)
        claims: list[dict[str, Any]] = route_list(action)
        for data in claims:
            train = self.game.all_trains.get(str(data.get("train")))
            if train is None or train.owner is not corp:
                raise illegal(f"{corp.sym} does not own train {data.get('train')}")
            if train.id in used:
                raise illegal(f"train {train.id} can only run once")
            used.add(train.id)
            try:
                routes.append(trace_1822_route(self.game, corp, train, data))
            except GameError:
                if not recorded:
                    raise
                routes.append(self.game.runs.recorded_route(train, data))
        add_route_bonuses(self.game, corp, routes)
        for route, data in zip(routes, claims, strict=True):
            claimed: int | None = data.get("revenue")
            if recorded:
                route.revenue = int(cast(int, claimed))  # a recorded route always has its revenue
            if claimed is not None and int(claimed) != route.revenue:
                money = self.game.format_money
                raise illegal(f"the {route.train.name} train's route earns {money(route.revenue)}, "
                              f"not {money(claimed)}")
            total += route.revenue
        for route in routes:
            route.train.operated = True
        self.round.routes = routes  # type: ignore[attr-defined]
        self.round.revenue = total  # type: ignore[attr-defined]
        self.game.last_routes = [{"train": r.train.id, "hexes": list(r.hexes), "revenue": r.revenue}
                                 for r in routes]
        self.game.log(f"{corp.sym} runs for {self.game.format_money(total)}")
        self.game.runs.routes_run(corp, routes)
        if self.pullman is not None:
            self.pullman.name = self.pullman.name[:-1]
            self.pullman = None
        self.pass_()


class Dividend1822(Dividend[Game1822]):
    """Majors pay out, half pay or withhold (a permanent train's run may be paid differently, chosen first);
    minors always half pay."""

    KINDS = ("payout", "half", "withhold")

    def setup(self) -> None:
        self.extra_choice: str | None = None

    def actions(self, entity: Entity) -> list[str]:
        if not in_turn(entity, self) or entity.kind is CorporationKind.MINOR:
            return []
        if not getattr(self.round, "routes", None):
            return []
        if self.extra_choice is None and self.extra_route(entity) is not None and len(entity.trains) > 1:
            return ["dividend", "choose"]
        return ["dividend"]

    def extra_route(self, corp: Corporation) -> Route | None:
        """The permanent train's route when it earned something and not everything."""
        routes: list[Route] = getattr(self.round, "routes", None) or []
        total = sum(r.revenue for r in routes)
        for route in routes:
            if route.train.name in ("2P", "LP") and 0 < route.revenue != total:
                return route
        return None

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose":
            return [{**entity_action(entity, "choose"), "choice": k} for k in self.KINDS]
        return super().choices(entity, kind)

    def process_choose(self, action: Action, entity: Corporation) -> None:
        if text(action, "choice") not in self.KINDS:
            raise illegal(f"choose one of {', '.join(self.KINDS)}")
        self.extra_choice = text(action, "choice")

    def process_dividend(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        kind: str = text(action, "kind")
        if kind not in self.KINDS:
            raise malformed(f"dividend must be one of {', '.join(self.KINDS)}, not {kind!r}")
        revenue = int(getattr(self.round, "revenue", 0))
        extra = self.extra_route(entity) if self.extra_choice is not None else None
        run: list[Route] = getattr(self.round, "routes", None) or []
        subsidy = mail_subsidy(self.game, entity, run)
        pay_dividend(self.game, entity, revenue, kind, extra=(extra.revenue, self.extra_choice) if extra else None,
                               subsidy=subsidy)
        count_operation(self.game, entity)
        self.round.routes = []  # type: ignore[attr-defined]
        self.extra_choice = None
        self.pass_()

    def skip(self) -> None:
        corp = self.round.entity()
        if isinstance(corp, Corporation):
            revenue = int(getattr(self.round, "revenue", 0)) if getattr(self.round, "routes", None) else 0
            kind = "half" if corp.kind is CorporationKind.MINOR and revenue > 0 else "withhold"
            subsidy = mail_subsidy(self.game, corp, getattr(self.round, "routes", None) or [])
            pay_dividend(self.game, corp, revenue, kind, subsidy=subsidy)
            count_operation(self.game, corp)
            self.round.routes = []  # type: ignore[attr-defined]
        self.pass_()
