"""What the route finder asks of a game, and how it reads a train (:class:`TrainSpec`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..board import Board
    from ..entities import Corporation, Train
    from ..routes import Route


class RouteRules(Protocol):
    """What the route finder needs of a game (it never imports the game facade)."""

    board: Board

    def phase_colour(self) -> str: ...

    def route_trains(self, corp: Corporation) -> list[Train]: ...

    def has_route_bonus(self) -> bool: ...

    def route_bonus(self, route: Route) -> int: ...

    def route_needs_station(self, corp: Corporation) -> bool: ...

    def route_anchors(self, corp: Corporation) -> list[tuple[str, int]] | None: ...

    def autoroute_train_spec(self, train: Train) -> TrainSpec | None: ...

    def autoroute_tile_once(self) -> frozenset[str] | None: ...

    def autoroute_single_stop_hexes(self) -> frozenset[str]: ...


NodeRef = tuple[str, int]  # (hex id, node index)
Unit = tuple[str, int, str]  # a track unit: a hexside (hex, edge, "") or a path or junction (hex, i, kind)
UNLIMITED = 10**6
CUT_SHORT = 20000  # candidates per train kind kept for the combination when the deadline cut the listing


@dataclass(frozen=True, slots=True)
class TrainSpec:
    """What the search needs to know about one kind of train.

    ``limit``: stops that count against the train's range (None: unlimited, D trains).
    ``free_kinds``: node kinds that never count against the range (+ trains and Pullmans: {"town"}).
    ``unpaid_kinds``: node kinds that neither count nor pay (1828 8E: towns).
    ``express``: the route may visit any number of counted stops and earns its best ``limit`` of them
    (1862 E trains omit stops of the president's choice; the best choice is the one that pays most).
    ``multiplier``: revenue factor (doubling trains, 1828 3+D). ``group``: trains in different groups may
    share track (1822 E trains); trains of one group never do.
    ``caps``: (kinds, n) pairs, at most n stops of those kinds (1822 L: one city or off-board, one town).
    ``local``: the train may also run at one of the company's stations alone (1822 L trains), as
    ``["local", HEX]``; two such runs never share a station.
    ``stations_only``: only the company's stations pay, and the route starts and ends at them (1822 E).
    """

    name: str
    limit: int | None
    free_kinds: frozenset[str] = frozenset()
    multiplier: int = 1
    group: str = ""
    unpaid_kinds: frozenset[str] = frozenset()
    express: bool = False
    caps: tuple[tuple[frozenset[str], int], ...] = ()
    local: bool = False
    stations_only: bool = False

    def counts(self, kind: str, free: bool) -> bool:
        """Whether a stop of this kind counts against the range (``free``: the hex makes it free)."""
        return not (free or kind in self.free_kinds or kind in self.unpaid_kinds)

    def earnings(self, stops: Sequence[tuple[str, int, bool]]) -> int:
        """What the train earns from its stops, given as (kind, value, free), before bonuses and multiplier."""
        paid = [(v, self.counts(kind, free)) for kind, v, free in stops if kind not in self.unpaid_kinds]
        if not self.express or self.limit is None:
            return sum(v for v, _ in paid)
        counted = sorted((v for v, c in paid if c), reverse=True)
        return sum(counted[: self.limit]) + sum(v for v, c in paid if not c)


ORDINARY = TrainSpec("", None)  # a train that counts and pays every stop, without limit


def train_spec(game: RouteRules, train: Train) -> TrainSpec:
    """The default reading of a train: ``distance`` counted stops, 99 or more meaning unlimited."""
    spec = game.autoroute_train_spec(train)
    if spec is not None:
        return spec
    limit = None if train.distance >= 99 else int(train.distance)
    return TrainSpec(train.name, limit)
