"""Hand-built views for the rendering tests and benchmark.

Until the engine can play a real late game, these helpers read a title map in the
``engine/data/FORMAT.md`` shape, parse tile strings (a test-only parser; the engine owns the real
one), lay a deterministic set of tiles and tokens, and wrap everything in the view dataclasses.
"""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.core.views import (
    BoardView,
    CorporationStatus,
    HexsideView,
    HexView,
    MarketView,
    NodeView,
    PathView,
    PlayerStatus,
    RouteView,
    StatusView,
    TrainStock,
)
from rendering.geometry import neighbour

DATA = Path(__file__).resolve().parent / "data"
MAP_1882 = DATA / "g1882_map.toml"

_COLOURS = {"yellow", "green", "brown", "gray", "white", "red", "blue"}
_CITY = re.compile(r"^c(\d+)(?:x(\d+))?$")
_TOWN = re.compile(r"^t(\d+)$")
_PATH = re.compile(r"^(n?\d+)-(n?\d+)(?:/.*)?$")

# 1882 tiles (rules-data.md Appendix B), in the FORMAT.md tile language.
TILES_1882: dict[str, str] = {
    "1": "yellow t10 t10 1-n0 n0-3 0-n1 n1-4",
    "2": "yellow t10 t10 0-n0 n0-3 1-n1 n1-2",
    "3": "yellow t10 0-n0 n0-1",
    "4": "yellow t10 0-n0 n0-3",
    "7": "yellow 0-1",
    "8": "yellow 0-2",
    "9": "yellow 0-3",
    "55": "yellow t10 t10 0-n0 n0-3 1-n1 n1-4",
    "56": "yellow t10 t10 0-n0 n0-2 1-n1 n1-3",
    "57": "yellow c20 0-n0 n0-3",
    "58": "yellow t10 0-n0 n0-2",
    "69": "yellow t10 t10 0-n0 n0-3 2-n1 n1-4",
    "14": "green c30x2 0-n0 1-n0 3-n0 4-n0",
    "15": "green c30x2 0-n0 1-n0 2-n0 3-n0",
    "18": "green 0-3 1-2",
    "19": "green 0-3 2-4",
    "20": "green 0-3 1-4",
    "23": "green 0-3 0-4",
    "24": "green 0-2 0-3",
    "26": "green 0-3 0-5",
    "27": "green 0-1 0-3",
    "59": "green c40 c40 0-n0 2-n1 label:OO",
    "R1": "green c60 c60 0-n0 1-n0 2-n1 3-n1 label:R",
    "41": "brown 0-1 0-3 1-3",
    "42": "brown 0-3 0-5 3-5",
    "43": "brown 0-2 0-3 1-2 1-3",
    "44": "brown 0-1 0-3 1-4 3-4",
    "45": "brown 0-3 0-4 2-3 2-4",
    "46": "brown 0-2 0-3 2-4 3-4",
    "47": "brown 0-3 0-4 1-3 1-4",
    "63": "brown c40x2 0-n0 1-n0 2-n0 3-n0 4-n0 5-n0",
    "66": "brown c50 c50 0-n0 n0-3 1-n1 n1-2 label:OO",
    "67": "brown c50 c50 0-n0 n0-3 2-n1 n1-4 label:OO",
    "68": "brown c50 c50 0-n0 n0-3 1-n1 n1-4 label:OO",
    "R2": "brown c70x2 0-n0 1-n0 2-n0 3-n0 label:R",
}

CORP_COLOURS_1882 = {
    "CPR": "#d81e3e",
    "CNR": "#237333",
    "GT": "#1f1f1f",
    "HBR": "#f2c12e",
    "QLL": "#7b3fa0",
    "SC": "#1c75bc",
    "CN": "#9a9a9a",
}
CORP_TEXT_1882 = {"CPR": "#ffffff", "CNR": "#ffffff", "GT": "#ffffff", "HBR": "#1b1b1b",
                  "QLL": "#ffffff", "SC": "#ffffff", "CN": "#1b1b1b"}


