"""Routes entered by players: traced over the track, checked against the rules, and priced."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import illegal, malformed
from ..graph import city_blocks
from ..routes import Route, hinted_stops
from ..tiles import NODE_BASE
from .graph import junction_unit, node_is_token
from .trains import ORDINARY, NodeRef, RouteRules, TrainSpec, Unit, train_spec

if TYPE_CHECKING:
    from ..board import Board, Hex
    from ..entities import Corporation, Train
    from ..tiles import NodeDef, TileLayout

_T = TypeVar("_T")


@dataclass(slots=True)
class TracedRoute:
    """A route as entered, followed over the track: every node visited in order and every unit used."""

    train: Train
    stops: list[NodeRef]  # every revenue centre visited, in route order (towns passed mid-chain included)
    units: list[Unit]  # hexsides and node-to-node paths, in order
    pieces: list[tuple[str, int]]  # (hex, path index)

    def route(self, data: dict[str, Any]) -> Route:
        """The route ``build_route`` makes of ``data`` once ``validate_route`` has accepted it, without following
        the track again, with the stops in route order. The track is the same: both follow each chain by the
        first path that fits, and an accepted route visits no stop twice and uses no piece twice, which is all
        build_route refuses beyond it."""
        hinted_stops(data)  # a malformed hint fails as in build_route; the traced order of the stops stands
        hexes: list[str] = []
        for chain in data.get("connections") or []:
            for h in chain:
                if not hexes or hexes[-1] != h:
                    hexes.append(h)
        return Route(self.train, stops=list(self.stops), track=set(self.pieces), hexes=hexes)


def trace_route(game: RouteRules, train: Train, data: dict[str, Any]) -> TracedRoute:
    """Follow ``data['connections']`` (hex chains from stop to stop, each in either direction)."""
    board = game.board
    connections = data.get("connections") or []
    if not connections:
        raise illegal("a route needs at least one leg")
    legs: list[tuple[list[NodeRef], list[Unit], list[tuple[str, int]]]] = []
    for chain in connections:
        if not isinstance(chain, list) or len(chain) < 2:
            raise malformed("each leg of a route needs at least two hexes")
        legs.append(_trace_chain(board, [str(h) for h in chain]))
    # Orient the legs: consecutive legs share one end node.
    order: list[NodeRef] = []
    units: list[Unit] = []
    pieces: list[tuple[str, int]] = []
    for k, (nodes, lu, lp) in enumerate(legs):
        if k == 0:
            if len(legs) > 1:
                nxt = legs[1][0]
                shared = {nodes[0], nodes[-1]} & {nxt[0], nxt[-1]}
                if not shared:
                    first, second = ("-".join(c) for c in connections[:2])
                    raise illegal(f"legs {first} and {second} do not meet")
                if nodes[0] in shared and nodes[-1] not in shared:
                    nodes, lu, lp = nodes[::-1], lu[::-1], lp[::-1]
            order.extend(nodes)
        else:
            if nodes[0] == order[-1]:
                pass
            elif nodes[-1] == order[-1]:
                nodes, lu, lp = nodes[::-1], lu[::-1], lp[::-1]
            else:
                raise illegal(f"leg {'-'.join(connections[k])} does not continue from {order[-1][0]}")
            order.extend(nodes[1:])
        units.extend(lu)
        pieces.extend(lp)
    return TracedRoute(train, order, units, pieces)


def _trace_chain(board: Board, chain: list[str]) -> tuple[list[NodeRef], list[Unit], list[tuple[str, int]]]:
    try:
        hexes = [board.hexes[h] for h in chain]
    except KeyError:
        hexes = [board[h] for h in chain]  # says which hex the map lacks
    outs: list[int] = []
    sides: list[Unit] = []
    for a, b in itertools.pairwise(hexes):
        side = _sides(a).get(b.id)
        if side is None:
            raise illegal(f"{a.id} and {b.id} are not neighbours")
        edge = side[0]
        if board.neighbor(a, edge) is None:
            raise illegal(f"track cannot cross between {a.id} and {b.id}")
        outs.append(edge)
        sides.append(side[1])
    nodes: list[NodeRef] = []
    units: list[Unit] = []
    pieces: list[tuple[str, int]] = []
    first = hexes[0]
    end = _reading(first).at_edge(first.id, outs[0])
    if end is None:
        raise illegal(f"there is no track along {'-'.join(chain)}")
    nodes.append(end[0])
    pieces.append(end[1])
    last = len(hexes) - 1
    for k in range(1, last):
        hx = hexes[k]
        units.append(sides[k - 1])
        way = _reading(hx).through(hx.id, (outs[k - 1] + 3) % 6, outs[k])
        if way is None:
            raise illegal(f"there is no track along {'-'.join(chain)}")
        nodes += way[0]
        units += way[1]
        pieces += way[2]
    hx = hexes[last]
    units.append(sides[last - 1])
    end = _reading(hx).at_edge(hx.id, (outs[last - 1] + 3) % 6)
    if end is None:
        raise illegal(f"there is no track along {'-'.join(chain)}")
    nodes.append(end[0])
    pieces.append(end[1])
    return nodes, units, pieces


# What a chain asks of a hex, worked out once per map and once per tile layout. Both are shared by every game
# and never changed (board._neighbor_table, tiles.TileLayout), so they are keyed by identity; each entry keeps its
# key object alive, so that an id is never reused while its entry stands.
_SIDES: dict[int, tuple[dict[int, str], dict[str, tuple[int, Unit]]]] = {}
# (stops, junction units, pieces) of one hex passed from edge to edge
_Way = tuple[tuple[NodeRef, ...], tuple[Unit, ...], tuple[tuple[str, int], ...]]
_READINGS: dict[int, tuple[TileLayout, _LayoutReading]] = {}


def _sides(hx: Hex) -> dict[str, tuple[int, Unit]]:
    """By neighbouring hex: the edge of ``hx`` facing it and the key of that hexside (hexside_unit)."""
    table = hx.neighbors
    entry = _SIDES.get(id(table))
    if entry is None or entry[0] is not table:
        sides: dict[str, tuple[int, Unit]] = {}
        for edge, other in table.items():
            sides.setdefault(other, (edge, min((hx.id, edge, ""), (other, (edge + 3) % 6, ""))))
        entry = _SIDES[id(table)] = (table, sides)
    return entry[1]


def _reading(hx: Hex) -> _LayoutReading:
    layout = hx.tile.layout()
    entry = _READINGS.get(id(layout))
    if entry is None or entry[0] is not layout:
        entry = _READINGS[id(layout)] = (layout, _LayoutReading(layout, hx.tile.tdef.nodes))
    return entry[1]


class _LayoutReading:
    """A tile layout's answers to a chain in one hex (memoised by hex): the stop and the piece joined to an edge,
    the stops, junctions and pieces passed from edge to edge."""

    __slots__ = ("_ends", "_kinds", "_paths", "_through")

    def __init__(self, layout: TileLayout, nodes: Sequence[NodeDef]) -> None:
        self._paths = layout.paths
        self._kinds = [n.kind for n in nodes]
        self._ends: dict[tuple[str, int], tuple[NodeRef, tuple[str, int]] | None] = {}
        self._through: dict[tuple[str, int, int], _Way | None] = {}

    def at_edge(self, hex_id: str, edge: int) -> tuple[NodeRef, tuple[str, int]] | None:
        """The node and the piece of the first path joining ``edge`` to a node."""
        key = (hex_id, edge)
        try:
            return self._ends[key]
        except KeyError:
            found = _node_at_edge(self._paths, edge)
            end = self._ends[key] = None if found is None else ((hex_id, found[0]), (hex_id, found[1]))
            return end

    def through(self, hex_id: str, entry: int, exit_: int) -> _Way | None:
        """The stops, junctions and pieces passed from edge ``entry`` to edge ``exit_``."""
        key = (hex_id, entry, exit_)
        try:
            return self._through[key]
        except KeyError:
            way = _through_hex(self._paths, entry, exit_)
            found: _Way | None = None
            if way is not None:
                passed, used = way
                found = (tuple((hex_id, n) for n in passed if self._kinds[n] != "junction"),
                         tuple(junction_unit(hex_id, n) for n in passed if self._kinds[n] == "junction"),
                         tuple((hex_id, p) for p in used))
            self._through[key] = found
            return found


def _node_at_edge(paths: list[tuple[int, int]], edge: int) -> tuple[int, int] | None:
    for i, (a, b) in enumerate(paths):
        if a == edge and b >= NODE_BASE:
            return b - NODE_BASE, i
        if b == edge and a >= NODE_BASE:
            return a - NODE_BASE, i
    return None


def _through_hex(paths: list[tuple[int, int]], entry: int, exit_: int) -> tuple[list[int], list[int]] | None:
    """(nodes passed, path indexes) from edge ``entry`` to edge ``exit_`` inside one hex."""
    for i, (a, b) in enumerate(paths):
        if {a, b} == {entry, exit_}:
            return [], [i]
    for i, (a, b) in enumerate(paths):
        if entry not in (a, b):
            continue
        node = b if a == entry else a
        if node < NODE_BASE:
            continue
        for j, (c, d) in enumerate(paths):
            if j != i and node in (c, d) and exit_ in (c, d):
                return [node - NODE_BASE], [i, j]
    return None


def validate_route(game: RouteRules, corp: Corporation, train: Train, data: dict[str, Any]) -> TracedRoute:
    """Raise GameError (illegal) unless the route is legal for ``train`` on its own; return it traced.

    ``traced.stops`` lists every stop in route order, towns passed in the middle of a leg included.
    """
    traced = trace_route(game, train, data)
    board = game.board
    stops = traced.stops
    spec = train_spec(game, train)
    if len(stops) < 2:
        raise illegal("a route needs at least two stops")
    if len(set(stops)) < len(stops):
        raise illegal(f"a route may not visit {_first_repeat(stops)[0]} twice")
    units = traced.units
    if len(set(units)) < len(units):
        raise illegal(f"a route may not use the same track twice (at {_first_repeat(units)[0]})")
    if len(set(traced.pieces)) != len(traced.pieces):
        raise illegal("a route may not use the same track twice")
    hexes = board.hexes
    sym = corp.sym
    for hex_id, node in stops[1:-1]:
        hx = hexes[hex_id]
        kind = hx.tile.tdef.nodes[node].kind
        if kind == "offboard":
            raise illegal(f"a route must end at the off-board {hex_id}; it cannot run through it")
        if kind == "city" and city_blocks(hx, node, sym):
            raise illegal(f"{hex_id} is full of other companies' stations: routes cannot pass through it")
    if game.route_needs_station(corp) and not any(node_is_token(hexes[h], n, sym) for h, n in stops):
        who = "a neutral station" if sym == "CN" else f"a {sym} station"
        raise illegal(f"a route must include {who}")
    if spec.limit is not None and not spec.express:
        counted = sum(1 for h, n in stops
                      if spec.counts(hexes[h].tile.tdef.nodes[n].kind, hexes[h].optional_node))
        if counted > spec.limit:
            raise illegal(f"a {train.name} train counts at most {spec.limit} stops; this route has {counted}")
    return traced


def _first_repeat(items: list[_T]) -> _T:
    seen: set[_T] = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    raise ValueError("no item repeats")


def validate_routes(game: RouteRules, corp: Corporation, routes: Sequence[TracedRoute]) -> None:
    """Raise GameError unless the company's routes share no track (trains of one group)."""
    owner: dict[tuple[str, Unit], str] = {}
    pieces: dict[tuple[str, tuple[str, int]], str] = {}
    for traced in routes:
        group = train_spec(game, traced.train).group
        for unit in set(traced.units):
            if unit[2] == "junction":
                continue  # each route passes a junction on track of its own (RouteGraph.exclusive)
            other = owner.setdefault((group, unit), traced.train.id)
            if other != traced.train.id:
                raise illegal(f"trains {other} and {traced.train.id} may not share track at {unit[0]}")
        for piece in set(traced.pieces):
            other = pieces.setdefault((group, piece), traced.train.id)
            if other != traced.train.id:
                raise illegal(f"trains {other} and {traced.train.id} may not share track at {piece[0]}")


def stop_earnings(game: RouteRules, stops: Sequence[NodeRef], spec: TrainSpec) -> int:
    """What a train of ``spec`` earns from these stops, before bonuses."""
    colour = game.phase_colour()
    board = game.board
    return spec.earnings([(board.hexes[h].tile.tdef.nodes[n].kind, board.node_revenue(board.hexes[h], n, colour),
                           board.hexes[h].optional_node) for h, n in stops])


def route_price(game: RouteRules, route: Route, spec: TrainSpec) -> int:
    """Revenue of a route for a train of ``spec``: its earnings from the stops plus the title's bonus, times
    the train's multiplier. Routes typed by hand (``Game.route_revenue``) and found here both use it."""
    return (stop_earnings(game, route.stops, spec) + int(game.route_bonus(route))) * spec.multiplier


def route_value(game: RouteRules, stops: list[NodeRef], spec: TrainSpec = ORDINARY) -> int:
    """Revenue of a route through these stops (for a train of ``spec``), priced as the engine does."""
    return route_price(game, Route(train=None, stops=list(stops)), spec)  # type: ignore[arg-type]
