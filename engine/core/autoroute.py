"""Optimal routes for a company's trains: the maximum total revenue, proven, and route validation.

Rules (1882 §11.1 and §11.5, and the shared 18xx route rules every title starts from):

* a route visits at least two stops, one of them a city holding the company's station (CN: a neutral one);
* it visits no stop (city, town, off-board) twice and never uses a track segment twice;
* off-boards only end a route; cities full of other companies' tokens cannot be passed through (neutral
  stations never block);
* a train counts at most ``distance`` stops, except free stops (1882's fishing exit, ``hex.optional_node``);
  D trains are unlimited;
* the trains of a company never share track: a hexside (or a node-to-node path inside a hex) belongs to
  one train at most, so two paths that fork at a hex edge conflict as the rules require.

The search (see ``shared/reference/routes.md``):

1. **Graph.** The track is reduced to revenue centres joined by *links*: maximal chains of plain track
   between two nodes, each with a bitmask (a Python int) of the track units it uses and its hex chain.
2. **Candidates.** For each distinct train kind (kinds that weigh stops alike share one walk), a depth-first
   search lists every legal route once, from its lowest-numbered station outwards in two arms, deduplicated
   by track mask (equal masks visit the same stops), priced by the stop values plus route-level bonuses,
   sorted by value. A route is dropped when the route without an end stop is legal and pays as much (an
   express train's long routes mostly), and, with several trains, when even the best routes of the other
   trains cannot lift it over a greedy set.
3. **Combination.** Branch and bound over trains: candidates in value order, and two bounds on what the
   remaining trains can add: the exact optimum of those trains on their own (solved first, last train
   upwards), and each one's best candidates still compatible with the track in use. Each train's
   candidates are a bitset, with for every link the bitset of those whose track meets it, so the compatible
   ones are a big-int expression and the best of them its lowest set bit. Identical trains take candidates
   in increasing index order. A deadline makes it anytime: the best found is returned, flagged
   ``proven=False``.

The values are the engine's: ``board.node_revenue`` per stop plus ``game.route_bonus`` per candidate, the
same code that prices the routes players enter (a title may supply faster equivalent rules, see
:class:`Pricing`).

Extension points for later titles are :class:`TrainSpec` (free stop kinds for + trains and Pullmans,
unpaid stop kinds for 1828's 8E, express trains that earn their best ``limit`` of any number of stops, a
revenue multiplier for 3+D, track-sharing groups such as 1822 E trains) and :class:`Pricing` (route-level
bonuses; set-level bonuses with an optimistic bound used while searching and exact evaluation at the
leaves). :meth:`TrainSpec.earnings` prices a route's stops for the finder and for routes typed by hand
alike (``PlayRules.route_revenue``), so the two can never disagree.

Limits, none of which 1882 meets: a junction tile centre ("j") is one unit of track, so two trains may
not cross there; a node-to-node path inside one hex cannot be written as 18xx.games ``connections``.
"""

from __future__ import annotations

import itertools
import time
from bisect import bisect_left, insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .errors import illegal, malformed
from .graph import city_blocks
from .tiles import NODE_BASE

if TYPE_CHECKING:
    from .board import Board, Hex
    from .entities import Corporation, Train
    from .routes import Route


class RouteRules(Protocol):
    """What the route finder needs of a game (it never imports the game facade)."""

    board: Board

    def phase_colour(self) -> str: ...

    def route_trains(self, corp: Corporation) -> list[Train]: ...

    def has_route_bonus(self) -> bool: ...

    def route_bonus(self, route: Route) -> int: ...

    def route_needs_station(self, corp: Corporation) -> bool: ...

    def route_anchors(self, corp: Corporation) -> list[tuple[str, int]] | None: ...


NodeRef = tuple[str, int]  # (hex id, node index)
Unit = tuple[str, int, str]  # a track unit: a hexside (hex, edge, "") or a path or junction (hex, i, kind)
UNLIMITED = 10**6
CUT_SHORT = 20000  # candidates per train kind kept for the combination when the deadline cut the listing


# ---------------------------------------------------------------------------------------------- trains
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
    hook = getattr(game, "autoroute_train_spec", None)
    if callable(hook):
        spec = hook(train)
        if isinstance(spec, TrainSpec):
            return spec
    limit = None if train.distance >= 99 else int(train.distance)
    return TrainSpec(train.name, limit)


# ---------------------------------------------------------------------------------------------- graph
@dataclass(slots=True)
class Node:
    ref: NodeRef
    kind: str
    value: int
    token: bool  # holds the company's station (CN: a neutral station)
    passable: bool  # a route may run through it (not an off-board, not a blocked city)
    free: bool  # never counts against a train's range (1882 fishing exit)
    tags: frozenset[str]
    hexbit: int = 0  # its hex, where a route may include each tile only once (1862); 0 otherwise


@dataclass(slots=True)
class Link:
    """A chain of plain track between two nodes (``a`` < ``b`` by node index)."""

    a: int
    b: int
    mask: int
    hexes: tuple[str, ...]  # from a's hex to b's hex
    inner: int = 0  # the hexes between its ends, where a route may include each tile only once (1862)


@dataclass(slots=True)
class RouteGraph:
    corp: str
    nodes: list[Node]
    links: list[Link]
    adj: list[list[tuple[int, int, int]]]  # node -> (other node, link mask, link index)
    units: list[Unit]  # bit i of a mask is units[i]
    index: dict[NodeRef, int]
    # station node -> its own link (in no adjacency list): the track of a local run there, which no other
    # local run may share
    locals: dict[int, int] = field(default_factory=dict)

    def token_nodes(self) -> list[int]:
        return [i for i, n in enumerate(self.nodes) if n.token]

    def exclusive(self) -> int:
        """The units two routes of one company may not share: every hexside and path, but not a junction, which
        routes pass through on track of their own (18xx.games checks the edges each route's track uses). A route
        still passes a junction once."""
        return sum(1 << i for i, unit in enumerate(self.units) if unit[2] != "junction")


def hexside_unit(board: Board, hx: Hex, edge: int) -> Unit:
    """The key of the hexside at ``edge`` of ``hx``, the same seen from either hex."""
    other = hx.neighbors.get(edge)
    mine: Unit = (hx.id, edge, "")
    if other is None:
        return mine
    theirs: Unit = (other, (edge + 3) % 6, "")
    return min(mine, theirs)


def path_unit(hex_id: str, path: int) -> Unit:
    return (hex_id, path, "path")


def junction_unit(hex_id: str, node: int) -> Unit:
    return (hex_id, node, "junction")


def _ends(hx: Hex) -> dict[int, list[tuple[int, int]]]:
    """end -> [(path index, other end)] for the hex's laid tile."""
    out: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b) in enumerate(hx.tile.abs_paths()):
        out.setdefault(a, []).append((i, b))
        if b != a:
            out.setdefault(b, []).append((i, a))
    return out


