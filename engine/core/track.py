"""Tile lays: which tiles may go where, at which rotations, and what a lay costs."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .errors import illegal
from .tiles import COLOURS, NODE_BASE, Tile, TileDef, TokenKind

if TYPE_CHECKING:
    from .board import HasBoard, Hex


def _path_sig(tile: Tile | TileDef, rotation: int, ends: tuple[int, int], nodes: Any) -> tuple[Any, ...]:
    def kind(end: int) -> object:
        if end < NODE_BASE:
            return ("e", (end + rotation) % 6)
        return ("n", nodes[end - NODE_BASE].kind)
    a, b = kind(ends[0]), kind(ends[1])
    return tuple(sorted((a, b), key=repr))


def path_signatures(tdef: TileDef, rotation: int) -> list[tuple[Any, ...]]:
    return list(_signatures(tdef, rotation))


@functools.cache
def _signatures(tdef: TileDef, rotation: int) -> tuple[tuple[Any, ...], ...]:
    # A tile definition is a frozen value, so its signatures at a rotation never change (keyed by value: a
    # title's few tile kinds times six rotations).
    return tuple(_path_sig(tdef, rotation, p.ends(), tdef.nodes) for p in tdef.paths)


def upgrade_shape_ok(old: Tile, new: TileDef) -> bool:
    """Colour, label and town/city counts (before rotations are considered)."""
    oc = old.colour
    if oc not in COLOURS or new.colour not in COLOURS:
        return False
    if COLOURS.index(new.colour) != COLOURS.index(oc) + 1:
        return False
    if not labels_fit(old.tdef.label, new.label):
        return False
    if old.tdef.label is None:
        if len(old.tdef.cities) != len(new.cities) or len(old.tdef.towns) != len(new.towns):
            return False
    elif oc == "white" and old.tdef.label == "OO" and len(new.cities) != 2:
        return False
    return True


def labels_fit(old: str | None, new: str | None) -> bool:
    """A tile fits a label when the labels are equal, or when the new tile's label lists the old one among
    several separated by "/" (1862's brown "P/L/M" tile, shared by Portland, Los Angeles and Minneapolis)."""
    if (old or None) == (new or None):
        return True
    return old is not None and new is not None and old in new.split("/")


def old_paths_kept(old: Tile, new: TileDef, rotation: int) -> bool:
    old_sigs = path_signatures(old.tdef, old.rotation)
    new_sigs = path_signatures(new, rotation)
    remaining = list(new_sigs)
    joined = _junction_links(new, rotation)
    for sig in old_sigs:
        if sig in remaining:
            remaining.remove(sig)
        elif not (all(kind == "e" for kind, _ in sig) and frozenset(e for _, e in sig) in joined):
            return False
    return True


@functools.cache
def _junction_links(tdef: TileDef, rotation: int) -> frozenset[frozenset[Any]]:
    """Pairs of edges a tile joins through a junction (Lawson-style plain track, 1822's 80-83 and 544-546): such a
    tile keeps any plain track between two of its exits."""
    out: set[frozenset[Any]] = set()
    for i, node in enumerate(tdef.nodes):
        if node.kind != "junction":
            continue
        target = NODE_BASE + i
        edges = [(p.b if p.a == target else p.a) for p in tdef.paths if target in p.ends()]
        edges = [(e + rotation) % 6 for e in edges if e < NODE_BASE]
        out |= {frozenset((a, b)) for a in edges for b in edges if a != b}
    return frozenset(out)


def city_edges(tdef: TileDef, rotation: int) -> list[frozenset[int]]:
    return list(_city_edges(tdef, rotation))


@functools.cache
def _city_edges(tdef: TileDef, rotation: int) -> tuple[frozenset[int], ...]:
    out = []
    for i, node in enumerate(tdef.nodes):
        if node.kind not in ("city", "town"):
            continue
        target = NODE_BASE + i
        edges = set()
        for p in tdef.paths:
            if target in p.ends():
                other = p.b if p.a == target else p.a
                if other < NODE_BASE:
                    edges.add((other + rotation) % 6)
        out.append(frozenset(edges))
    return tuple(out)


def legal_rotations(game: HasBoard, hx: Hex, new: TileDef, connected_edges: set[int] | None) -> list[int]:
    """Rotations at which ``new`` may replace the hex's tile; connectivity if edges are given."""
    old = hx.tile
    if not upgrade_shape_ok(old, new):
        return []
    out = []
    seen: set[frozenset[int]] = set()
    old_ct = city_edges(old.tdef, old.rotation)
    for rot in range(6):
        exits, key = _rotation_key(new, rot)
        if key in seen:
            continue
        if any(e not in hx.neighbors or e in hx.sealed for e in exits):
            continue
        if any(b.kind == "impassable" for e, b in hx.borders.items() if e in exits):
            continue
        if connected_edges is not None and not (exits & connected_edges):
            continue
        if not old_paths_kept(old, new, rot):
            continue
        new_ct = city_edges(new, rot)
        if len(old_ct) > 1 and len(new_ct) > 1 and not _cities_kept_apart(old_ct, new_ct):
            continue
        seen.add(key)
        out.append(rot)
    return out


@functools.cache
def _rotation_key(tdef: TileDef, rotation: int) -> tuple[frozenset[int], frozenset[int]]:
    """A rotation's exits, and what tells it apart from the tile's other rotations (its exits and path
    signatures): memoised by value, as the signatures are."""
    exits = frozenset((e + rotation) % 6 for e in tdef.edges())
    sig = frozenset(map(tuple, path_signatures(tdef, rotation)))
    return exits, frozenset([*exits, *(hash(s) for s in sig)])


def _cities_kept_apart(old_ct: list[frozenset[int]], new_ct: list[frozenset[int]]) -> bool:
    """Each old city (with track) continues as exactly one new city, and no two merge."""
    used: set[int] = set()
    for o in old_ct:
        if not o:
            continue
        matches = [j for j, n in enumerate(new_ct) if o <= n]
        if len(matches) != 1 or matches[0] in used:
            return False
        used.add(matches[0])
    return True


def border_cost(game: HasBoard, hx: Hex, tile: Tile) -> tuple[int, int]:
    """River crossings this lay completes: (total cost, number of water crossings)."""
    total = 0
    water = 0
    exits = tile.exits()
    for edge, border in list(hx.borders.items()):
        if border.kind != "water" or edge not in exits:
            continue
        other_id = hx.neighbors.get(edge)
        if other_id is None:
            continue
        other = game.board.hexes[other_id]
        if (edge + 3) % 6 not in other.tile.exits():
            continue
        total += border.cost
        water += 1
        del hx.borders[edge]
        other.borders.pop((edge + 3) % 6, None)
    return total, water


def city_map(old: Tile, new: Tile) -> dict[int, int]:
    """Which city of the new tile each old city becomes, as 18xx.games maps them (Hex#city_map_for).

    A tile whose cities have no track yet (a printed OO hex) keeps its cities in order. Otherwise a city
    goes to the first new city that keeps all its exits; a city without exits takes the new city of its
    own index, or the first one still free.
    """
    old_cities, new_cities = list(old.tokens), list(new.tokens)
    old_edges = {i: old.node_edges(i) for i in old_cities}
    if not any(old_edges.values()) and len(old_cities) == len(new_cities):
        return dict(zip(old_cities, new_cities, strict=True))
    out: dict[int, int] = {}
    for i in old_cities:
        match = next((j for j in new_cities if old_edges[i] and old_edges[i] <= new.node_edges(j)), None)
        if match is not None:
            out[i] = match
    for index, i in enumerate(old_cities):
        if i in out:
            continue
        taken = set(out.values())
        target = new_cities[index] if index < len(new_cities) else None
        if target is None or target in taken:
            target = next((j for j in new_cities if j not in taken), new_cities[0])
        out[i] = target
    return out


def move_tokens(old: Tile, new: Tile) -> None:
    """Tokens stay with the city whose exits the new city keeps."""
    targets = city_map(old, new) if new.tokens else {}
    for i, slots in old.tokens.items():
        if not any(s is not None for s in slots):
            continue
        target = targets[i]
        dest = new.tokens[target]
        dest_kinds = new.kinds[target]
        for k, s in enumerate(slots):
            if s is None:
                continue
            extra = k >= old.tdef.nodes[i].slots  # in a space added beside the printed ones (1822's London)
            free = None if extra else k if k < len(dest) and dest[k] is None else next(
                (x for x in range(len(dest)) if dest[x] is None), None)
            if free is None and (old.kinds[i][k] is TokenKind.DESTINATION or extra):
                # Such a station (and a destination station with no room) keeps a space of its own.
                dest.append(None)
                dest_kinds.append(TokenKind.NORMAL)
                free = len(dest) - 1
            if free is None:
                raise illegal("the new tile has no room for the existing tokens")
            dest[free] = s
            dest_kinds[free] = old.kinds[i][k]
            slots[k] = None
            old.kinds[i][k] = TokenKind.NORMAL


def crossing_cost(game: HasBoard, hx: Hex, exits: frozenset[int]) -> int:
    """River crossings a tile with these exits would complete on ``hx`` (nothing is changed)."""
    total = 0
    for edge, border in hx.borders.items():
        if border.kind != "water" or edge not in exits:
            continue
        other_id = hx.neighbors.get(edge)
        if other_id is not None and (edge + 3) % 6 in game.board.hexes[other_id].tile.exits():
            total += border.cost
    return total