@dataclass(frozen=True)
class Tile:
    colour: str | None
    nodes: tuple[tuple[str, int, int], ...]  # kind, revenue, slots
    paths: tuple[tuple[str, str], ...]  # ends "e<edge>" / "n<i>" in the tile's own frame
    label: str | None


def parse_tile(text: str) -> Tile:
    """Parse a FORMAT.md tile string (test helper; raises ValueError on unknown words)."""
    colour: str | None = None
    nodes: list[tuple[str, int, int]] = []
    paths: list[tuple[str, str]] = []
    label: str | None = None
    for word in text.split():
        if word in _COLOURS:
            colour = word
        elif m := _CITY.match(word):
            nodes.append(("city", int(m.group(1)), int(m.group(2) or 1)))
        elif m := _TOWN.match(word):
            nodes.append(("town", int(m.group(1)), 0))
        elif word == "o":
            nodes.append(("offboard", 0, 0))
        elif word == "j":
            nodes.append(("junction", 0, 0))
        elif word.startswith("label:"):
            label = word.split(":", 1)[1]
        elif m := _PATH.match(word):
            ends = tuple(e if e.startswith("n") else f"e{e}" for e in (m.group(1), m.group(2)))
            paths.append((ends[0], ends[1]))
        else:
            raise ValueError(f"unknown tile word {word!r} in {text!r}")
    return Tile(colour, tuple(nodes), tuple(paths), label)


def _rotate(end: str, rotation: int) -> str:
    return f"e{(int(end[1:]) + rotation) % 6}" if end.startswith("e") else end


def _id_parts(hex_id: str) -> tuple[str, int]:
    m = re.match(r"^([A-Z]+)(\d+)$", hex_id)
    if m is None:
        raise ValueError(hex_id)
    return m.group(1), int(m.group(2))


def _letters_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def hex_view(hex_id: str, entry: dict[str, Any], letters: str, offboard_colour: str = "yellow") -> HexView:
    """A printed map hex (no tile laid) as a HexView."""
    lets, num = _id_parts(hex_id)
    li = _letters_index(lets)
    row, col = (li, num) if letters == "rows" else (num, li)
    tile = parse_tile(entry.get("tile", ""))
    revenue = entry.get("revenue", {})
    by_colour = tuple((k, int(v)) for k, v in revenue.items()) if isinstance(revenue, dict) else ()
    nodes = []
    for i, (kind, rev, slots) in enumerate(tile.nodes):
        if kind == "offboard":
            current = dict(by_colour).get(offboard_colour, by_colour[0][1] if by_colour else 0)
            if offboard_colour not in dict(by_colour) and by_colour:
                current = by_colour[0][1]
            nodes.append(NodeView(i, "offboard", current, revenues_by_colour=by_colour))
        else:
            nodes.append(NodeView(i, kind, rev, slots=slots if kind == "city" else 0,  # type: ignore[arg-type]
                                  tokens=(None,) * slots if kind == "city" else (),
                                  reserved=(None,) * slots if kind == "city" else ()))
    terrain = entry.get("terrain", {})
    return HexView(
        id=hex_id,
        row=row,
        col=col,
        colour=entry.get("color", "white"),
        name=entry.get("name", ""),
        label=tile.label,
        nodes=tuple(nodes),
        paths=tuple(PathView(a, b) for a, b in tile.paths),
        terrain_cost=int(terrain.get("cost", 0)),
        terrain_kind=str(terrain.get("kind", "")),
        tags=tuple(entry.get("tags", ())),
    )


def lay(h: HexView, tile_name: str, rotation: int, catalogue: dict[str, str] = TILES_1882) -> HexView:
    """``h`` with ``tile_name`` laid at ``rotation`` (tokens and reservations are dropped)."""
    tile = parse_tile(catalogue[tile_name])
    nodes = tuple(
        NodeView(i, kind, rev, slots=slots if kind == "city" else 0,  # type: ignore[arg-type]
                 tokens=(None,) * slots if kind == "city" else (),
                 reserved=(None,) * slots if kind == "city" else ())
        for i, (kind, rev, slots) in enumerate(tile.nodes)
    )
    paths = tuple(PathView(_rotate(a, rotation), _rotate(b, rotation)) for a, b in tile.paths)
    return replace(h, colour=tile.colour or h.colour, tile=tile_name, rotation=rotation, nodes=nodes,
                   paths=paths, label=tile.label or h.label)