class _Walker:
    """Follows plain track from a node to the next nodes, caching tile layouts per hex."""

    def __init__(self, game: RouteRules) -> None:
        self.board = game.board
        self.unit_bit: dict[Unit, int] = {}
        self.units: list[Unit] = []
        self._ends: dict[str, dict[int, list[tuple[int, int]]]] = {}

    def ends(self, hx: Hex) -> dict[int, list[tuple[int, int]]]:
        got = self._ends.get(hx.id)
        if got is None:
            got = self._ends[hx.id] = _ends(hx)
        return got

    def bit(self, unit: Unit) -> int:
        b = self.unit_bit.get(unit)
        if b is None:
            b = self.unit_bit[unit] = len(self.units)
            self.units.append(unit)
        return 1 << b

    def links_from(self, ref: NodeRef) -> list[tuple[NodeRef, int, tuple[str, ...]]]:
        """Every (other node, track mask, hex chain) reachable from ``ref`` over plain track."""
        hx = self.board.hexes[ref[0]]
        out: list[tuple[NodeRef, int, tuple[str, ...]]] = []
        for i, other in self.ends(hx).get(NODE_BASE + ref[1], ()):
            self._follow(hx, i, other, self.bit(path_unit(hx.id, i)) if other >= NODE_BASE else 0,
                         [hx.id], ref, out, frozenset())
        return out

    def _follow(self, hx: Hex, path: int, end: int, mask: int, chain: list[str], start: NodeRef,
                out: list[tuple[NodeRef, int, tuple[str, ...]]], junctions: frozenset[NodeRef]) -> None:
        """Continue from ``end`` of ``path`` in ``hx`` (the other end is where we came from)."""
        if end >= NODE_BASE:
            node = end - NODE_BASE
            ref = (hx.id, node)
            if hx.tile.tdef.nodes[node].kind != "junction":
                if ref != start:
                    out.append((ref, mask, tuple(chain)))
                return
            if ref in junctions:
                return
            # A junction is passed through, never stopped at; it is one unit of track.
            jmask = mask | self.bit(junction_unit(hx.id, node))
            for j, other in self.ends(hx).get(end, ()):
                if j == path:
                    continue
                extra = self.bit(path_unit(hx.id, j)) if other >= NODE_BASE else 0
                self._follow(hx, j, other, jmask | extra, chain, start, out, junctions | {ref})
            return
        side = self.bit(hexside_unit(self.board, hx, end))
        if mask & side:
            return
        nxt = self.board.neighbor(hx, end)
        if nxt is None:
            return
        back = (end + 3) % 6
        mask |= side
        chain.append(nxt.id)
        for j, other in self.ends(nxt).get(back, ()):
            if other < NODE_BASE and mask & self.bit(hexside_unit(self.board, nxt, other)):
                continue
            self._follow(nxt, j, other, mask, chain, start, out, junctions)
        chain.pop()


def node_is_token(hx: Hex, node: int, corp: str) -> bool:
    return hx.tile.holds_station(node, corp)


def build_graph(game: RouteRules, corp: Corporation) -> RouteGraph:
    """The company's reachable revenue centres and the links between them."""
    board = game.board
    colour = game.phase_colour()
    walker = _Walker(game)
    sym = corp.sym
    index: dict[NodeRef, int] = {}
    nodes: list[Node] = []

    def add(ref: NodeRef) -> int:
        got = index.get(ref)
        if got is not None:
            return got
        hx = board.hexes[ref[0]]
        ndef = hx.tile.tdef.nodes[ref[1]]
        token = node_is_token(hx, ref[1], sym) if anchors is None else ref in anchors
        blocked = ndef.kind == "city" and not token and city_blocks(hx, ref[1], sym)
        passable = ndef.kind != "offboard" and not blocked
        nodes.append(Node(ref, ndef.kind, board.node_revenue(hx, ref[1], colour), token, passable,
                          hx.optional_node, hx.tags))
        index[ref] = len(nodes) - 1
        return len(nodes) - 1

    starts: list[NodeRef] = []
    for hx in board.hexes.values():
        for node in hx.tile.tokens:
            if hx.tile.holds_station(node, sym):
                starts.append((hx.id, node))
    # A title may anchor routes elsewhere than at stations (1828's C&P: the stops its new tile reaches).
    anchors = game.route_anchors(corp)
    if anchors is not None:
        starts = list(anchors)
    links: list[Link] = []
    seen: set[tuple[int, int, int]] = set()
    stack = [add(r) for r in sorted(starts)]
    expanded: set[int] = set()
    while stack:
        i = stack.pop()
        if i in expanded:
            continue
        expanded.add(i)
        for ref, mask, chain in walker.links_from(nodes[i].ref):
            closed = board.hexes[ref[0]].passable_only_by
            if closed is not None and sym not in closed:
                continue  # the hex is closed to this company's routes altogether
            j = add(ref)
            a, b = (i, j) if i < j else (j, i)
            key = (a, b, mask)
            if key not in seen:
                seen.add(key)
                hexes = chain if a == i else tuple(reversed(chain))
                links.append(Link(a, b, mask, hexes))
            if nodes[j].passable and j not in expanded:
                stack.append(j)
    once = _tile_once(game)
    single = getattr(game, "autoroute_single_stop_hexes", None)
    if once is not None or callable(single):
        links = _mark_tiles(nodes, links, once, frozenset(single()) if callable(single) else frozenset())
    links = _drop_dominated_links(links)
    adj: list[list[tuple[int, int, int]]] = [[] for _ in nodes]
    # Neighbours in decreasing value order find good routes early (helps anytime answers).
    for li, link in enumerate(links):
        adj[link.a].append((link.b, link.mask, li))
        adj[link.b].append((link.a, link.mask, li))
    for lst in adj:
        lst.sort(key=lambda t: -nodes[t[0]].value)
    local: dict[int, int] = {}
    for i, station in enumerate(nodes):
        if station.token:
            local[i] = len(links)
            links.append(Link(i, i, walker.bit((station.ref[0], station.ref[1], "local")), (station.ref[0],)))
    return RouteGraph(sym, nodes, links, adj, walker.units, index, local)


def _tile_once(game: RouteRules) -> frozenset[str] | None:
    """The hexes exempt from a title's rule that a route includes each tile once (None: no such rule)."""
    hook = getattr(game, "autoroute_tile_once", None)
    if not callable(hook):
        return None
    got = hook()
    return None if got is None else frozenset(got)


