"""Routes as players enter them: hex chains between stops, turned into stops, track and revenue."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import illegal, malformed
from .tiles import NODE_BASE

if TYPE_CHECKING:
    from .board import HasBoard, Hex
    from .entities import Corporation, Train

NodeRef = tuple[str, int]


@dataclass(slots=True)
class Route:
    train: Train
    stops: list[NodeRef] = field(default_factory=list)
    track: set[tuple[str, int]] = field(default_factory=set)  # (hex, path index) pieces used
    hexes: list[str] = field(default_factory=list)
    revenue: int = 0


def build_route(game: HasBoard, corp: Corporation, train: Train, data: dict[str, Any]) -> Route:
    """Follow each connection (a list of hexes from one stop to the next) over the laid track."""
    route = Route(train)
    connections = data.get("connections") or []
    hinted = hinted_stops(data)
    ends: dict[NodeRef, int] = {}
    for chain in connections:
        if len(chain) < 2:
            raise malformed("each leg of a route needs at least two hexes")
        start_hex = game.board[chain[0]]
        end_hex = game.board[chain[-1]]
        walk = _walk_chain(game, chain)
        if walk is None:
            raise illegal(f"there is no track along {'-'.join(chain)}")
        first_node, last_node, pieces = walk
        for stop in ((start_hex.id, first_node), (end_hex.id, last_node)):
            ends[stop] = ends.get(stop, 0) + 1
            if ends[stop] > 2:
                raise illegal(f"a route may not visit {stop[0]} twice")
            if stop not in route.stops:
                route.stops.append(stop)
        for piece in pieces:
            if piece in route.track:
                raise illegal("a route may not use the same track twice")
            route.track.add(piece)
        for h in chain:
            if not route.hexes or route.hexes[-1] != h:
                route.hexes.append(h)
    if hinted and {h for h, _ in hinted} == {h for h, _ in route.stops}:
        route.stops = [s for s in hinted if s in route.stops] or route.stops
    return route


def hinted_stops(data: dict[str, Any]) -> list[NodeRef]:
    """The stops a route's ``nodes`` name ("HEX-INDEX"), as 18xx.games writes them."""
    return [_parse_node(n) for n in data.get("nodes", [])]


def _parse_node(text: str) -> NodeRef:
    hex_id, _, index = str(text).rpartition("-")
    return hex_id, int(index)


def _walk_chain(game: HasBoard, chain: list[str]) -> tuple[int, int, list[tuple[str, int]]] | None:
    """Find nodes at both ends and the path pieces joining consecutive hexes of a chain."""
    board = game.board
    hexes = [board[h] for h in chain]
    edges_out: list[int] = []
    for a, b in itertools.pairwise(hexes):
        edge = next((e for e, n in a.neighbors.items() if n == b.id), None)
        if edge is None:
            raise illegal(f"{a.id} and {b.id} are not neighbours")
        edges_out.append(edge)
    pieces: list[tuple[str, int]] = []
    # Start: a node in the first hex joined to the first exit edge.
    first = hexes[0]
    start_nodes = _nodes_to_edge(first, edges_out[0])
    if not start_nodes:
        return None
    first_node, first_path = start_nodes[0]
    pieces.append((first.id, first_path))
    # Middle hexes: a plain path (or through a town/city node) from entry edge to exit edge.
    for i in range(1, len(hexes) - 1):
        hx = hexes[i]
        entry = (edges_out[i - 1] + 3) % 6
        through = _through(hx, entry, edges_out[i])
        if through is None:
            return None
        pieces.extend((hx.id, p) for p in through)
    last = hexes[-1]
    entry = (edges_out[-1] + 3) % 6
    end_nodes = _nodes_to_edge(last, entry)
    if not end_nodes:
        return None
    last_node, last_path = end_nodes[0]
    pieces.append((last.id, last_path))
    return first_node, last_node, pieces


def _nodes_to_edge(hx: Hex, edge: int) -> list[tuple[int, int]]:
    out = []
    for i, (a, b) in enumerate(hx.tile.abs_paths()):
        if a == edge and b >= NODE_BASE:
            out.append((b - NODE_BASE, i))
        elif b == edge and a >= NODE_BASE:
            out.append((a - NODE_BASE, i))
    return out


def _through(hx: Hex, entry: int, exit_: int) -> list[int] | None:
    paths = hx.tile.abs_paths()
    for i, (a, b) in enumerate(paths):
        if {a, b} == {entry, exit_}:
            return [i]
    # Through a node (a town passed on the way counts as visited only when it is a stop).
    for i, (a, b) in enumerate(paths):
        if entry in (a, b):
            node = b if a == entry else a
            if node < NODE_BASE:
                continue
            for j, (c, d) in enumerate(paths):
                if j != i and node in (c, d) and exit_ in (c, d):
                    return [i, j]
    return None