def with_tokens(h: HexView, node: int, tokens: tuple[str | None, ...] = (),
                reserved: tuple[str | None, ...] = ()) -> HexView:
    nodes = list(h.nodes)
    n = nodes[node]
    slots = max(1, n.slots)
    nodes[node] = replace(
        n,
        tokens=tuple(tokens) + (None,) * (slots - len(tokens)),
        reserved=tuple(reserved) + (None,) * (slots - len(reserved)),
    )
    return replace(h, nodes=tuple(nodes))


def load_board(
    path: Path = MAP_1882, title: str = "1882 Assiniboia", offboard_colour: str = "yellow"
) -> BoardView:
    """The printed board of a FORMAT.md map file."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    letters = data.get("letters", "rows")
    hexes = tuple(hex_view(k, v, letters, offboard_colour) for k, v in data["hexes"].items())
    sides = tuple(
        HexsideView(s["a"], s["b"], s.get("kind", "water"), int(s.get("cost", 0)))
        for s in data.get("hexsides", ())
    )
    return BoardView(
        title=title,
        layout=data.get("layout", "flat"),
        letters=letters,
        hexes=hexes,
        hexsides=sides,
        corporation_colours=dict(CORP_COLOURS_1882),
        corporation_text_colours=dict(CORP_TEXT_1882),
    )


# ----------------------------------------------------------------------------- a late 1882 game

_PLAN: list[tuple[str, tuple[str, ...]]] = [
    # Cities first (late game: mostly brown and green), then towns, then plain track.
    ("I5", ("63",)), ("L8", ("63",)), ("G11", ("63",)), ("G7", ("63",)), ("J8", ("14", "15")),
    ("K3", ("15", "14")), ("G9", ("15", "14")), ("D6", ("14", "15")), ("C11", ("57",)), ("J12", ("57",)),
    ("D4", ("57",)), ("G3", ("57",)), ("C3", ("57",)),
    ("E5", ("59",)), ("M11", ("67", "68", "66")), ("J10", ("R1",)),
    ("F8", ("1", "2", "55", "56", "69")), ("I11", ("55", "56", "69", "1", "2")),
    ("K9", ("69", "1", "55", "56")),
    ("F4", ("58", "3", "4")), ("L12", ("3", "4", "58")),
    ("F12", ("23", "24", "19")),
]
_BROWN = ("41", "42", "43", "44", "45", "46", "47")
_GREEN = ("18", "19", "20", "23", "24", "26", "27")
_YELLOW = ("7", "8", "9")
_PLAIN: list[tuple[str, tuple[str, ...]]] = [
    ("H10", _BROWN), ("H8", _BROWN), ("I9", _BROWN), ("K7", _BROWN), ("J6", _BROWN), ("H6", _GREEN),
    ("I7", _GREEN), ("K11", _GREEN), ("L10", _BROWN), ("M9", _GREEN), ("E7", _GREEN), ("E9", _GREEN),
    ("F10", _GREEN), ("E11", _YELLOW), ("D12", _GREEN), ("H12", _GREEN), ("I3", _GREEN), ("J4", _GREEN),
    ("L6", _YELLOW), ("M7", _YELLOW), ("M5", _YELLOW), ("K5", _YELLOW), ("L4", _YELLOW), ("G5", _GREEN),
    ("F6", _YELLOW), ("E3", _YELLOW), ("D10", _YELLOW), ("B10", _YELLOW), ("F2", _YELLOW),
    ("H2", _YELLOW), ("J2", _YELLOW),
]

LATE_ROUTES = (
    RouteView("D", ("B12", "D12", "E11", "F12", "G11", "H12", "I13"), 290),
    RouteView("6", ("I1", "J2", "K3", "J4", "I5", "J6", "K7", "J8", "K9", "L10", "M11", "O11"), 330),
    RouteView("5", ("D8", "F8", "G9", "H10", "I11", "J10"), 240),
)

_TOKENS: list[tuple[str, int, tuple[str, ...]]] = [
    ("I5", 0, ("CPR", "GT")), ("L8", 0, ("GT", "CN")), ("G11", 0, ("HBR", "QLL")), ("G7", 0, ("CPR", "CNR")),
    ("D8", 0, ("CNR",)), ("J10", 0, ("QLL",)), ("J10", 1, ("CPR",)), ("J8", 0, ("QLL", "SC")),
    ("K3", 0, ("CPR", "CN")), ("E5", 0, ("CNR",)), ("E5", 1, ("HBR",)), ("M11", 0, ("GT",)),
    ("M11", 1, ("SC",)), ("G9", 0, ("HBR", "CNR")), ("D6", 0, ("CNR",)), ("C11", 0, ("HBR",)),
    ("J12", 0, ("GT",)), ("L2", 0, ("SC",)),
    ("N6", 0, ("QLL",)), ("K13", 0, ("CN",)),
]


def _edges(h: HexView) -> set[int]:
    out = set()
    for p in h.paths:
        for end in (p.a, p.b):
            if end.startswith("e"):
                out.add(int(end[1:]))
    return out


def late_game_1882(*, routes: bool = True) -> BoardView:
    """A plausible phase-5 1882 board: ~50 tiles, ~27 stations, three runs (deterministic)."""
    board = load_board(offboard_colour="brown")
    hexes = {h.id: h for h in board.hexes}
    by_pos = {(h.row, h.col): h.id for h in board.hexes}
    route_links: dict[str, set[str]] = {}
    for r in LATE_ROUTES:
        for a, b in zip(r.hexes, r.hexes[1:], strict=False):
            route_links.setdefault(a, set()).add(b)
            route_links.setdefault(b, set()).add(a)
    rng = random.Random(1882)

    def score(hid: str, cand: HexView) -> float:
        h = hexes[hid]
        total = rng.random() * 0.1
        for e in _edges(cand):
            nid = by_pos.get(neighbour("flat", h.row, h.col, e))
            if nid is None:
                total -= 20
                continue
            other = hexes[nid]
            if nid in route_links.get(hid, ()):
                total += 6
            if (e + 3) % 6 in _edges(other):
                total += 4
            elif other.colour in ("red", "blue", "gray"):
                total -= 8
            elif other.tile is None and other.colour == "white":
                total -= 0.5
            else:
                total -= 4
        return total

    # A few passes of "best tile for this hex given its neighbours" settle into a connected network.
    for _ in range(3):
        for hid, tiles in _PLAN + _PLAIN:
            options = [lay(hexes[hid], t, r) for t in tiles for r in range(6)]
            hexes[hid] = max(options, key=lambda cand, hid=hid: score(hid, cand))  # type: ignore[misc]
    for hid, node, toks in _TOKENS:
        hexes[hid] = with_tokens(hexes[hid], node, toks)
    hexes["H4"] = replace(hexes["H4"], blocked_by="P2")
    order = [h.id for h in board.hexes]
    return replace(
        board,
        hexes=tuple(hexes[i] for i in order),
        phase_colours=("yellow", "green", "brown"),
        current_offboard_colour="brown",
        last_tile_hex="M11",
        last_routes=LATE_ROUTES if routes else (),
    )


# ----------------------------------------------------------------------------- small boards


def feature_board(layout: str = "flat") -> BoardView:
    """A few hexes that show every kind of part: used by the golden image tests."""
    letters = "rows"
    e: dict[str, dict[str, Any]] = {
        "A2": {"color": "red", "name": "Western Canada", "tile": "o 4-n0 5-n0",
               "revenue": {"yellow": 40, "brown": 80}},
        "B3": {"name": "Swift Current", "tile": "c0"},
        "A4": {"tile": "t0 t0", "name": "Rosthern & Melfort", "tags": ["nwr"]},
        "B5": {"name": "Elkwater", "tile": "t0", "terrain": {"kind": "mountain", "cost": 40}},
        "C2": {"color": "gray", "name": "Lethbridge", "tile": "c40 4-n0 5-n0"},
        "C4": {},
        "A6": {"color": "blue", "tile": "o 0-n0 1-n0", "revenue": {"yellow": 20, "brown": 30},
               "tags": ["fishing"]},
        "C6": {"name": "Flin Flon", "tile": "c0"},
        "B7": {"color": "yellow", "name": "Pile o' Bones & Lumsden", "tile": "c40 c40 1-n0 4-n1 label:R"},
        "D3": {"name": "Moose Jaw", "tile": "c0"},
        "D5": {"color": "yellow", "tile": "c0 c0 label:OO", "name": "Wayburn & Estevan"},
        "D7": {"color": "gray", "tile": "t10 2-n0 3-n0", "name": "Oxbow"},
        "E4": {}, "E6": {},
    }
    hexes = {k: hex_view(k, v, letters, "yellow") for k, v in e.items()}
    hexes["B3"] = with_tokens(lay(hexes["B3"], "63", 0), 0, ("CPR", "CN"))
    hexes["C4"] = lay(hexes["C4"], "20", 1)
    hexes["C6"] = with_tokens(hexes["C6"], 0, (), ("HBR",))
    hexes["C6"] = replace(hexes["C6"], blocked_by="P1")
    hexes["D3"] = with_tokens(lay(hexes["D3"], "14", 2), 0, ("QLL",), (None, "SC"))
    hexes["D5"] = with_tokens(lay(hexes["D5"], "67", 1), 1, ("GT",))
    hexes["E4"] = lay(hexes["E4"], "1", 0)
    hexes["E6"] = lay(hexes["E6"], "8", 4)
    # QLL's home is "either city" of this hex until it first operates: a hex-level reservation.
    hexes["B7"] = replace(hexes["B7"], home_reserved=("QLL",))
    return BoardView(
        title="Feature board",
        layout=layout,  # type: ignore[arg-type]
        letters=letters,  # type: ignore[arg-type]
        hexes=tuple(hexes.values()),
        hexsides=(HexsideView("B3", "C4", "water", 40), HexsideView("C4", "D5", "impassable"),
                  HexsideView("B5", "C6", "water", 20)),
        phase_colours=("yellow", "green"),
        current_offboard_colour="green",
        last_tile_hex="C4",
        last_routes=(RouteView("3", ("A2", "B3", "C4", "D5"), 150), RouteView("2", ("C2", "D3"), 70)),
        corporation_colours=dict(CORP_COLOURS_1882),
        corporation_text_colours=dict(CORP_TEXT_1882),
    )


# ----------------------------------------------------------------------------- market and status

MARKET_1882 = [
    [76, 82, 90, 100, 112, 126, 142, 160, 180, 200, 225, 250, 275, 300, 325, 350],
    [70, 76, 82, 90, 100, 112, 126, 142, 160, 180, 200, 220, 240, 260, 280, 300],
    [65, 70, 76, 82, 90, 100, 111, 125, 140, 155, 170, 185, 200],
    [60, 66, 71, 76, 82, 90, 100, 110, 120, 130],
    [55, 62, 67, 71, 76, 82, 90, 100],
    [50, 58, 65, 67, 71, 75, 80],
    [45, 54, 63, 67, 69, 70],
    [40, 50, 60, 67, 68],
    [30, 40, 50, 60],
    [20, 30, 40, 50],
    [10, 20, 30, 40],
]
_ZONES_1882 = {
    "yellow": [(3, 0), (4, 0), (5, 0), (5, 1), (6, 1), (7, 1), (7, 2), (8, 2), (8, 3), (9, 3)],
    "orange": [(6, 0), (7, 0), (8, 1), (9, 2), (10, 3)],
    "brown": [(8, 0), (9, 0), (9, 1), (10, 0), (10, 1), (10, 2)],
}


def market_1882(stacks: dict[tuple[int, int], tuple[str, ...]] | None = None, *, finished: bool = False) -> MarketView:
    width = max(len(r) for r in MARKET_1882)
    rows = tuple(tuple(r) + (None,) * (width - len(r)) for r in MARKET_1882)
    zones = {cell: name for name, cells in _ZONES_1882.items() for cell in cells}
    if stacks is None:
        stacks = {(0, 9): ("CPR",), (1, 7): ("GT", "HBR"), (2, 5): ("CNR",), (3, 3): ("QLL", "SC", "CN")}
    return MarketView(
        title="1882 Assiniboia",
        rows=rows,  # type: ignore[arg-type]
        zones=zones,
        par_cells=tuple((r, 3) for r in range(6)),
        end_cells=((0, 15),),
        stacks=stacks,
        corporation_colours=dict(CORP_COLOURS_1882),
        corporation_text_colours=dict(CORP_TEXT_1882),
        round_name="Operating Round 5.2",
        phase="5",
        operating_rounds_in_set=3,
        finished=finished,
        game_end_reason="the bank broke" if finished else None,
        ranking=(("Chandra", 2304), ("Alice", 2210), ("Bob", 1876), ("Dmitri", 1498)) if finished else (),
    )


def status_1882() -> StatusView:
    players = (
        PlayerStatus("p1", "Alice", 412, (("CPR", 60), ("GT", 20), ("QLL", 10)), ("P5",), 11, 14, 2210,
                     priority=True),
        PlayerStatus("p2", "Bob", 98, (("HBR", 50), ("CNR", 30), ("CPR", 10)), (), 10, 14, 1876, acting=True),
        PlayerStatus("p3", "Chandra", 655, (("CNR", 40), ("SC", 60), ("CN", 20)), ("P2",), 12, 14, 2304),
        # Shares in every company and several privates: the shares column must wrap, not cut.
        PlayerStatus("p4", "Dmitri", 23, (("CPR", 10), ("GT", 40), ("HBR", 10), ("CNR", 10), ("QLL", 60),
                                          ("SC", 10), ("CN", 30)), ("P1", "P3", "P4", "P6"), 13, 14, 1498),
    )
    corps = (
        CorporationStatus("CPR", "Canadian Pacific Railway", "Alice", 312, ("5", "D"), 0, 4, 200, 0, 20, True,
                          330, CORP_COLOURS_1882["CPR"], "#ffffff", operated=True),
        CorporationStatus("GT", "Grand Trunk Pacific", "Dmitri", 88, ("6",), 1, 3, 142, 30, 10, True, 260,
                          CORP_COLOURS_1882["GT"], "#ffffff", operated=True),
        CorporationStatus("HBR", "Hudson Bay Railway", "Bob", 450, ("5",), 0, 3, 142, 20, 20, True, 240,
                          CORP_COLOURS_1882["HBR"], "#1b1b1b"),
        CorporationStatus("CNR", "Canadian Northern Railway", "Chandra", 17, ("4", "5"), 1, 3, 100, 30, 0,
                          True, None, CORP_COLOURS_1882["CNR"], "#ffffff"),
        CorporationStatus("QLL", "Qu'Appelle, Long Lake & Saskatchewan", "Dmitri", 140, ("6",), 0, 2, 76,
                          30, 0, True, 190, CORP_COLOURS_1882["QLL"], "#ffffff"),
        CorporationStatus("SC", "Saskatchewan Central", "Chandra", 205, ("D",), 0, 1, 76, 40, 0, True, 310,
                          CORP_COLOURS_1882["SC"], "#ffffff"),
        CorporationStatus("CN", "Canadian National", "Dmitri", 60, (), 0, 0, 76, 50, 0, False, None,
                          CORP_COLOURS_1882["CN"], "#1b1b1b"),
    )
    return StatusView(
        title="1882 Assiniboia",
        round_name="Operating Round 5.2",
        phase="5",
        phase_notes=("train limit 3", "yellow, green and brown tiles", "off-boards pay brown values",
                     "privates closed"),
        bank_cash=3120,
        players=players,
        corporations=corps,
        trains_available=(TrainStock("6", 630, 2), TrainStock("D", 1100, None)),
        pool_trains=("4",),
        acting=("Bob (HBR)",),
    )
