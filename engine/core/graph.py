"""A company's track network: what its station tokens can reach.

Used for tile-lay connectivity, token placement and whether any route exists at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board, Hex
from .tiles import NODE_BASE

NodeRef = tuple[str, int]  # (hex id, node index)


@dataclass(slots=True)
class Network:
    token_nodes: set[NodeRef] = field(default_factory=set)
    nodes: set[NodeRef] = field(default_factory=set)  # reachable revenue centres and junctions
    hex_edges: dict[str, set[int]] = field(default_factory=dict)  # hex -> edges track can leave by
    route_possible: bool = False  # some stop besides a token city is reachable
    route_with_optional: bool = False  # the same, counting optional stops (a fishing exit)


def city_blocks(hx: Hex, node: int, corp: str) -> bool:
    """A city whose every slot holds another company's token cannot be passed through."""
    slots = hx.tile.tokens.get(node)
    if not slots:
        return False
    neutral = hx.tile.neutral[node]
    return all(s is not None and s != corp and not neutral[i] for i, s in enumerate(slots))


def company_network(board: Board, corp: str, *, token_owner: str | None = None,
                    optional_stops: frozenset[NodeRef] = frozenset()) -> Network:
    """Walk the track from every city holding ``corp``'s token (or a token owned by ``token_owner``)."""
    owner = token_owner or corp
    net = Network()
    for hx in board.hexes.values():
        for node, slots in hx.tile.tokens.items():
            if owner in slots:
                net.token_nodes.add((hx.id, node))
    seen_paths: set[tuple[str, int]] = set()
    stack: list[tuple[str, int]] = []  # (hex, node) to expand from
    for ref in net.token_nodes:
        hx = board.hexes[ref[0]]
        net.nodes.add(ref)
        edges = net.hex_edges.setdefault(hx.id, set())
        # A tokened hex counts as connected on every side that has a neighbour.
        edges.update(hx.neighbors)
        stack.append(ref)
    while stack:
        hex_id, node = stack.pop()
        hx = board.hexes[hex_id]
        target = NODE_BASE + node
        for i, (a, b) in enumerate(hx.tile.abs_paths()):
            if a != target and b != target:
                continue
            _walk_path(board, hx, i, seen_paths, stack, net, corp)
    for ref in net.nodes:
        if ref in net.token_nodes:
            continue
        hx = board.hexes[ref[0]]
        if hx.tile.tdef.nodes[ref[1]].kind != "junction":
            net.route_with_optional = True
            if ref not in optional_stops:
                net.route_possible = True
                break
    return net


def _walk_path(board: Board, hx: Hex, index: int, seen: set[tuple[str, int]],
               stack: list[tuple[str, int]], net: Network, corp: str) -> None:
    work = [(hx, index)]
    while work:
        cur, i = work.pop()
        key = (cur.id, i)
        if key in seen:
            continue
        seen.add(key)
        paths = cur.tile.abs_paths()
        a, b = paths[i]
        for end in (a, b):
            if end < NODE_BASE:
                net.hex_edges.setdefault(cur.id, set()).add(end)
                nxt = board.neighbor(cur, end)
                if nxt is None:
                    continue
                back = (end + 3) % 6
                net.hex_edges.setdefault(nxt.id, set()).add(back)
                for j, (c, d) in enumerate(nxt.tile.abs_paths()):
                    if (c == back or d == back) and (nxt.id, j) not in seen:
                        work.append((nxt, j))
            else:
                node = end - NODE_BASE
                ref = (cur.id, node)
                if ref in net.nodes:
                    continue
                net.nodes.add(ref)
                kind = cur.tile.tdef.nodes[node].kind
                if kind == "offboard" or (kind == "city" and city_blocks(cur, node, corp)):
                    continue
                stack.append(ref)
