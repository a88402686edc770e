"""Hex maps: coordinates as printed, neighbours, hexside features and the tiles on each hex."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, Protocol

from .errors import malformed
from .tiles import NODE_BASE, Tile, TileDef, parse_tile

Layout = Literal["flat", "pointy"]
Letters = Literal["rows", "columns"]

# Neighbour offsets per edge as (letter delta, number delta) for each coordinate scheme.
_DELTAS: dict[tuple[str, str], tuple[tuple[int, int], ...]] = {
    ("flat", "rows"): ((2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1)),
    ("flat", "columns"): ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    ("pointy", "rows"): ((1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2), (1, 1)),
}

_HEX_ID = re.compile(r"^([A-Z]+)(\d+)$")


def split_hex_id(hex_id: str) -> tuple[int, int]:
    """'J10' -> (9, 10): the letter index (A=0) and the number."""
    m = _HEX_ID.match(hex_id)
    if not m:
        raise malformed(f"{hex_id!r} is not a hex coordinate")
    letters, number = m.groups()
    index = 0
    for ch in letters:
        index = index * 26 + (ord(ch) - 64)
    return index - 1, int(number)


def join_hex_id(letter: int, number: int) -> str:
    if letter < 0 or number < 0:
        return ""
    out = ""
    n = letter + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return f"{out}{number}"


@dataclass(slots=True)
class Border:
    kind: str  # "water" or "impassable"
    cost: int = 0


@dataclass(slots=True)
class Hex:
    id: str
    letter: int
    number: int
    colour: str  # printed colour
    tile: Tile
    original: Tile
    name: str = ""
    revenue: dict[str, int] = field(default_factory=dict)  # off-board values by tile colour
    # Extra revenue of the hex's stations by tile colour of the phase (1862's bonus hexes): part of the stop's
    # value, so an express train that omits the stop also omits its bonus.
    bonus: dict[str, int] = field(default_factory=dict)
    terrain_kind: str = ""
    terrain_cost: int = 0  # paid on the first lay over the printed hex
    tags: frozenset[str] = frozenset()
    optional_node: bool = False
    neighbors: dict[int, str] = field(default_factory=dict)
    # Edges facing the blank side of a printed gray, red or blue hex: no track may lead there (1882 11.3.1).
    sealed: frozenset[int] = frozenset()
    borders: dict[int, Border] = field(default_factory=dict)  # still unpaid/impassable, by edge
    printed_borders: dict[int, Border] = field(default_factory=dict)  # as on the map, for downgrades
    # Companies that may route through or to this hex's cities; None: all (1828's coalfields: marker holders).
    passable_only_by: frozenset[str] | None = None

    @property
    def blank(self) -> bool:
        return self.tile is self.original and not self.original.tdef.paths


class Board:
    """All hexes of a map and the tile supply's placement bookkeeping."""

    def __init__(self, layout: Layout, letters: Letters, hexes: dict[str, Hex]) -> None:
        self.layout = layout
        self.letters = letters
        self.hexes = hexes
        # Every game of a title builds the same map: the neighbours of its hexes are worked out once per map.
        table = _neighbor_table(layout, letters, tuple(hexes))
        for hx in hexes.values():
            hx.neighbors = table[hx.id]
        for hx in hexes.values():
            hx.sealed = frozenset(e for e, other in hx.neighbors.items() if _blank_side(hexes[other], (e + 3) % 6))
        # Free stops (1882's fishing exit) are printed on the map: a network's route check reads them on every walk.
        self.optional_stops = frozenset((hx.id, 0) for hx in hexes.values() if hx.optional_node)

    def __getitem__(self, hex_id: str) -> Hex:
        try:
            return self.hexes[hex_id]
        except KeyError:
            raise malformed(f"there is no hex {hex_id} on this map") from None

    @staticmethod
    def from_data(data: dict[str, Any]) -> Board:
        hexes: dict[str, Hex] = {}
        for hex_id, raw in data["hexes"].items():
            letter, number = split_hex_id(hex_id)
            colour = raw.get("color", "white")
            tdef: TileDef = parse_tile(hex_id, raw.get("tile", ""), colour)
            tile = Tile(f"{hex_id}-{int(raw.get('copy', 0))}", tdef, 0, preprinted=True)
            terrain = raw.get("terrain", {})
            hexes[hex_id] = Hex(
                id=hex_id, letter=letter, number=number, colour=colour, tile=tile, original=tile,
                name=raw.get("name", ""), revenue=dict(raw.get("revenue", {})), bonus=dict(raw.get("bonus", {})),
                terrain_kind=terrain.get("kind", ""), terrain_cost=int(terrain.get("cost", 0)),
                tags=frozenset(raw.get("tags", ())), optional_node=bool(raw.get("optional", False)),
            )
        board = Board(data.get("layout", "flat"), data.get("letters", "rows"), hexes)
        for side in data.get("hexsides", ()):
            a, b = board[side["a"]], board[side["b"]]
            edge = next((e for e, n in a.neighbors.items() if n == b.id), None)
            if edge is None:
                raise malformed(f"hexside {a.id}-{b.id}: hexes are not adjacent")
            border = Border(side["kind"], int(side.get("cost", 0)))
            a.borders[edge] = border
            if not side.get("one_side"):  # a cost printed on one hex only (1822 estuaries)
                b.borders[(edge + 3) % 6] = Border(border.kind, border.cost)
        for hx in hexes.values():
            hx.printed_borders = {e: Border(b.kind, b.cost) for e, b in hx.borders.items()}
        return board

    def neighbor(self, hx: Hex, edge: int) -> Hex | None:
        other = hx.neighbors.get(edge)
        if other is None:
            return None
        border = hx.borders.get(edge)
        if border is not None and border.kind == "impassable":
            return None
        return self.hexes[other]

    def paths_at_edge(self, hx: Hex, edge: int) -> list[int]:
        """Indexes of the tile's paths that touch an absolute edge."""
        return [i for i, (a, b) in enumerate(hx.tile.abs_paths()) if a == edge or b == edge]

    def node_revenue(self, hx: Hex, node: int, colour: str) -> int:
        """Current revenue of a node: the tile value, or the off-board value for a phase colour."""
        ndef = hx.tile.tdef.nodes[node]
        if ndef.kind == "offboard" or (hx.revenue and ndef.revenue == 0):
            return offboard_value(hx.revenue, colour) + offboard_value(hx.bonus, colour)
        return ndef.revenue + offboard_value(hx.bonus, colour)


