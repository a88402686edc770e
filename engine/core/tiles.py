"""Tile geometry: the tile language (engine/data/FORMAT.md), tile definitions and laid tiles.

Ends of a path are small ints: 0-5 are edges in the tile's own frame, ``NODE_BASE + i`` is node i.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Literal

from .errors import malformed

COLOURS = ("white", "yellow", "green", "brown", "gray")
OTHER_COLOURS = ("red", "blue")
NODE_BASE = 10

NodeKind = Literal["city", "town", "offboard", "junction"]


@dataclass(frozen=True, slots=True)
class NodeDef:
    kind: NodeKind
    revenue: int = 0
    slots: int = 0


@dataclass(frozen=True, slots=True)
class PathDef:
    a: int
    b: int
    terminal: bool = False
    lanes: int = 1
    # A walk may arrive at the path's node over it but never leave the node by it (18xx.games "ignore").
    ignore: bool = False

    def ends(self) -> tuple[int, int]:
        return (self.a, self.b)


@dataclass(frozen=True, slots=True)
class TileDef:
    """A tile as printed: colour, nodes in part order, paths, label."""

    name: str
    colour: str
    nodes: tuple[NodeDef, ...]
    paths: tuple[PathDef, ...]
    label: str | None = None
    # The printed cost of upgrading this tile (1822's London and English Channel tiles): ``cost:<n>``.
    upgrade_cost: int = 0
    # Tile definitions key the memoised track rules (track.py), asked at every lay: the hash is worked out once.
    _hash: int = field(init=False, repr=False, compare=False)
    # Its city and town nodes, asked at every lay and station: worked out once.
    cities: tuple[int, ...] = field(init=False, repr=False, compare=False)
    towns: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.name, self.colour, self.nodes, self.paths, self.label,
                                                self.upgrade_cost)))
        object.__setattr__(self, "cities", tuple(i for i, n in enumerate(self.nodes) if n.kind == "city"))
        object.__setattr__(self, "towns", tuple(i for i, n in enumerate(self.nodes) if n.kind == "town"))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[TileDef], tuple[object, ...]]:
        # Built again when unpickled: a string's hash differs from one process to the next.
        return TileDef, (self.name, self.colour, self.nodes, self.paths, self.label, self.upgrade_cost)

    def edges(self) -> frozenset[int]:
        return frozenset(e for p in self.paths for e in p.ends() if e < NODE_BASE)


def is_edge(end: int) -> bool:
    return end < NODE_BASE


def rotate_end(end: int, rotation: int) -> int:
    return (end + rotation) % 6 if end < NODE_BASE else end


@cache
def parse_tile(name: str, text: str, colour: str | None = None) -> TileDef:
    """Parse one tile string of the tile language (once per string: tile definitions are immutable and every game
    of a title parses the same ones).

    >>> parse_tile("57", "yellow c20 0-n0 n0-3").edges() == frozenset({0, 3})
    True
    """
    words = text.split()
    if colour is None:
        if not words or words[0] not in COLOURS + OTHER_COLOURS:
            raise malformed(f"tile {name}: first word must be a colour, got {text!r}")
        colour = words.pop(0)
    nodes: list[NodeDef] = []
    paths: list[PathDef] = []
    label: str | None = None
    upgrade_cost = 0
    for word in words:
        head = word[0]
        if word.startswith("label:"):
            label = word[6:]
        elif word.startswith("cost:"):
            upgrade_cost = int(word[5:])
        elif "-" in word:
            paths.append(_parse_path(name, word))
        elif head == "c":
            rev, _, slots = word[1:].partition("x")
            nodes.append(NodeDef("city", int(rev), int(slots) if slots else 1))
        elif head == "t":
            nodes.append(NodeDef("town", int(word[1:])))
        elif word == "o":
            nodes.append(NodeDef("offboard"))
        elif word == "j":
            nodes.append(NodeDef("junction"))
        else:
            raise malformed(f"tile {name}: cannot read {word!r}")
    for p in paths:
        for end in p.ends():
            if end >= NODE_BASE and end - NODE_BASE >= len(nodes):
                raise malformed(f"tile {name}: path refers to missing node n{end - NODE_BASE}")
    return TileDef(name, colour, tuple(nodes), tuple(paths), label, upgrade_cost)


def _parse_path(name: str, word: str) -> PathDef:
    body, *opts = word.split("/")
    a_text, _, b_text = body.partition("-")
    terminal = "terminal" in opts
    lanes = 2 if "lanes2" in opts else 1
    return PathDef(_parse_end(name, a_text), _parse_end(name, b_text), terminal, lanes, "ignore" in opts)


def _parse_end(name: str, text: str) -> int:
    if text.startswith("n"):
        return NODE_BASE + int(text[1:])
    edge = int(text)
    if not 0 <= edge <= 5:
        raise malformed(f"tile {name}: edge {edge} out of range")
    return edge


@cache
def shared_catalogue() -> dict[str, TileDef]:
    """The shared tile catalogue (engine/data/tiles.toml), by tile name."""
    raw = tomllib.loads(resources.files("engine.data").joinpath("tiles.toml").read_text("utf-8"))
    return {name: parse_tile(name, text) for name, text in raw["tiles"].items()}


class TokenKind(StrEnum):
    """What a station in a city slot is, for routes and networks."""

    NORMAL = "normal"  # its company's station: blocks others when the city is full
    NEUTRAL = "neutral"  # never blocks anyone (1882's CN stations; the slot names the company it serves)
    BLOCKING = "blocking"  # takes the slot for nobody: blocks everyone, starts no network (1828 merger duplicates)
    DESTINATION = "destination"  # its company's station reached as a destination (1822); a station like NORMAL


class NeutralFlags:
    """``tile.neutral[node][slot]`` read and written as a bool over the slot kinds (True: NEUTRAL; setting False
    makes the slot NORMAL)."""

    __slots__ = ("_kinds",)

    def __init__(self, kinds: dict[int, list[TokenKind]]) -> None:
        self._kinds = kinds

    def __getitem__(self, node: int) -> _NeutralSlots:
        return _NeutralSlots(self._kinds[node])


class _NeutralSlots:
    __slots__ = ("_kinds",)

    def __init__(self, kinds: list[TokenKind]) -> None:
        self._kinds = kinds

    def __getitem__(self, slot: int) -> bool:
        return self._kinds[slot] is TokenKind.NEUTRAL

    def __setitem__(self, slot: int, neutral: bool) -> None:
        self._kinds[slot] = TokenKind.NEUTRAL if neutral else TokenKind.NORMAL


@dataclass(slots=True)
class Tile:
    """A physical tile: a copy of a definition, laid at a rotation, holding station tokens.

    ``tokens[node]`` lists slot contents for each city node (corporation symbol or None).
    """

    id: str  # "57-0"; preprinted tiles are named after their hex ("J10-0")
    tdef: TileDef
    rotation: int = 0
    preprinted: bool = False
    tokens: dict[int, list[str | None]] = field(default_factory=dict)
    # The kind of station in each slot (NORMAL where the slot is empty): whether it blocks and whose it is.
    kinds: dict[int, list[TokenKind]] = field(default_factory=dict)
    _layout: TileLayout | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.tokens:
            for i, node in enumerate(self.tdef.nodes):
                if node.kind == "city":
                    self.tokens[i] = [None] * node.slots
                    self.kinds[i] = [TokenKind.NORMAL] * node.slots

    @property
    def name(self) -> str:
        return self.tdef.name

    @property
    def colour(self) -> str:
        return self.tdef.colour

    def abs_paths(self) -> list[tuple[int, int]]:
        return self.layout().paths

    def exits(self) -> frozenset[int]:
        return self.layout().exits

    def layout(self) -> TileLayout:
        """Track at the current rotation, indexed for walking (cached per rotation)."""
        cached = self._layout
        if cached is None or cached.rotation != self.rotation:
            cached = self._layout = TileLayout.build(self.tdef, self.rotation)
        return cached

    def node_edges(self, node: int) -> frozenset[int]:
        """Absolute edges joined directly to a node."""
        target = NODE_BASE + node
        out: set[int] = set()
        for a, b in self.abs_paths():
            if a == target and b < NODE_BASE:
                out.add(b)
            elif b == target and a < NODE_BASE:
                out.add(a)
        return frozenset(out)

    @property
    def neutral(self) -> NeutralFlags:
        """Per-slot "holds a neutral station" flags over ``kinds``, for code that still reads or sets them so."""
        return NeutralFlags(self.kinds)

    def holds_station(self, node: int, corp: str) -> bool:
        """The city holds a station of ``corp`` that its network starts from (a blocking marker is nobody's)."""
        slots = self.tokens.get(node)
        if not slots or corp not in slots:
            return False
        kinds = self.kinds[node]
        return any(s == corp and kinds[i] is not TokenKind.BLOCKING for i, s in enumerate(slots))

    def blocks(self, node: int, corp: str) -> bool:
        """Every slot of the city is taken by a station that stops ``corp``'s routes: another company's, or a
        blocking marker (whoever it was made from); a neutral station never blocks."""
        slots = self.tokens.get(node)
        if not slots or None in slots:
            return False
        kinds = self.kinds[node]
        return all(s is not None and kinds[i] is not TokenKind.NEUTRAL
                   and (s != corp or kinds[i] is TokenKind.BLOCKING) for i, s in enumerate(slots))

    def city_tokens(self) -> list[tuple[int, int, str]]:
        return [(node, slot, corp) for node, slots in self.tokens.items()
                for slot, corp in enumerate(slots) if corp is not None]


@dataclass(frozen=True, slots=True)
class PathWalk:
    """One path of a laid tile as a network walk reads it: its edges, its nodes, the first junction it touches
    (-1: none) and whether a walk ends at its nodes."""

    edges: tuple[int, ...]
    nodes: tuple[int, ...]
    junction: int
    terminal: bool
    # Per edge: (edge, the side of the neighbour it faces, whether another path of the tile ends there too).
    exits: tuple[tuple[int, int, bool], ...]
    # The nodes a walk goes on from (none when terminal; no junction, no off-board), and whether each is a city.
    stops: tuple[tuple[int, bool], ...]


@dataclass(slots=True)
class TileLayout:
    rotation: int
    paths: list[tuple[int, int]]
    exits: frozenset[int]
    at_end: dict[int, list[int]]  # end (edge or NODE_BASE + node) -> indexes of paths touching it
    walks: list[PathWalk]  # per path, in path order
    leaves: dict[int, tuple[int, ...]]  # node -> paths a walk may leave it by

    @staticmethod
    def build(tdef: TileDef, rotation: int) -> TileLayout:
        """The layout of ``tdef`` at ``rotation``, shared by every tile of that definition (never changed)."""
        return _build_layout(tdef, rotation)


@cache
def _build_layout(tdef: TileDef, rotation: int) -> TileLayout:
    paths = [(rotate_end(p.a, rotation), rotate_end(p.b, rotation)) for p in tdef.paths]
    at_end: dict[int, list[int]] = {}
    for i, (a, b) in enumerate(paths):
        at_end.setdefault(a, []).append(i)
        if b != a:
            at_end.setdefault(b, []).append(i)
    exits = frozenset(e for a, b in paths for e in (a, b) if e < NODE_BASE)
    walks = []
    for (a, b), pdef in zip(paths, tdef.paths, strict=True):
        nodes = tuple(e - NODE_BASE for e in (a, b) if e >= NODE_BASE)
        junction = next((n for n in nodes if tdef.nodes[n].kind == "junction"), -1)
        edges = tuple(e for e in (a, b) if e < NODE_BASE)
        kinds = [tdef.nodes[n].kind for n in nodes]
        stops = () if pdef.terminal else tuple((n, kind == "city") for n, kind in zip(nodes, kinds, strict=True)
                                               if kind not in ("junction", "offboard"))
        walks.append(PathWalk(edges, nodes, junction, pdef.terminal,
                              tuple((e, (e + 3) % 6, len(at_end[e]) > 1) for e in edges), stops))
    # A path marked "ignore" is arrival only: no walk leaves its node by it.
    leaves = {n: tuple(i for i in at_end.get(NODE_BASE + n, ()) if not tdef.paths[i].ignore)
              for n in range(len(tdef.nodes))}
    return TileLayout(rotation, paths, exits, at_end, walks, leaves)