def _mark_tiles(nodes: list[Node], links: list[Link], exempt: frozenset[str] | None,
                single: frozenset[str]) -> list[Link]:
    """Give nodes and links their hex bits; a link that passes some tile twice can never be run.

    ``exempt``: every tile but these is included once per route (None: no such rule); ``single``: hexes
    where a route stops at one node at most (1822 London).
    """
    bit: dict[str, int] = {}

    def of(hex_id: str) -> int:
        if (hex_id not in single) if exempt is None else (hex_id in exempt):
            return 0
        got = bit.get(hex_id)
        if got is None:
            got = bit[hex_id] = 1 << len(bit)
        return got

    for node in nodes:
        node.hexbit = of(node.ref[0])
    if exempt is None:
        return links
    out = []
    for link in links:
        mask = 0
        twice = False
        for hex_id in link.hexes[1:-1]:
            b = of(hex_id)
            twice = twice or bool(mask & b)
            mask |= b
        if not twice:
            link.inner = mask
            out.append(link)
    return out


def _drop_dominated_links(links: list[Link]) -> list[Link]:
    """Between the same two nodes, a link whose track contains another's is never needed."""
    by_pair: dict[tuple[int, int], list[Link]] = {}
    for link in links:
        by_pair.setdefault((link.a, link.b), []).append(link)
    out: list[Link] = []
    for group in by_pair.values():
        group.sort(key=lambda lk: bin(lk.mask).count("1"))
        kept: list[Link] = []
        for link in group:
            if not any(k.mask & link.mask == k.mask for k in kept):
                kept.append(link)
        out.extend(kept)
    return out


# ---------------------------------------------------------------------------------------------- pricing
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


def pricing_for(game: RouteRules, graph: RouteGraph) -> Pricing:
    """The title's ``autoroute_pricing(graph)`` if it has one, else the engine's ``route_bonus``."""
    hook = getattr(game, "autoroute_pricing", None)
    if callable(hook):
        got = hook(graph)
        if isinstance(got, Pricing):
            return got
    if not game.has_route_bonus():
        return Pricing()
    return engine_pricing(game)


def engine_pricing(game: RouteRules) -> Pricing:
    """Route bonuses by calling ``game.route_bonus`` for every candidate."""
    from .routes import Route

    def bonus(train: Train | None, stops: list[NodeRef]) -> int:
        return int(game.route_bonus(Route(train=train, stops=list(stops))))  # type: ignore[arg-type]

    return Pricing(route_hook=bonus)


# ---------------------------------------------------------------------------------------------- candidates
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
    def __init__(self, seconds: float | None) -> None:
        self.at = None if seconds is None else time.perf_counter() + seconds
        self.expired = False

    def check(self) -> bool:
        if self.at is not None and not self.expired and time.perf_counter() > self.at:
            self.expired = True
        return self.expired


def enumerate_candidates(graph: RouteGraph, spec: TrainSpec, pricing: Pricing,
                         deadline: Deadline | None = None,
                         train: Train | None = None) -> tuple[list[Candidate], bool]:
    """Every legal route for one kind of train, best per track mask, sorted by value (best first).

    ``train`` (one train of this kind) is handed to the pricing hook.
    Returns (candidates, complete): complete is False when the deadline cut the enumeration short.
    """
    lists, complete = enumerate_shared(graph, [spec], pricing, deadline, [train])
    return lists[0], complete


# An arm: value, counted stops, stops, track, tiles, links, end node, whether it ends at a station.
Arm = tuple[int, int, int, int, int, tuple[int, ...], int, int]
Step = tuple[int, int, int, int, int, int, int, int, bool]


# Arms listed from one station before pairing gives way to the route walk: an unlimited train (1822's E) on a
# late board has millions of arms, and listing them has no deadline, while the walk checks one.
ARM_CAP = 50_000


class _TooManyArms(Exception):
    pass


def _arms(a: int, hexbit: int, room: int, steps_from: list[list[Step]]) -> list[Arm]:
    """Every arm from station ``a``: a simple path that never meets a lower-numbered station, by value.

    Raises:
        _TooManyArms: past ``ARM_CAP`` arms.
    """
    arms: list[Arm] = [(0, 0, 0, 0, 0, (), a, 1)]
    path: list[int] = []

    def grow(i: int, val: int, counted: int, stops: int, used: int, hexes: int) -> None:
        for j, m, li, hb, hj, w, tk, vj, pj in steps_from[i]:
            if j == a or stops >> j & 1 or used & m or (tk and j < a) or hb & hexes:
                continue
            hb |= hexes
            if hj & hb:
                continue
            c = counted + w
            if c > room:
                continue
            if len(arms) >= ARM_CAP:
                raise _TooManyArms
            path.append(li)
            arms.append((val + vj, c, stops | (1 << j), used | m, (hb | hj) & ~hexbit, tuple(path), j, tk))
            if pj:
                grow(j, val + vj, c, stops | (1 << j), used | m, hb | hj)
            path.pop()

    grow(a, 0, 0, 0, 0, hexbit)
    arms.sort(key=lambda arm: -arm[0])
    return arms


class _ArmTable:
    """The arms of one station with, for each stop, link, tile and count, the bitset of the arms using it."""

    def __init__(self, arms: list[Arm], links: list[Link], room: int, through: bool, stations_only: bool) -> None:
        self.arms = arms
        self.room = room
        self.through = through
        width = (len(arms) + 7) // 8
        by_stop: dict[int, bytearray] = {}
        by_link: dict[int, bytearray] = {}
        by_tile: dict[int, bytearray] = {}
        by_count: dict[int, bytearray] = {}
        ends_ok = bytearray(width)
        self.empty = 0
        for k, (_v, c, stops, _used, tiles, path_k, _end, tk) in enumerate(arms):
            byte, bit = k >> 3, 1 << (k & 7)
            for table, mask in ((by_stop, stops), (by_tile, tiles)):
                while mask:
                    low = mask & -mask
                    table.setdefault(low, bytearray(width))[byte] |= bit
                    mask ^= low
            for li in path_k:
                by_link.setdefault(li, bytearray(width))[byte] |= bit
            by_count.setdefault(c, bytearray(width))[byte] |= bit
            if tk or not stations_only:
                ends_ok[byte] |= bit
            if not path_k:
                self.empty = 1 << k
        self.stop_sets = {b: int.from_bytes(v, "little") for b, v in by_stop.items()}
        self.tile_sets = {b: int.from_bytes(v, "little") for b, v in by_tile.items()}
        link_sets = {li: int.from_bytes(v, "little") for li, v in by_link.items()}
        self.meets: dict[int, int] = {}
        for li in link_sets:
            acc = 0
            for other, arms_using in link_sets.items():
                if links[other].mask & links[li].mask:
                    acc |= arms_using
            self.meets[li] = acc
        self.counts = sorted(by_count)
        self.upto: dict[int, int] = {}
        acc = 0
        for c in self.counts:
            acc |= int.from_bytes(by_count[c], "little")
            self.upto[c] = acc
        self.valid = int.from_bytes(ends_ok, "little")

    def partners(self, k: int) -> int:
        """The bitset of the arms that make a legal route with arm ``k``."""
        _v, c, stops, _used, tiles, path_k, _end, _tk = self.arms[k]
        fits = max((x for x in self.counts if x <= self.room - c), default=None)
        if fits is None:
            return 0
        ok = self.upto[fits] & self.valid & ~(1 << k)
        if path_k and not self.through:
            ok &= self.empty  # the station cannot be passed through: the route ends there
        conf = 0
        for table, mask in ((self.stop_sets, stops), (self.tile_sets, tiles)):
            while mask:
                low = mask & -mask
                conf |= table[low]
                mask ^= low
        for li in path_k:
            conf |= self.meets[li]
        return ok & ~conf


