"""1830's revenue groups (18xx.games): off-boards sharing a map tag ``group-NAME`` (Canada: A9 and A11) count
once per route; the route finder never chooses a route through two of one group."""

from __future__ import annotations

import itertools

from ...core.autoroute import BonusRule, Pricing, RouteGraph
from ...core.board import Board


def route_group(board: Board, hexes: list[str]) -> str | None:
    """The group (map tag ``group-NAME``) two of these hexes share, whose off-boards count once per route
    (18xx.games' revenue groups): Canada, A9 and A11 (its map puts I1 alone in a Gulf group)."""
    seen: set[str] = set()
    for hex_id in dict.fromkeys(hexes):
        for tag in board.hexes[hex_id].tags:
            if tag.startswith("group-"):
                if tag in seen:
                    return tag.removeprefix("group-")
                seen.add(tag)
    return None


def pricing(board: Board, graph: RouteGraph) -> Pricing:
    # A route through two off-boards of one group is never chosen (route_revenue refuses it).
    rules = []
    for tag in sorted({t for hx in board.hexes.values() for t in hx.tags if t.startswith("group-")}):
        masks = [1 << i for i, n in enumerate(graph.nodes) if tag in board.hexes[n.ref[0]].tags]
        rules += [BonusRule([a, b], -10**7) for a, b in itertools.combinations(masks, 2)]
    return Pricing(route_rules=rules)
