"""A company's track network: what its station tokens can reach.

Used for tile-lay connectivity, token placement and whether any route exists at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .board import Board, Hex
from .tiles import NODE_BASE, TileLayout

NodeRef = tuple[str, int]  # (hex id, node index)


@dataclass(slots=True)
class TokenWalk:
    """What the walk from one station found. Walks from a company's stations share nothing but the set of its
    stations (each stops at the others), so a network is the union of its walks, and a walk the board changed
    nowhere near (``may_change``) stands as it is."""

    start: NodeRef
    nodes: set[NodeRef] = field(default_factory=set)
    hex_edges: dict[str, set[int]] = field(default_factory=dict)
    walked: set[str] = field(default_factory=set)  # hexes whose track the walk went along
    route: bool = False  # it met another of the company's stations

    def may_change(self, hx: Hex) -> bool:
        """Whether a new tile or station in ``hx`` may change this walk. A walk that did not start in ``hx`` nor go
        along track of it met the hex only where it looked across a side into it (``hex_edges``) and found no
        track there to enter by; if the tile now on ``hx`` has no track at any of those sides either, the walk
        would go exactly as before (it never read the hex's stations)."""
        hex_id = hx.id
        if hex_id == self.start[0] or hex_id in self.walked:
            return True
        sides = self.hex_edges.get(hex_id)
        if not sides:
            return False
        at_end = hx.tile.layout().at_end
        return any(e in at_end for e in sides)


@dataclass(slots=True)
class Network:
    token_nodes: set[NodeRef] = field(default_factory=set)
    nodes: set[NodeRef] = field(default_factory=set)  # reachable revenue centres and junctions
    hex_edges: dict[str, set[int]] = field(default_factory=dict)  # hex -> edges track can leave by
    walks: dict[NodeRef, TokenWalk] = field(default_factory=dict)  # by station
    # Some walks were dropped after a change to the board (play_track.TrackPart.hex_changed): the network must be built
    # again before it is read, walking again only from the stations whose walks are missing.
    stale: bool = False
    # Stations whose walks are not done yet (``company_network(lazy=True)``): until ``complete`` walks them,
    # nodes and hex_edges hold part of the network, so a node or side found there is in the network, but one not
    # found may still be. The route flags walk them, one at a time, while the part known shows no route.
    missing: list[NodeRef] = field(default_factory=list)
    walker: tuple[Board, str, frozenset[NodeRef]] | None = None  # the board, company and optional stops
    # Walks of missing stations stopped part way (``node_wanted``, ``sides_allow``): what they found is in the
    # network; a change they may not stand (``TokenWalk.may_change``) makes the network stale.
    partial: dict[NodeRef, TokenWalk] = field(default_factory=dict)
    route_seen: bool = False  # the walks joined show a route (see route_possible)
    route_seen_with_optional: bool = False

    @property
    def route_possible(self) -> bool:
        """Two revenue stops are joined by track, one of them a station."""
        if not self.route_seen and self.missing:
            self._seek_route(optional=False)
        return self.route_seen

    @property
    def route_with_optional(self) -> bool:
        """The same as ``route_possible``, counting optional stops (a fishing exit)."""
        if not self.route_seen_with_optional and self.missing:
            self._seek_route(optional=True)
        return self.route_seen_with_optional

    def _seek_route(self, *, optional: bool) -> None:
        """Walk the missing stations until one meets a stop that makes a route (``absorb``), or none is left."""
        assert self.walker is not None
        board, _, optional_stops = self.walker
        token_nodes = self.token_nodes

        def watch(walk: TokenWalk) -> Callable[[], None]:
            start = walk.start

            def stop(ref: NodeRef) -> bool:
                if ref in token_nodes:
                    return ref != start
                if board.hexes[ref[0]].tile.tdef.nodes[ref[1]].kind == "junction":
                    return False
                return optional or ref not in optional_stops
            walk.nodes = watched = _Watched(stop, whole=False)

            def unwatch() -> None:
                walk.nodes = set(watched)
            return unwatch
        self._walk_watched(watch)

    def complete(self) -> None:
        """Walk from the stations left out (``missing``), making this the whole network."""
        self.complete_until(lambda _: False)

    def complete_until(self, found: Callable[[Network], bool]) -> bool:
        """Walk from the stations left out one at a time until what this network holds is ``found`` (True), or
        none is left (False): the walks a question needs no more wait until one does, and a lay drops some of
        them anyway."""
        if found(self):
            return True
        while self.missing:
            assert self.walker is not None
            board, corp, _ = self.walker
            ref = self.missing.pop(0)
            walk = TokenWalk(ref)
            _Walk(board, corp, self.token_nodes, walk).node(ref, False)
            self.join(walk)
            if found(self):
                return True
        return False

    def sides_allow(self, hex_id: str, allowed: Callable[[set[int]], bool]) -> bool:
        """Whether the sides of ``hex_id`` that the network reaches are ``allowed`` (a test that more sides can
        only turn from no to yes). The missing stations are walked one at a time, each walk watched as it
        reaches the hex and stopped once the sides known and its own are allowed; such a walk is not kept (its
        station stays missing): it reaches the hex by a side with track, so a tile laid there drops it anyway."""
        def enough(sides: set[int]) -> bool:
            return allowed(self.hex_edges.get(hex_id, set()) | sides)

        if enough(set()):
            return True

        def watch(walk: TokenWalk) -> Callable[[], None]:
            walk.hex_edges[hex_id] = watched = _Watched(enough, whole=True)

            def unwatch() -> None:
                if watched:
                    walk.hex_edges[hex_id] = set(watched)
                else:
                    del walk.hex_edges[hex_id]  # never reached: no side to note
            return unwatch
        return self._walk_watched(watch)

    def node_wanted(self, wanted: Callable[[NodeRef], bool]) -> bool:
        """Whether a node the network reaches is ``wanted``, walking the missing stations one at a time and
        stopping a walk at the first wanted node it reaches (that walk is not kept: its station stays missing)."""
        if any(wanted(ref) for ref in self.nodes):
            return True

        def watch(walk: TokenWalk) -> Callable[[], None]:
            walk.nodes = watched = _Watched(wanted, whole=False)

            def unwatch() -> None:
                walk.nodes = set(watched)
            return unwatch
        return self._walk_watched(watch)

    def _walk_watched(self, watch: Callable[[TokenWalk], Callable[[], None]]) -> bool:
        while self.missing:
            assert self.walker is not None
            board, corp, _ = self.walker
            ref = self.missing[0]
            walk = TokenWalk(ref)
            unwatch = watch(walk)
            try:
                _Walk(board, corp, self.token_nodes, walk).node(ref, False)
            except _Found:
                unwatch()
                self.partial[ref] = walk
                self.absorb(walk)
                return True
            unwatch()
            del self.missing[0]
            self.join(walk)
        return False

    def join(self, walk: TokenWalk) -> None:
        self.walks[walk.start] = walk
        self.partial.pop(walk.start, None)
        self.absorb(walk)

    def absorb(self, walk: TokenWalk) -> None:
        """Add what a walk found (all of it, or the part a stopped walk did) to the network."""
        self.nodes |= walk.nodes
        hex_edges = self.hex_edges
        for hex_id, sides in walk.hex_edges.items():
            here = hex_edges.get(hex_id)
            if here is None:
                hex_edges[hex_id] = set(sides)
            else:
                here |= sides
        if self.route_seen:
            return
        if walk.route:
            # Track between two of its own stations is a route (rules 11.5: two cities).
            self.route_seen = self.route_seen_with_optional = True
            return
        # A revenue stop reached besides the stations makes a route with one of them.
        assert self.walker is not None
        board, _, optional_stops = self.walker
        token_nodes = self.token_nodes
        for ref in walk.nodes:
            if ref in token_nodes:
                continue
            if board.hexes[ref[0]].tile.tdef.nodes[ref[1]].kind != "junction":
                self.route_seen_with_optional = True
                if ref not in optional_stops:
                    self.route_seen = True
                    return


class _Found(Exception):
    """A watched walk found what it was watched for (``Network.sides_allow``, ``Network.node_wanted``)."""


class _Watched(set[Any]):
    """A set of a walk under watch: each new member is tested (``whole``: the set as it now is; else the member),
    and a walk whose set passes stops at once (``_Found``)."""

    def __init__(self, test: Callable[[Any], bool], *, whole: bool) -> None:
        super().__init__()
        self.test = test
        self.whole = whole

    def add(self, item: Any) -> None:
        if item in self:
            return
        super().add(item)
        if self.test(self if self.whole else item):
            raise _Found


def city_blocks(hx: Hex, node: int, corp: str) -> bool:
    """A city whose every slot holds another company's token cannot be passed through, nor one its hex closes to
    the company (``Hex.passable_only_by``)."""
    if hx.passable_only_by is not None and corp not in hx.passable_only_by:
        return True
    return hx.tile.blocks(node, corp)


def company_network(board: Board, corp: str, *, token_owner: str | None = None,
                    optional_stops: frozenset[NodeRef] = frozenset(),
                    starts: frozenset[NodeRef] | None = None, stale: Network | None = None,
                    lazy: bool = False) -> Network:
    """Walk the track from every city holding ``corp``'s token (or a token owned by ``token_owner``), or only
    from ``starts`` when given (1822's destination check walks from the home station alone). With ``stale``, an
    earlier network of the same company whose remaining walks still hold: they are kept when the company's
    stations are the same, and only the missing ones are walked. ``lazy`` leaves the missing ones to walk when
    asked (``Network.missing``): most questions asked of a network are answered by the walks kept."""
    owner = token_owner or corp
    net = Network()
    token_nodes = net.token_nodes
    if starts is not None:
        token_nodes.update(starts)
    for hx in board.hexes.values() if starts is None else ():
        tile = hx.tile
        if tile.tokens:  # most hexes have no city
            for node, slots in tile.tokens.items():
                if owner in slots and tile.holds_station(node, owner):
                    token_nodes.add((hx.id, node))
    kept = stale.walks if stale is not None and stale.token_nodes == token_nodes else {}
    nodes = net.nodes
    hex_edges = net.hex_edges
    for ref in token_nodes:
        hx = board.hexes[ref[0]]
        nodes.add(ref)
        # A tokened hex counts as connected on every side that track may leave it by.
        hex_edges.setdefault(hx.id, set()).update(e for e in hx.neighbors if e not in hx.sealed)
    net.walker = (board, corp, optional_stops)
    missing = net.missing
    for ref in sorted(token_nodes):
        walk = kept.get(ref)
        if walk is None:
            if lazy:
                missing.append(ref)
                continue
            walk = TokenWalk(ref)
            _Walk(board, corp, token_nodes, walk).node(ref, False)
        net.join(walk)
    return net


def reaches(net: Network, hex_id: str) -> bool:
    """Whether the walk behind ``net`` entered ``hex_id`` or reached one of its sides."""
    return hex_id in net.hex_edges or any(h == hex_id for h, _ in net.nodes)


PathRef = tuple[str, int]  # (hex id, path index)


class _Walk:
    """One token's walk, the way 18xx.games walks it (its Node#walk and Path#walk).

    A walk that enters a hex by an edge goes on along a path of that hex and never back out through the
    edge it came in by, and no branch leaves a hex twice through the same side: a train cannot reverse
    (rule 11.1), so track only reachable by turning back does not connect. A path is walked once per
    token unless it was reached through a converging exit (two paths of the tile meeting at one side),
    where 18xx.games lets it be walked again from another direction; matching that keeps the set of
    connected hexes the same as the reference engine's.
    """

    def __init__(self, board: Board, corp: str, token_nodes: set[NodeRef], found: TokenWalk) -> None:
        self.board = board
        self.corp = corp
        self.token_nodes = token_nodes
        self.net = found
        self.start = found.start
        self.visited_nodes = token_nodes - {found.start}
        self.visited_paths: set[PathRef] = set()
        self.counter: dict[object, int] = {}  # exits (hex, edge) and junctions in use on this branch

    def node(self, ref: NodeRef, converging: bool) -> None:
        if ref in self.visited_nodes:
            return
        self.visited_nodes.add(ref)
        hx = self.board.hexes[ref[0]]
        layout = hx.tile.layout()
        for i in layout.leaves[ref[1]]:
            self.path(hx, layout, i, ref, converging, None, None, converging)
        if converging:
            self.visited_nodes.discard(ref)

    def path(self, hx: Hex, layout: TileLayout, i: int, from_node: NodeRef, node_converging: bool, skip: int | None,
             jskip: NodeRef | None, converging: bool) -> None:
        # The innermost step of every network walk: plain loops, locals and positional calls throughout; the
        # caller passes the tile's layout and Board.neighbor is inlined.
        hex_id = hx.id
        key = (hex_id, i)
        visited_paths = self.visited_paths
        if key in visited_paths:
            return
        walk = layout.walks[i]
        counter = self.counter
        edges = walk.edges
        for e in edges:
            if counter.get((hex_id, e), 0):
                return
        # A junction's use is counted under (hex, NODE_BASE + node), apart from the hex's exits (hex, edge).
        junction_key: tuple[str, int] | None = None
        if walk.junction >= 0:
            junction_key = (hex_id, NODE_BASE + walk.junction)
            if counter.get(junction_key, 0) > 1:
                return
            counter[junction_key] = counter.get(junction_key, 0) + 1
        visited_paths.add(key)
        net = self.net
        net.walked.add(hex_id)
        if walk.nodes:
            net_nodes = net.nodes
            token_nodes = self.token_nodes
            for n in walk.nodes:
                ref = (hex_id, n)
                if ref in token_nodes and ref != self.start:
                    net.route = True  # before the node is added: a watched walk may stop there
                net_nodes.add(ref)
            for n, city in walk.stops:
                ref = (hex_id, n)
                if ref == from_node or (city and city_blocks(hx, n, self.corp)):
                    continue
                self.node(ref, node_converging or converging)
        if junction_key is not None:
            junction = (hex_id, walk.junction)
            if junction != jskip:
                for j in layout.at_end.get(junction_key[1], ()):
                    self.path(hx, layout, j, from_node, node_converging, None, junction, converging)
        if edges:
            # The walk only adds to hex_edges, never reads them: each side is noted as the walk looks across it.
            hex_edges = net.hex_edges
            here = hex_edges.get(hex_id)
            if here is None:
                here = hex_edges[hex_id] = set()
            neighbors = hx.neighbors
            hexes = self.board.hexes
            borders = hx.borders
            for e, back, converging_exit in walk.exits:
                here.add(e)
                other = neighbors.get(e)
                if other is None:
                    continue
                there = hex_edges.get(other)
                if there is None:
                    there = hex_edges[other] = set()
                there.add(back)
                if e == skip:
                    continue
                if borders:
                    border = borders.get(e)
                    if border is not None and border.kind == "impassable":
                        continue  # as Board.neighbor
                nxt = hexes[other]
                tile = nxt.tile
                # Tile.layout() inlined: its cached layout, unless the tile was turned since.
                nxt_layout = tile._layout
                if nxt_layout is None or nxt_layout.rotation != tile.rotation:
                    nxt_layout = tile.layout()
                nxt_paths = nxt_layout.at_end.get(back)
                if nxt_paths is None:
                    continue
                exit_key = (hex_id, e)
                counter[exit_key] = counter.get(exit_key, 0) + 1
                onward = converging or converging_exit
                for j in nxt_paths:
                    if (other, j) not in visited_paths:
                        self.path(nxt, nxt_layout, j, from_node, node_converging, back, None, onward)
                counter[exit_key] -= 1
        if converging:
            visited_paths.discard(key)
        if junction_key is not None:
            counter[junction_key] -= 1