def _alone(graph: RouteGraph, spec: TrainSpec, pricing: Pricing, value: list[int], weight: list[int],
           steps_from: list[list[Step]]) -> list[Candidate]:
    """The routes of a train that runs alone and earns the sum of its stops: the best one, and with a
    set-level bonus every one within ``set_bound`` of it.

    A route is two *arms* from its first station (its lowest-numbered one) that share no stop, track or
    tile; every arm is listed once, and the best partner of an arm is the lowest set bit of a bitset (arms
    in value order, less those that meet it), instead of walking every route.
    """
    nodes = graph.nodes
    limit = UNLIMITED if spec.limit is None else spec.limit
    slack = pricing.set_bound
    best = -UNLIMITED
    pairs: list[tuple[int, Arm, Arm]] = []
    for a, node in enumerate(nodes):
        if not node.token or weight[a] > limit:
            continue
        room = limit - weight[a]
        table = _ArmTable(_arms(a, node.hexbit, room, steps_from), graph.links, room, node.passable,
                          spec.stations_only)
        arms = table.arms
        top = arms[0][0]
        va = value[a]
        for k in range(len(arms)):
            if not table.valid >> k & 1:
                continue
            if arms[k][0] + top + va < best - slack or (not slack and arms[k][0] + top + va <= best):
                break
            ok = table.partners(k)
            while ok:
                low = ok & -ok
                j = low.bit_length() - 1
                total = arms[k][0] + arms[j][0] + va
                if total < best - slack:
                    break
                ok ^= low
                pairs.append((total, arms[k], arms[j]))
                best = max(best, total)
                if not slack:
                    break
    found: dict[int, tuple[int, int, tuple[int, ...]]] = {}
    for total, arm1, arm2 in pairs:
        if total < best - slack or total <= 0:
            continue
        mask = arm1[3] | arm2[3]
        got = found.get(mask)
        if got is None or got[0] < total:
            found[mask] = (total, arm1[6], (*reversed(arm1[5]), *arm2[5]))
    mult = spec.multiplier
    out = [Candidate(total * mult, mask, start, path_links, spec.name)
           for mask, (total, start, path_links) in found.items()]
    out.sort(key=lambda c: -c.value)
    return out


def _dead_ends(graph: RouteGraph) -> set[int]:
    """Nodes without a station that a route from station to station can never visit: those with one
    neighbour left once such nodes are taken away (a simple route would have to turn back there)."""
    near = [{j for j, _m, _l in graph.adj[i]} for i in range(len(graph.nodes))]
    dead: set[int] = set()
    changed = True
    while changed:
        changed = False
        for i, node in enumerate(graph.nodes):
            if i not in dead and not node.token and len(near[i] - dead) <= 1:
                dead.add(i)
                changed = True
    return dead


def walk_key(spec: TrainSpec) -> tuple[frozenset[str], frozenset[str], bool]:
    """Train kinds with the same key weigh and pay stops alike, so one walk over the track serves them all."""
    return spec.free_kinds, spec.unpaid_kinds, spec.stations_only


