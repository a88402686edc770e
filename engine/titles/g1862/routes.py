"""1862's routes (§7.4, §2.5): E trains count their best stops of a route of any length; a route includes each
tile once, except New York while its two stations are separate; the two Mexico hexes are one destination."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from ...core.actions import Action, route_list
from ...core.autoroute import BonusRule, Pricing, RouteGraph, TrainSpec
from ...core.entities import Entity, Train
from ...core.errors import illegal
from ...core.steps.operating import RouteStep
from .state import Game1862

NEW_YORK = "F31"
MEXICO = ("K12", "K14")


def train_spec(train: Train) -> TrainSpec:
    # E trains count only their best N stops of a route of any length (§7.4).
    return TrainSpec(train.name, int(train.distance), express=train.name.endswith("E"))


def pricing(graph: RouteGraph) -> Pricing:
    # Both Mexico hexes are one destination: a route with both is never chosen (§2.5).
    groups = [sum(1 << i for i, n in enumerate(graph.nodes) if n.ref[0] == h) for h in MEXICO]
    if all(groups):
        return Pricing(route_rules=[BonusRule(groups, -10**7)])
    return Pricing()


def tile_once_exempt(game: Game1862) -> frozenset[str]:
    # A route includes each tile once, except New York while its two stations are separate (§7.4); the
    # exemption is the one route_problem makes.
    hx = game.board.hexes[NEW_YORK]
    return frozenset({NEW_YORK}) if len(hx.tile.tdef.cities) == 2 else frozenset()


def route_problem(game: Game1862, data: dict[str, Any]) -> str | None:
    """Why a route breaks 1862's own rules (the same tile twice, both Mexico hexes), or None (§7.4)."""
    legs = [[str(h) for h in leg] for leg in data.get("connections") or [] if isinstance(leg, list)]
    count: Counter[str] = Counter(h for leg in legs for h in leg)
    for a, b in itertools.pairwise(legs):
        for shared in {a[0], a[-1]} & {b[0], b[-1]}:
            count[shared] -= 1
    for hex_id, n in count.items():
        if n <= 1:
            continue
        hx = game.board.hexes.get(hex_id)
        if hex_id == NEW_YORK and hx is not None and len(hx.tile.tdef.cities) == 2:
            continue
        return f"a route may not include the tile on {hex_id} twice"
    if all(count.get(h, 0) > 0 for h in MEXICO):
        return "Mexico (K12 and K14) is one destination: a route may include only one of them"
    return None


class Routes1862(RouteStep[Game1862]):
    """Routes may not include the same tile twice, except New York's two separate stations, and include at most
    one of the two Mexico hexes (§7.4)."""

    def process_run_routes(self, action: Action, entity: Entity) -> None:
        for data in route_list(action):
            problem = route_problem(self.game, data)
            if problem:
                raise illegal(problem)
        super().process_run_routes(action, entity)
