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
    route_possible: bool = False  # two stops connect: a token city and another stop, or two token cities
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
    seen: set[tuple[str, int, int]] = set()
    # Nodes to expand from, each with the token city its walk started at: reaching another token city
    # makes a route (as on 18xx.games), reaching the same one again through a loop does not.
    stack: list[tuple[NodeRef, NodeRef]] = []
    linked = False
    hexes = board.hexes
    for ref in net.token_nodes:
        hx = hexes[ref[0]]
        net.nodes.add(ref)
        # A tokened hex counts as connected on every side that has a neighbour.
        net.hex_edges.setdefault(hx.id, set()).update(hx.neighbors)
        stack.append((ref, ref))
    hex_edges = net.hex_edges
    nodes = net.nodes
    while stack:
        (hex_id, node), origin = stack.pop()
        hx = hexes[hex_id]
        # A path is walked away from the end it was entered by, once per direction: turning back at a hex
        # edge onto another path of the hex just left would be a reversal, which 18xx.games' walk never makes.
        work = [(hx, i, NODE_BASE + node) for i in hx.tile.layout().at_end.get(NODE_BASE + node, ())]
        while work:
            cur, i, entry = work.pop()
            key = (cur.id, i, entry)
            if key in seen:
                continue
            seen.add(key)
            layout = cur.tile.layout()
            for end in layout.paths[i]:
                if end == entry:
                    continue
                if end < NODE_BASE:
                    hex_edges.setdefault(cur.id, set()).add(end)
                    nxt = board.neighbor(cur, end)
                    if nxt is None:
                        continue
                    back = (end + 3) % 6
                    hex_edges.setdefault(nxt.id, set()).add(back)
                    for j in nxt.tile.layout().at_end.get(back, ()):
                        if (nxt.id, j, back) not in seen:
                            work.append((nxt, j, back))
                else:
                    ref = (cur.id, end - NODE_BASE)
                    if ref in nodes:
                        linked = linked or (ref in net.token_nodes and ref != origin)
                        continue
                    nodes.add(ref)
                    kind = cur.tile.tdef.nodes[ref[1]].kind
                    if kind == "offboard" or (kind == "city" and city_blocks(cur, ref[1], corp)):
                        continue
                    stack.append((ref, origin))
    if linked:
        net.route_possible = net.route_with_optional = True
        return net
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