def enumerate_shared(graph: RouteGraph, specs: Sequence[TrainSpec], pricing: Pricing,
                     deadline: Deadline | None = None, trains: Sequence[Train | None] | None = None,
                     trim: bool | None = None, alone: bool = False) -> tuple[list[list[Candidate]], bool]:
    """:func:`enumerate_candidates` for several train kinds of one :func:`walk_key`, in one walk.

    ``alone``: the train runs alone, so only routes that may beat the best found so far are wanted; a
    path is not extended when even its best possible stops (the most valuable ones not yet visited) cannot.

    The walk goes as far as the longest-running kind; each path found is priced for every kind it suits.
    With ``trim`` (the default when no title hook or set-level effect prices the routes), a route is dropped
    when the route without its first or last stop is legal and pays at least as much: that shorter route
    uses a subset of its track, so any set of routes with the longer one stays legal and pays no less with
    the shorter one instead. Express trains make most of their long routes this way redundant.
    """
    nodes = graph.nodes
    n = len(nodes)
    key = walk_key(specs[0])
    if any(walk_key(s) != key for s in specs):
        raise ValueError("enumerate_shared needs train kinds that weigh stops alike")
    trains = list(trains) if trains is not None else [None] * len(specs)
    hook = pricing.route_hook
    if trim is None:
        trim = hook is None and (pricing.set_bonus is None or pricing.set_nodes is not None)
    # Stops a set-level bonus reads are never trimmed off a route.
    keep = pricing.set_nodes or 0
    caps = [[(sum(1 << i for i, nd in enumerate(nodes) if nd.kind in kinds), most) for kinds, most in s.caps]
            for s in specs]
    limits = [UNLIMITED if s.limit is None or s.express else s.limit for s in specs]
    limit = max(limits)
    # An express train may visit any number of stops; it earns its ``limit`` best counted ones.
    tops = [s.limit if s.express and s.limit is not None else -1 for s in specs]
    ranked = any(t >= 0 for t in tops)  # only express trains read the counted stops' values
    weight = [1 if specs[0].counts(nd.kind, nd.free) else 0 for nd in nodes]
    stations_only = specs[0].stations_only
    value = [0 if nd.kind in specs[0].unpaid_kinds or (stations_only and not nd.token) else nd.value
             for nd in nodes]
    token = [1 if nd.token else 0 for nd in nodes]
    passable = [nd.passable for nd in nodes]
    hexbit = [nd.hexbit for nd in nodes]
    inner = [lk.inner for lk in graph.links]
    adj = graph.adj
    rules = [(r.groups, r.amount) for r in pricing.route_rules]
    nspec = len(specs)
    best: list[dict[int, tuple[int, int, tuple[int, ...]]]] = [{} for _ in specs]  # mask -> (value, start, links)
    # A route is walked once, from the first of its stations (lowest node index, ``anchor``): the first arm
    # runs from the anchor to the route's start, the second from the anchor to its end. The second arm's
    # first link has a higher index than the first arm's, so each route is met in one orientation only.
    arm1: list[int] = []  # links from the anchor outwards (the route's start is its far end)
    ends1: list[int] = []  # the nodes reached along arm1
    arm2: list[int] = []
    ends2: list[int] = []
    cvals: list[int] = []  # values of the counted stops on the route, in increasing order
    steps = [0]
    dl = deadline if deadline is not None and deadline.at is not None else None
    stopped = [False]
    # Per node: (other node, link mask, link index, link's inner hexes, its hex bit, weight, token, value,
    # passable), so the walk reads one tuple per step.
    dead = _dead_ends(graph) if stations_only else set()
    steps_from = [[(j, m, li, inner[li], hexbit[j], weight[j], token[j], value[j], passable[j])
                   for j, m, li in adj[i] if j not in dead] for i in range(n)]

    rule_nodes = 0
    for groups, _amount in rules:
        for g in groups:
            rule_nodes |= g

    def rule_bonus(visited: int) -> int:
        if not visited & rule_nodes:
            return 0
        return sum(amount for groups, amount in rules if all(visited & g for g in groups))

    def removable(end: int, rest_tokens: int, cut: int, visited: int, bonus: int) -> bool:
        # Whether the route without stop ``end`` is legal and pays at least as much (see ``trim``); ``cut``
        # is the best counted stop an express train leaves out (-1: none), which replaces ``end`` if it is
        # worth no more.
        if not rest_tokens or keep >> end & 1:
            return False
        x = value[end]
        if x > 0 and not (weight[end] and x <= cut):
            return False
        return not visited & rule_nodes or rule_bonus(visited & ~(1 << end)) >= bonus

    def record(anchor: int, visited: int, mask: int, val: int, counted: int, tokens: int) -> None:
        start = ends1[-1] if ends1 else anchor
        end = ends2[-1]
        bonus = rule_bonus(visited) if visited & rule_nodes else 0
        # Only an express train's unpaid stop or an end worth nothing can come off.
        longer = len(arm1) + len(arm2) > 1 and (ranked or bool(worthless & ((1 << start) | (1 << end))))
        refs: list[NodeRef] | None = None
        if stations_only and not (token[start] and token[end]):
            return
        for s in range(nspec):
            if counted > limits[s]:
                continue
            if caps[s] and any((visited & kinds).bit_count() > most for kinds, most in caps[s]):
                continue
            top = tops[s]
            over = top >= 0 and len(cvals) > top  # an express train leaves some counted stops out
            cut = cvals[-top - 1] if over else -1
            if trim and longer and (removable(end, tokens - token[end], cut, visited, bonus)
                                    or removable(start, tokens - token[start], cut, visited, bonus)):
                continue
            v = (val - sum(cvals[:-top]) if over else val) + bonus
            if hook is not None:
                if refs is None:
                    refs = [nodes[k].ref for k in route_nodes(anchor)]
                v += hook(trains[s], refs)
            got = best[s].get(mask)
            if got is None or got[0] < v:
                best[s][mask] = (v, start, (*reversed(arm1), *arm2))
                if bounding and v > floor[0]:
                    floor[0] = v

    bounding = alone and hook is None and nspec == 1 and limit < UNLIMITED and tops[0] < 0
    floor = [-UNLIMITED]
    slack = pricing.set_bound + sum(amount for _groups, amount in rules if amount > 0)
    by_value = sorted(((value[k], 1 << k) for k in range(n) if weight[k] and value[k] > 0), reverse=True)
    free_total = sum(value[k] for k in range(n) if not weight[k] and value[k] > 0)

    def hopeless(val: int, counted: int, visited: int) -> bool:
        room = limit - counted
        extra = free_total
        for v, b in by_value:
            if not room:
                break
            if not visited & b:
                extra += v
                room -= 1
        return val + extra + slack <= floor[0]

    worthless = sum(1 << k for k in range(n) if value[k] <= 0)
    # The common case (one kind, priced by its stops alone, nothing to trim) is recorded inline.
    fast = (nspec == 1 and not caps[0] and hook is None and not rules and not stations_only and tops[0] < 0
            and not (trim and any(v <= 0 for v in value)))
    best0 = best[0]

    def route_nodes(anchor: int) -> list[int]:
        return [*reversed(ends1), anchor, *ends2] if ends1 else [anchor, *ends2]

    def walk2(anchor: int, i: int, after: int, visited: int, used: int, hexes: int, val: int, counted: int,
              tokens: int) -> None:
        if dl is not None:
            steps[0] += 1
            if steps[0] & 1023 == 0 and dl.check():
                stopped[0] = True
            if stopped[0]:
                return
        for j, m, li, hb, hj, w, tk, vj, pj in steps_from[i]:
            if visited >> j & 1 or used & m or li <= after or (tk and j < anchor):
                continue
            if hb & hexes:
                continue
            hb |= hexes
            if hj & hb:
                continue
            c = counted + w
            if c > limit:
                continue
            arm2.append(li)
            ends2.append(j)
            if w and ranked:
                insort(cvals, vj)
            if fast:
                got = best0.get(used | m)
                if got is None or got[0] < val + vj:
                    best0[used | m] = (val + vj, ends1[-1] if ends1 else anchor, (*reversed(arm1), *arm2))
                    if bounding and val + vj > floor[0]:
                        floor[0] = val + vj
            else:
                record(anchor, visited | (1 << j), used | m, val + vj, c, tokens + tk)
            if pj and not (bounding and hopeless(val + vj, c, visited | (1 << j))):
                walk2(anchor, j, -1, visited | (1 << j), used | m, hb | hj, val + vj, c, tokens + tk)
            if w and ranked:
                del cvals[bisect_left(cvals, vj)]
            ends2.pop()
            arm2.pop()

    def walk1(anchor: int, i: int, visited: int, used: int, hexes: int, val: int, counted: int,
              tokens: int) -> None:
        if stopped[0]:
            return
        for j, m, li, hb, hj, w, tk, vj, pj in steps_from[i]:
            if visited >> j & 1 or used & m or (tk and j < anchor):
                continue
            if hb & hexes:
                continue
            hb |= hexes
            if hj & hb:
                continue
            c = counted + w
            if c > limit:
                continue
            arm1.append(li)
            ends1.append(j)
            if w and ranked:
                insort(cvals, vj)
            # The anchor is now inside the route: the second arm leaves it (a stations-only route starts at a
            # station).
            if bounding and hopeless(val + vj, c, visited | (1 << j)):
                pass
            elif tk or not stations_only:
                walk2(anchor, anchor, arm1[0], visited | (1 << j), used | m, hb | hj, val + vj, c, tokens + tk)
            if pj and not (bounding and hopeless(val + vj, c, visited | (1 << j))):
                walk1(anchor, j, visited | (1 << j), used | m, hb | hj, val + vj, c, tokens + tk)
            if w and ranked:
                del cvals[bisect_left(cvals, vj)]
            ends1.pop()
            arm1.pop()

    # A train alone that earns the sum of its stops pairs arms instead of walking every route.
    paired = (bounding and not caps[0] and not rules and not specs[0].local) or (
        alone and nspec == 1 and hook is None and not rules and not caps[0] and tops[0] < 0 and limit >= UNLIMITED)
    alone_cands: list[Candidate] = []
    if paired:
        try:
            alone_cands = _alone(graph, specs[0], pricing, value, weight, steps_from)
        except _TooManyArms:
            paired = False
    for s in range(n if not paired else 0):
        if not token[s] or weight[s] > limit:
            continue
        if weight[s] and ranked:
            cvals.append(value[s])
        walk2(s, s, -1, 1 << s, 0, hexbit[s], value[s], weight[s], 1)
        if passable[s]:
            walk1(s, s, 1 << s, 0, hexbit[s], value[s], weight[s], 1)
        cvals.clear()
        if stopped[0]:
            break
    out: list[list[Candidate]] = []
    keep_all = pricing.set_bonus is not None
    for s, spec in enumerate(specs):
        mult = spec.multiplier
        # A route that pays nothing is never better than running no train (unless a set-level effect pays it).
        cands = [Candidate(v * mult, m, st, links, spec.name) for m, (v, st, links) in best[s].items()
                 if keep_all or v > 0]
        if paired:
            cands = alone_cands
        if spec.local:
            cands.extend(Candidate(value[t] * mult, graph.links[li].mask, t, (li,), spec.name, True)
                         for t, li in graph.locals.items())
        cands.sort(key=lambda c: -c.value)
        out.append(cands)
    return out, not stopped[0]