@cache
def _neighbor_table(layout: Layout, letters: Letters, hex_ids: tuple[str, ...]) -> dict[str, dict[int, str]]:
    """Each hex's neighbour by edge on a map of these hexes. The dictionaries are shared by every board of the map
    and never changed."""
    deltas = _DELTAS[(layout, letters)]
    present = set(hex_ids)
    table: dict[str, dict[int, str]] = {}
    for hex_id in hex_ids:
        letter, number = split_hex_id(hex_id)
        sides = table[hex_id] = {}
        for edge, (dl, dn) in enumerate(deltas):
            other = join_hex_id(letter + dl, number + dn)
            if other in present:
                sides[edge] = other
    return table


_COLOUR_ORDER = ("yellow", "green", "brown", "gray")
_UNBUILDABLE = frozenset({"gray", "red", "blue"})


def _blank_side(hx: Hex, edge: int) -> bool:
    """A printed gray, red or blue hex with no track to ``edge``: what 18xx.games calls impassable."""
    return hx.colour in _UNBUILDABLE and edge not in hx.original.exits()


def offboard_value(table: dict[str, int], colour: str) -> int:
    """Value for the newest tile colour of the phase: the last listed colour not newer than it."""
    if not table:
        return 0
    rank = _COLOUR_ORDER.index(colour) if colour in _COLOUR_ORDER else 0
    best = None
    for c in _COLOUR_ORDER[: rank + 1]:
        if c in table:
            best = table[c]
    if best is None:
        best = table[min(table, key=lambda c: _COLOUR_ORDER.index(c) if c in _COLOUR_ORDER else 99)]
    return best


def node_end(node: int) -> int:
    return NODE_BASE + node


class HasBoard(Protocol):
    """What track and route rules need of a game: its map (they never import the game facade)."""

    board: Board
