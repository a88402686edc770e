"""How routes are priced beyond their stops, the candidate route record, and the search deadline."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .graph import RouteGraph
from .trains import NodeRef, RouteRules

if TYPE_CHECKING:
    from ..entities import Train


@dataclass(slots=True)
class BonusRule:
    """``amount`` when a route visits a node from every group (1882 Hudson Bay would be B12 and B2/I1)."""

    groups: list[int]  # node bitmasks
    amount: int


@dataclass(slots=True)
class Pricing:
    """How routes are priced beyond the sum of their stops.

    ``route_hook(train, stops)`` gives a candidate's bonus: by default the title's own
    ``game.route_bonus``, the code that prices routes players enter. A title may instead supply fast
    ``route_rules`` over the visited-node bitmask through ``autoroute_pricing(graph)``; solve() checks
    them against ``route_bonus`` on its answer (which catches rules that overpay, not rules that miss a
    bonus). ``set_bound`` and ``set_bonus`` are for set-level effects (1822 destinations, 1828 coal): an
    optimistic allowance used while searching, and the exact extra revenue of a whole set of routes at
    the leaves; the extra must lie between 0 and ``set_bound``.
    """

    route_rules: list[BonusRule] = field(default_factory=list)
    route_hook: Callable[[Train | None, list[NodeRef]], int] | None = None
    set_bound: int = 0
    set_bonus: Callable[[list[Candidate]], int] | None = None
    set_nodes: int | None = None  # bitmask of the nodes set_bonus reads (None: unknown, nothing is trimmed)
    verify: bool = True  # solve() checks route_rules against game.route_bonus (off: the title prices runs itself)


class PricingRules(RouteRules, Protocol):
    """A game whose route bonuses the finder reads (``autoroute_pricing`` names the graph, so it is declared
    here rather than in ``RouteRules``)."""

    def autoroute_pricing(self, graph: RouteGraph) -> Pricing | None: ...


def pricing_for(game: PricingRules, graph: RouteGraph) -> Pricing:
    """The title's ``autoroute_pricing(graph)`` if it has one, else the engine's ``route_bonus``."""
    got = game.autoroute_pricing(graph)
    if got is not None:
        return got
    if not game.has_route_bonus():
        return Pricing()
    return engine_pricing(game)


def engine_pricing(game: RouteRules) -> Pricing:
    """Route bonuses by calling ``game.route_bonus`` for every candidate."""
    from ..routes import Route

    def bonus(train: Train | None, stops: list[NodeRef]) -> int:
        return int(game.route_bonus(Route(train=train, stops=list(stops))))  # type: ignore[arg-type]

    return Pricing(route_hook=bonus)


@dataclass(slots=True)
class Candidate:
    value: int
    mask: int
    start: int
    links: tuple[int, ...]
    train: str = ""  # the kind of train (TrainSpec.name) it was priced for
    local: bool = False  # a run at the station ``start`` alone; ``links`` holds its station's own link

    def nodes(self, graph: RouteGraph) -> list[int]:
        out = [self.start]
        if self.local:
            return out
        cur = self.start
        for li in self.links:
            link = graph.links[li]
            cur = link.b if link.a == cur else link.a
            out.append(cur)
        return out


class Deadline:
    """When a search stops: after ``seconds`` of wall time, or after ``work`` checks (the walk checks every 1,024
    steps, the combination every 1,024 nodes), which stops it at the same point on any machine under any load."""

    def __init__(self, seconds: float | None, work: int | None = None) -> None:
        self.at = None if seconds is None else time.perf_counter() + seconds
        self.work = work
        self.expired = False

    @property
    def limited(self) -> bool:
        return self.at is not None or self.work is not None

    def check(self) -> bool:
        if self.expired:
            return True
        if self.work is not None:
            self.work -= 1
            self.expired = self.work < 0
        if self.at is not None and time.perf_counter() > self.at:
            self.expired = True
        return self.expired