# ---------------------------------------------------------------------------------------------- combination
@dataclass(slots=True)
class Solution:
    total: int
    proven: bool
    routes: list[tuple[Train, Candidate]]  # trains that run, with their routes
    graph: RouteGraph
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    def stops(self, cand: Candidate) -> list[NodeRef]:
        return [self.graph.nodes[k].ref for k in cand.nodes(self.graph)]

    def connections(self, cand: Candidate) -> list[list[str]]:
        """The route as 18xx.games ``connections``: one hex chain per leg, from stop to stop."""
        if cand.local:
            return [["local", self.graph.nodes[cand.start].ref[0]]]
        out: list[list[str]] = []
        cur = cand.start
        for li in cand.links:
            link = self.graph.links[li]
            if link.a == cur:
                out.append(list(link.hexes))
                cur = link.b
            else:
                out.append(list(reversed(link.hexes)))
                cur = link.a
        return out

    def action_routes(self) -> list[dict[str, Any]]:
        """The ``routes`` of a run_routes action (the engine prices them itself)."""
        out = []
        for train, cand in self.routes:
            nodes = [f"{h}-{n}" for h, n in self.stops(cand)]
            out.append({"train": train.id, "connections": self.connections(cand), "nodes": nodes})
        return out

    def describe(self) -> list[dict[str, Any]]:
        return [{"train": t.id, "revenue": c.value, "stops": ["-".join(map(str, s)) for s in self.stops(c)],
                 "connections": self.connections(c)} for t, c in self.routes]


class _Combiner:
    """Branch and bound over trains with exact suffix bounds.

    Each train's candidates are a bitset in value order (bit k: candidate k), and for every link the set of
    the train's candidates whose track meets that link's is precomputed, so the candidates still compatible
    with the routes chosen so far are one big-int expression and the best of them is the lowest set bit.
    """

    def __init__(self, lists: list[list[Candidate]], specs: list[TrainSpec], deadline: Deadline,
                 set_bound: int = 0, set_bonus: Callable[[list[Candidate]], int] | None = None,
                 links: Sequence[Link] = (), exclusive: int = -1) -> None:
        self.exclusive = exclusive
        self.vals = [[c.value for c in lst] for lst in lists]
        self.cand_links = [[c.links for c in lst] for lst in lists]
        self.cands = lists
        self.n = len(lists)
        self.groups = sorted({s.group for s in specs})
        self.group_of = [self.groups.index(s.group) for s in specs]
        self.same_as_prev = [i > 0 and specs[i] == specs[i - 1] and lists[i] is lists[i - 1]
                             for i in range(self.n)]
        self.full = [(1 << len(lst)) - 1 for lst in lists]
        self.link_list = list(links)
        self.deadline = deadline
        self.set_bound = set_bound
        self.set_bonus = set_bonus
        self.nodes_visited = 0
        self.timed_out = False
        self.meets: list[list[int]] = []
        if self.n > 1:
            cache: dict[int, list[int]] = {}
            for lst in lists:
                got = cache.get(id(lst))
                if got is None:
                    got = cache[id(lst)] = self._meets(lst)
                self.meets.append(got)

    def _meets(self, lst: list[Candidate]) -> list[int]:
        """For each link, the bitset of the candidates whose track shares a unit with it."""
        links = self.link_list
        nl = len(links)
        size = (len(lst) + 7) // 8
        uses = [bytearray(size) for _ in range(nl)]
        for k, cand in enumerate(lst):
            byte = k >> 3
            bit = 1 << (k & 7)
            for li in cand.links:
                uses[li][byte] |= bit
        sets = [int.from_bytes(u, "little") for u in uses]
        out = []
        for a in links:
            acc = 0
            mine = a.mask & self.exclusive
            for li, b in enumerate(links):
                if mine & b.mask:
                    acc |= sets[li]
            out.append(acc)
        return out

    def solve(self) -> tuple[int, list[int]]:
        n = self.n
        bound = [0] * (n + 1)
        best_choice: list[int] = [-1] * n
        best = 0
        for first in range(n - 1, -1, -1):
            value, choice = self._search(first, bound)
            bound[first] = value
            if first == 0:
                best, best_choice = value, choice
        return best, best_choice

    def _search(self, first: int, bound: list[int]) -> tuple[int, list[int]]:
        n = self.n
        vals = self.vals
        cand_links = self.cand_links
        meets = self.meets
        full = self.full
        same = self.same_as_prev
        group_of = self.group_of
        chosen = [-1] * n
        best_choice = [-1] * n
        state = {"best": -1}
        # Greedy incumbent: each train takes its best candidate compatible with those taken before.
        conf = [0] * n
        total = 0
        prev = -1
        for i in range(first, n):
            lo = prev + 1 if same[i] and i > first else 0
            ok = full[i] & ~conf[i]
            ok = ok >> lo << lo
            pick = -1
            if ok:
                pick = (ok & -ok).bit_length() - 1
                total += vals[i][pick]
                self._take(i, pick, conf)
            chosen[i] = pick
            prev = pick if pick >= 0 else len(vals[i])
        state["best"] = self._exact(chosen, first, total)
        best_choice[:] = chosen
        conf = [0] * n
        extra = self.set_bound
        deadline = self.deadline
        counter = [0]
        leaf_shortcut = self.set_bonus is None
        # Trains after i in i's group: their compatible sets shrink when i takes a route.
        later = [[j for j in range(i + 1, n) if group_of[j] == group_of[i]] for i in range(n)]
        tail = [0] * n  # identical trains right after train i
        for i in range(n - 2, -1, -1):
            tail[i] = tail[i + 1] + 1 if same[i + 1] else 0

        def rest_bound(i: int, lo: int) -> int:
            # Each remaining train takes its best candidates compatible with the track already used
            # (identical trains: the best r distinct ones), ignoring conflicts among themselves.
            total = 0
            j = i
            while j < n:
                r = 1
                while j + r < n and same[j + r]:
                    r += 1
                ok = full[j] & ~conf[j]
                if j == i and same[j] and j > first:
                    ok = ok >> lo << lo
                vj = vals[j]
                while r and ok:
                    low = ok & -ok
                    total += vj[low.bit_length() - 1]
                    ok ^= low
                    r -= 1
                j = j + 1
                while j < n and same[j]:
                    j += 1
            return total

        def rec(i: int, acc: int, lo: int) -> None:
            if i == n:
                val = self._exact(chosen, first, acc)
                if val > state["best"]:
                    state["best"] = val
                    best_choice[:] = chosen
                return
            counter[0] += 1
            if deadline.expired or (counter[0] & 63 == 0 and deadline.check()):
                self.timed_out = True
                return
            if i + 1 < n and acc + extra + rest_bound(i, lo) <= state["best"]:
                return
            vi = vals[i]
            nxt = bound[i + 1] + extra
            start = lo if same[i] and i > first else 0
            ok = full[i] & ~conf[i]
            ok = ok >> start << start
            follows = i + 1 < n and same[i + 1]
            if i + 1 == n and leaf_shortcut:
                # The last train: its best compatible candidate is all it can do.
                if ok:
                    k = (ok & -ok).bit_length() - 1
                    if acc + vi[k] > state["best"]:
                        chosen[i] = k
                        state["best"] = acc + vi[k]
                        best_choice[:] = chosen
                        chosen[i] = -1
                elif acc > state["best"]:
                    state["best"] = acc
                    best_choice[:] = chosen
                return
            after = later[i]
            links_i = cand_links[i]
            # Identical trains after this one take later candidates, worth no more than this one's.
            twins = tail[i]
            beyond = bound[i + 1 + twins] + extra
            while ok:
                low = ok & -ok
                k = low.bit_length() - 1
                v = vi[k]
                if acc + v + min(nxt, v * twins + beyond) <= state["best"]:
                    break
                ok ^= low
                chosen[i] = k
                saved = [conf[j] for j in after]
                for j in after:
                    mj = meets[j]
                    x = conf[j]
                    for li in links_i[k]:
                        x |= mj[li]
                    conf[j] = x
                rec(i + 1, acc + v, k + 1 if follows else 0)
                for j, x in zip(after, saved, strict=True):
                    conf[j] = x
            # This train runs nothing (then neither do identical trains after it).
            if acc + nxt > state["best"]:
                chosen[i] = -1
                rec(i + 1, acc, len(vi))
            chosen[i] = -1

        rec(first, 0, 0)
        self.nodes_visited += counter[0]
        return state["best"], list(best_choice)

    def _take(self, i: int, k: int, conf: list[int]) -> None:
        g = self.group_of[i]
        for j in range(i + 1, self.n):
            if self.group_of[j] == g:
                mj = self.meets[j]
                for li in self.cand_links[i][k]:
                    conf[j] |= mj[li]

    def _exact(self, chosen: list[int], first: int, acc: int) -> int:
        if self.set_bonus is None:
            return acc
        picked = [self.cands[i][k] for i, k in enumerate(chosen) if i >= first and k >= 0]
        return acc + self.set_bonus(picked)


