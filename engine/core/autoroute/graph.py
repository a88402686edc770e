"""The track reduced to revenue centres joined by links (chains of plain track), for one company."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..graph import city_blocks
from ..tiles import NODE_BASE
from .trains import NodeRef, RouteRules, Unit

if TYPE_CHECKING:
    from ..board import Board, Hex
    from ..entities import Corporation


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
    links = _mark_tiles(nodes, links, once, frozenset(game.autoroute_single_stop_hexes()))
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
    got = game.autoroute_tile_once()
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
