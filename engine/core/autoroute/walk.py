"""Every legal route of a company's train kinds, walked over the route graph (the candidates)."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .candidates import Candidate, Deadline, Pricing
from .graph import RouteGraph
from .pairing import _alone, _TooManyArms
from .trains import UNLIMITED, NodeRef, TrainSpec

if TYPE_CHECKING:
    from ..entities import Train


def enumerate_candidates(graph: RouteGraph, spec: TrainSpec, pricing: Pricing,
                         deadline: Deadline | None = None,
                         train: Train | None = None) -> tuple[list[Candidate], bool]:
    """Every legal route for one kind of train, best per track mask, sorted by value (best first).

    ``train`` (one train of this kind) is handed to the pricing hook.
    Returns (candidates, complete): complete is False when the deadline cut the enumeration short.
    """
    lists, complete = enumerate_shared(graph, [spec], pricing, deadline, [train])
    return lists[0], complete


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


def _bitset(items: Iterable[int]) -> int:
    out = 0
    for k in items:
        out |= 1 << k
    return out


def _chunk_tables(masks: list[int]) -> list[tuple[int, list[int]]]:
    """For each 8 consecutive items, the union of their masks for every byte of a bitset over the items."""
    out = []
    for base in range(0, len(masks), 8):
        table = [0] * 256
        for b in range(1, 256):
            low = (b & -b).bit_length() - 1
            table[b] = table[b & (b - 1)] | (masks[base + low] if base + low < len(masks) else 0)
        out.append((base, table))
    return out


def _union(tables: list[tuple[int, list[int]]], items: int) -> int:
    """The union of the masks of the items in the bitset ``items`` (tables from :func:`_chunk_tables`)."""
    out = 0
    for base, table in tables:
        out |= table[items >> base & 255]
    return out


def walk_key(spec: TrainSpec) -> tuple[frozenset[str], frozenset[str], bool]:
    """Train kinds with the same key weigh and pay stops alike, so one walk over the track serves them all."""
    return spec.free_kinds, spec.unpaid_kinds, spec.stations_only


def enumerate_shared(graph: RouteGraph, specs: Sequence[TrainSpec], pricing: Pricing,
                     deadline: Deadline | None = None, trains: Sequence[Train | None] | None = None,
                     trim: bool | None = None, alone: bool = False,
                     bound: bool = False) -> tuple[list[list[Candidate]], bool]:
    """:func:`enumerate_candidates` for several train kinds of one :func:`walk_key`, in one walk.

    ``alone``: the train runs alone, so only routes that may beat the best found so far are wanted; a
    path is not extended when even its best possible stops (the most valuable ones not yet visited) cannot.
    ``bound``: the same bound for a train that shares track with no other (the only one of its group): a route
    that cannot beat its best one is replaced by that one in any set (routes equal in value keep their order).

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
    dl = deadline if deadline is not None and deadline.limited else None
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
            if bounding:
                if signed and v <= by_sig.get(visited & keep, -UNLIMITED):
                    continue  # a route of its signature found before pays as much: this one is never wanted
                lift(visited, v)
            got = best[s].get(mask)
            if got is None or got[0] < v:
                best[s][mask] = (v, start, (*reversed(arm1), *arm2))

    bounding = hook is None and nspec == 1 and tops[0] < 0 and ((alone and limit < UNLIMITED) or bound)
    floor = [-UNLIMITED]
    slack = pricing.set_bound + sum(amount for _groups, amount in rules if amount > 0)
    # A set-level bonus reads only the ``set_nodes`` a route visits (its signature): a route cannot do better in any
    # set than a route of its signature found before that pays at least as much (without the set allowance).
    signed = pricing.set_bonus is None or pricing.set_nodes is not None
    route_slack = slack - pricing.set_bound
    by_sig: dict[int, int] = {}

    def lift(visited: int, v: int) -> None:
        if v > floor[0]:
            floor[0] = v
        sig = visited & keep
        if by_sig.get(sig, -UNLIMITED) < v:
            by_sig[sig] = v

    by_value = sorted(((value[k], 1 << k) for k in range(n) if weight[k] and value[k] > 0), reverse=True)

    # An unlimited train's bound counts only the stops the route can still reach: from its open ends, over nodes
    # not yet visited, never through a station numbered below the anchor's (a route's first station) nor past a
    # node no route runs through.
    reach = bounding and limit >= UNLIMITED
    # (A union, not a sum: two links to one neighbour would carry its bit into the next node's.)
    near = [_bitset(j for j, *_ in steps_from[i]) for i in range(n)] if reach else []
    through = sum(1 << k for k in range(n) if passable[k])
    stations = sum(1 << k for k in range(n) if token[k])
    paying = [(value[k], 1 << k) for k in range(n) if value[k] > 0 and not hexbit[k]]
    free_value = [(k, value[k]) for k in range(n) if not weight[k] and value[k] > 0]
    # Stops on a tile a route includes once (1822's London): one of them at most, none once the tile is used.
    tiles: dict[int, list[tuple[int, int]]] = {}
    for k in range(n):
        if value[k] > 0 and hexbit[k]:
            tiles.setdefault(hexbit[k], []).append((value[k], 1 << k))
    tile_stops = [(tile, sorted(group, reverse=True)) for tile, group in tiles.items()]

    def gain(room: int, allowed: int, hexes: int) -> int:
        # The most the stops in ``allowed`` can add to a route with ``room`` counted stops left.
        if room >= n:
            extra = 0
            for v, b in paying:
                if allowed & b:
                    extra += v
            for tile, group in tile_stops:
                if not tile & hexes:
                    for v, b in group:
                        if allowed & b:
                            extra += v
                            break
            return extra
        extra = sum(v for k, v in free_value if allowed >> k & 1)
        for v, b in by_value:
            if not room:
                break
            if allowed & b:
                extra += v
                room -= 1
        return extra

    def beaten(val: int, room: int, visited: int, allowed: int, hexes: int) -> bool:
        # Whether no route the path may still become can beat a route found before: with the set-level allowance,
        # the best found; without it, the best found of each signature the route may end with (its open stops
        # outside that signature left out).
        if val + gain(room, allowed, hexes) + slack <= floor[0]:
            return True
        if not signed:
            return False
        sig = visited & keep
        open_ = allowed & keep
        sub = open_
        while True:
            if by_sig.get(sig | sub, -UNLIMITED) < val + gain(room, allowed & ~(open_ & ~sub), hexes) + route_slack:
                return False
            if not sub:
                return True
            sub = (sub - 1) & open_

    def hopeless(val: int, counted: int, visited: int, starts: int = 0, anchor: int = 0, hexes: int = 0) -> bool:
        room = limit - counted
        if beaten(val, room, visited, ~visited, hexes):
            return True
        if not reach or not starts:
            return False
        closed = visited | (stations & ((1 << anchor) - 1))
        seen = starts
        frontier = starts & through
        while frontier:
            nb = 0
            while frontier:
                low = frontier & -frontier
                nb |= near[low.bit_length() - 1]
                frontier ^= low
            nb &= ~(closed | seen)
            seen |= nb
            frontier = nb & through
        return beaten(val, room, visited, seen & ~visited, hexes)

    worthless = sum(1 << k for k in range(n) if value[k] <= 0)
    # The common case (one kind, priced by its stops alone, nothing to trim) is recorded inline.
    fast = (nspec == 1 and not caps[0] and hook is None and not rules and not stations_only and tops[0] < 0
            and not (trim and any(v <= 0 for v in value)))
    best0 = best[0]

    # A path's future (the routes it may still become) depends only on where it ends, the stops it visited, its
    # tiles, its first link and its start, and the track it used that a link it may still take meets: a link
    # between nodes not yet visited or its open ends (``ahead``). A bounded walk that meets such a state again
    # records nothing new: every route from there pays what one from the first meeting paid, with the same stops,
    # so it is no better than the best of its signature, or is cut by a bound that has only risen since.
    memo = bounding and signed
    met: set[tuple[int, int, int, int, int, int, int]] = set()
    at_node = [0] * n  # per node, the bitset of the links that end there
    for li, lk in enumerate(graph.links):
        at_node[lk.a] |= 1 << li
        at_node[lk.b] |= 1 << li
    node_chunks = _chunk_tables(at_node)
    link_chunks = _chunk_tables([lk.mask for lk in graph.links])

    def ahead(visited: int, i: int, other: int) -> int:
        """The track of the links a path ending at ``i`` (and ``other``) may still take."""
        closed = _union(node_chunks, visited & ~(1 << i) & ~(1 << other))
        return _union(link_chunks, ~closed)

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
        if memo:
            state = (anchor, i, after, visited, used & ahead(visited, i, i), hexes, ends1[-1] if ends1 else -1)
            if state in met:
                return
            met.add(state)
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
                if (got is None or got[0] < val + vj) and not (
                        bounding and signed and val + vj <= by_sig.get((visited | (1 << j)) & keep, -UNLIMITED)):
                    best0[used | m] = (val + vj, ends1[-1] if ends1 else anchor, (*reversed(arm1), *arm2))
                    if bounding:
                        lift(visited | (1 << j), val + vj)
            else:
                record(anchor, visited | (1 << j), used | m, val + vj, c, tokens + tk)
            if pj and not (bounding and hopeless(val + vj, c, visited | (1 << j), 1 << j, anchor, hb | hj)):
                walk2(anchor, j, -1, visited | (1 << j), used | m, hb | hj, val + vj, c, tokens + tk)
            if w and ranked:
                del cvals[bisect_left(cvals, vj)]
            ends2.pop()
            arm2.pop()

    def walk1(anchor: int, i: int, visited: int, used: int, hexes: int, val: int, counted: int,
              tokens: int) -> None:
        if stopped[0]:
            return
        if memo:
            state = (anchor, i, -3 - (arm1[0] if arm1 else -1), visited, used & ahead(visited, i, anchor), hexes,
                     -1)
            if state in met:
                return
            met.add(state)
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
            if bounding and hopeless(val + vj, c, visited | (1 << j), 1 << anchor, anchor, hb | hj):
                pass
            elif tk or not stations_only:
                walk2(anchor, anchor, arm1[0], visited | (1 << j), used | m, hb | hj, val + vj, c, tokens + tk)
            if pj and not (bounding and hopeless(val + vj, c, visited | (1 << j), (1 << j) | (1 << anchor), anchor,
                                                     hb | hj)):
                walk1(anchor, j, visited | (1 << j), used | m, hb | hj, val + vj, c, tokens + tk)
            if w and ranked:
                del cvals[bisect_left(cvals, vj)]
            ends1.pop()
            arm1.pop()

    # A train alone that earns the sum of its stops pairs arms instead of walking every route.
    paired = (alone and bounding and not caps[0] and not rules and not specs[0].local) or (
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