def solve(game: RouteRules, corp: Corporation, trains: Sequence[Train] | None = None,
          time_budget: float | None = 5.0) -> Solution:
    """The routes with the maximum total revenue for ``corp``'s trains (all of them by default).

    ``proven`` is False only when ``time_budget`` seconds ran out first; the best found is returned.
    """
    started = time.perf_counter()
    deadline = Deadline(time_budget)
    run = list(game.route_trains(corp) if trains is None else trains)
    graph = build_graph(game, corp)
    pricing = pricing_for(game, graph)
    sol = _solve(game, graph, run, pricing, deadline, started)
    if pricing.route_hook is None and pricing.set_bonus is None and pricing.verify and not _engine_agrees(game, sol):
        # The title's fast bonus rules disagree with its route_bonus: the engine's word is final.
        sol = _solve(game, graph, run, engine_pricing(game), deadline, started)
    sol.seconds = time.perf_counter() - started
    return sol


def _engine_agrees(game: RouteRules, sol: Solution) -> bool:
    return all(route_value(game, sol.stops(cand), train_spec(game, train)) == cand.value for train, cand in sol.routes)


def _drop_hopeless(by_spec: dict[TrainSpec, list[Candidate]], specs: list[TrainSpec],
                   set_bound: int = 0, exclusive: int = -1) -> dict[TrainSpec, list[Candidate]]:
    """Each kind's candidates without those that cannot be part of a better set than a greedy one.

    A greedy set (each train in ``specs`` order takes its best route free of the track taken before) is worth
    ``low``. A route worth ``v`` for a train is part of sets worth at most ``v`` plus the best route of every
    other train and the set-level allowance, so below ``low`` minus those it is hopeless. The greedy routes
    themselves stay.
    """
    tops = {spec: (cands[0].value if cands else 0) for spec, cands in by_spec.items()}
    used: dict[str, int] = {}
    taken: dict[TrainSpec, int] = {}
    low = 0
    for spec in specs:
        mask = used.get(spec.group, 0)
        cands = by_spec[spec]
        for k in range(taken.get(spec, 0), len(cands)):
            cand = cands[k]
            if not cand.mask & mask:
                used[spec.group] = mask | (cand.mask & exclusive)
                low += cand.value
                taken[spec] = k + 1
                break
    everything = sum(tops[spec] for spec in specs)
    out = {}
    for spec, cands in by_spec.items():
        floor = low - (everything - tops[spec]) - set_bound
        keep = len(cands)
        while keep and cands[keep - 1].value < floor:
            keep -= 1
        out[spec] = cands[:keep]
    return out


def _solve(game: RouteRules, graph: RouteGraph, run: list[Train], pricing: Pricing, deadline: Deadline,
           started: float) -> Solution:
    t_graph = time.perf_counter() - started
    specs = [train_spec(game, t) for t in run]
    by_spec: dict[TrainSpec, list[Candidate]] = {}
    complete = True
    kinds: dict[tuple[frozenset[str], frozenset[str], bool], list[TrainSpec]] = {}
    for spec in specs:
        same = kinds.setdefault(walk_key(spec), [])
        if spec not in same:
            same.append(spec)
    for same in kinds.values():
        lists, done = enumerate_shared(graph, same, pricing, deadline, [run[specs.index(s)] for s in same],
                                       alone=len(run) == 1)
        by_spec.update(zip(same, lists, strict=True))
        complete = complete and done
    t_enum = time.perf_counter() - started - t_graph
    # Most valuable trains first: they decide most. Identical trains sit next to each other.
    order = sorted(range(len(run)), key=lambda i: (-(by_spec[specs[i]][0].value if by_spec[specs[i]] else 0),
                                                    specs[i].name, run[i].id))
    if len(run) > 1:
        by_spec = _drop_hopeless(by_spec, [specs[i] for i in order], pricing.set_bound, graph.exclusive())
    if not complete:
        # Out of time: the answer is not proven anyway; the combination gets the best routes listed so far
        # only, so that it ends soon after the deadline.
        by_spec = {spec: cands[:CUT_SHORT] for spec, cands in by_spec.items()}
    lists = [by_spec[specs[i]] for i in order]
    combiner = _Combiner(lists, [specs[i] for i in order], deadline, pricing.set_bound, pricing.set_bonus,
                         graph.links, graph.exclusive())
    total, choice = combiner.solve() if run else (0, [])
    routes = [(run[order[pos]], lists[pos][k]) for pos, k in enumerate(choice) if k >= 0]
    routes.sort(key=lambda r: run.index(r[0]))
    stats = {"nodes": len(graph.nodes), "links": len(graph.links), "units": len(graph.units),
             "candidates": {s.name: len(c) for s, c in by_spec.items()}, "bb_nodes": combiner.nodes_visited,
             "graph_s": round(t_graph, 4), "enum_s": round(t_enum, 4)}
    return Solution(total, complete and not combiner.timed_out, routes, graph,
                    time.perf_counter() - started, stats)


# ---------------------------------------------------------------------------------------------- validation
@dataclass(slots=True)
class TracedRoute:
    """A route as entered, followed over the track: every node visited in order and every unit used."""

    train: Train
    stops: list[NodeRef]  # every revenue centre visited, in route order (towns passed mid-chain included)
    units: list[Unit]  # hexsides and node-to-node paths, in order
    pieces: list[tuple[str, int]]  # (hex, path index)


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
    hexes = [board[h] for h in chain]
    outs: list[int] = []
    for a, b in itertools.pairwise(hexes):
        edge = next((e for e, n in a.neighbors.items() if n == b.id), None)
        if edge is None:
            raise illegal(f"{a.id} and {b.id} are not neighbours")
        if board.neighbor(a, edge) is None:
            raise illegal(f"track cannot cross between {a.id} and {b.id}")
        outs.append(edge)
    nodes: list[NodeRef] = []
    units: list[Unit] = []
    pieces: list[tuple[str, int]] = []
    text = "-".join(chain)
    first = hexes[0]
    found = _node_at_edge(first, outs[0])
    if found is None:
        raise illegal(f"there is no track along {text}")
    nodes.append((first.id, found[0]))
    pieces.append((first.id, found[1]))
    for k in range(1, len(hexes)):
        units.append(hexside_unit(board, hexes[k - 1], outs[k - 1]))
        hx = hexes[k]
        entry = (outs[k - 1] + 3) % 6
        if k == len(hexes) - 1:
            found = _node_at_edge(hx, entry)
            if found is None:
                raise illegal(f"there is no track along {text}")
            nodes.append((hx.id, found[0]))
            pieces.append((hx.id, found[1]))
            break
        through = _through_hex(hx, entry, outs[k])
        if through is None:
            raise illegal(f"there is no track along {text}")
        passed, used = through
        for node in passed:
            if hx.tile.tdef.nodes[node].kind != "junction":
                nodes.append((hx.id, node))
            else:
                units.append(junction_unit(hx.id, node))
        pieces.extend((hx.id, p) for p in used)
    return nodes, units, pieces


def _node_at_edge(hx: Hex, edge: int) -> tuple[int, int] | None:
    for i, (a, b) in enumerate(hx.tile.abs_paths()):
        if a == edge and b >= NODE_BASE:
            return b - NODE_BASE, i
        if b == edge and a >= NODE_BASE:
            return a - NODE_BASE, i
    return None


def _through_hex(hx: Hex, entry: int, exit_: int) -> tuple[list[int], list[int]] | None:
    """(nodes passed, path indexes) from edge ``entry`` to edge ``exit_`` inside one hex."""
    paths = hx.tile.abs_paths()
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
    seen: set[NodeRef] = set()
    for stop in stops:
        if stop in seen:
            raise illegal(f"a route may not visit {stop[0]} twice")
        seen.add(stop)
    seen_units: set[Unit] = set()
    for unit in traced.units:
        if unit in seen_units:
            raise illegal(f"a route may not use the same track twice (at {unit[0]})")
        seen_units.add(unit)
    if len(set(traced.pieces)) != len(traced.pieces):
        raise illegal("a route may not use the same track twice")
    for k, (hex_id, node) in enumerate(stops):
        hx = board.hexes[hex_id]
        kind = hx.tile.tdef.nodes[node].kind
        if 0 < k < len(stops) - 1:
            if kind == "offboard":
                raise illegal(f"a route must end at the off-board {hex_id}; it cannot run through it")
            if kind == "city" and city_blocks(hx, node, corp.sym):
                raise illegal(f"{hex_id} is full of other companies' stations: routes cannot pass through it")
    if game.route_needs_station(corp) and not any(node_is_token(board.hexes[h], n, corp.sym) for h, n in stops):
        who = "a neutral station" if corp.sym == "CN" else f"a {corp.sym} station"
        raise illegal(f"a route must include {who}")
    if spec.limit is not None and not spec.express:
        counted = sum(1 for h, n in stops
                      if spec.counts(board.hexes[h].tile.tdef.nodes[n].kind, board.hexes[h].optional_node))
        if counted > spec.limit:
            raise illegal(f"a {train.name} train counts at most {spec.limit} stops; this route has {counted}")
    return traced


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
    the train's multiplier. Routes typed by hand (``PlayRules.route_revenue``) and found here both use it."""
    return (stop_earnings(game, route.stops, spec) + int(game.route_bonus(route))) * spec.multiplier


def route_value(game: RouteRules, stops: list[NodeRef], spec: TrainSpec = ORDINARY) -> int:
    """Revenue of a route through these stops (for a train of ``spec``), priced as the engine does."""
    from .routes import Route

    return route_price(game, Route(train=None, stops=list(stops)), spec)  # type: ignore[arg-type]


def best_routes_for(game: RouteRules, corp: Corporation, time_budget: float | None = 2.0) -> list[dict[str, Any]]:
    """The optimal routes for the company's trains as run_routes ``routes`` data (the bot's ``run auto``)."""
    return solve(game, corp, time_budget=time_budget).action_routes()
