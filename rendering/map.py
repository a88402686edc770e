"""The board picture: hexes, terrain, rivers, track, stations, off-boards and the last moves.

>>> from engine.core.views import BoardView, HexView
>>> img = render_map(BoardView("demo", "flat", "rows", (HexView("A1", 0, 1, "white"),)))
>>> img.mode
'RGB'
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from PIL import Image

from engine.core.views import BoardView, HexView, NodeView
from rendering import theme
from rendering.canvas import Canvas, Colour
from rendering.geometry import (
    APOTHEM,
    NODE_OFFSET,
    HexLayout,
    NodePlace,
    NodeSpec,
    Orientation,
    Point,
    corner,
    edge_corners,
    edge_midpoint,
    edge_normal,
    edge_to_point,
    edge_towards,
    place_nodes,
    track_arc,
    track_curve,
)

__all__ = ["render_crop", "render_map"]

_At = Callable[[Point], Point]
_NORMALS = {o: [edge_normal(o, e) for e in range(6)] for o in ("flat", "pointy")}
_PHASE_ORDER = ("yellow", "green", "brown", "gray", "grey", "purple")
_ID = re.compile(r"^([A-Za-z]+)(-?\d+)$")


def render_map(view: BoardView, *, scale: float = 1.0, highlight: bool = True) -> Image.Image:
    """Draw the whole board.

    Args:
        view: the board snapshot.
        scale: output size factor; 1.0 draws hexes 144 px across (about 1500 px for 1882). The picture's long
            side is capped at ``theme.MAP_MAX_SIDE`` whatever the scale.
        highlight: overlay the last laid tile and the last routes (one colour per train).

    Returns:
        An RGB image.
    """
    if scale <= 0:
        raise ValueError(f"scale must be positive, not {scale}")
    layout = HexLayout(view.layout, theme.HEX_SIZE)
    centres = {h.id: layout.centre(h.row, h.col) for h in view.hexes}
    hw, hh = layout.half_extent()
    if centres:
        xs = [c[0] for c in centres.values()]
        ys = [c[1] for c in centres.values()]
        min_x, max_x, min_y, max_y = min(xs) - hw, max(xs) + hw, min(ys) - hh, max(ys) + hh
    else:
        min_x, max_x, min_y, max_y = 0.0, 4 * hw, 0.0, 2 * hh
    width = max(max_x - min_x + 2 * theme.MAP_MARGIN, 640.0)
    height = max_y - min_y + 2 * theme.MAP_MARGIN + theme.MAP_HEADER + theme.MAP_FOOTER
    ox = (width - (max_x - min_x)) / 2 - min_x
    oy = theme.MAP_HEADER + theme.MAP_MARGIN - min_y
    centres = {k: (x + ox, y + oy) for k, (x, y) in centres.items()}

    # A board as big as 1822's would come out near 3000 px tall: capped, it draws and uploads faster, and
    # chat clients show it no smaller (crowded hexes have their inset).
    scale = min(scale, theme.MAP_MAX_SIDE / max(width, height))
    canvas = Canvas(width, height, scale=scale)
    ctx = _Ctx(view, layout, canvas, theme.currency_sign(view.currency))

    _draw_header(ctx, width)
    _draw_board(ctx, centres, highlight)
    _draw_coordinates(ctx, centres, (min_x + ox, max_x + ox, min_y + oy, max_y + oy))
    _draw_insets(ctx, centres, width)
    if highlight:
        _draw_route_legend(ctx, height)
    if view.highlight_hexes:
        _draw_lay_key(ctx, width, height)
    return canvas.finish()


def _draw_board(ctx: _Ctx, centres: dict[str, Point], highlight: bool) -> None:
    """The hexes of ``ctx.view`` at ``centres``: terrain, track, runs, stations, labels and the highlights."""
    view, layout, canvas = ctx.view, ctx.layout, ctx.canvas
    for h in view.hexes:
        canvas.polygon(layout.polygon(centres[h.id]), fill=theme.hex_fill(h.colour), outline=theme.GRID_LINE,
                       width=1.2)
    _draw_hexsides(ctx, centres)
    # River crossing costs sit on the hex sides, half in each hex: both hexes keep their labels
    # clear of them.
    costs = _hexside_costs(ctx, centres)
    obstacles: dict[str, list[_Box]] = {}
    for label in costs:
        for hex_id in label.hexes:
            obstacles.setdefault(hex_id, []).append(label.box)
    plans = [_plan_hex(ctx, h, centres[h.id], obstacles.get(h.id, ())) for h in view.hexes]
    for plan in plans:
        _draw_track(ctx, plan)
    # The last runs go over the track but under the stations and revenues, which stay readable.
    if highlight:
        _draw_route_lines(ctx, centres)
    for plan in plans:
        _draw_hex_top(ctx, plan)
    if highlight and view.last_tile_hex is not None and view.last_tile_hex in centres:
        c = centres[view.last_tile_hex]
        canvas.polygon(layout.polygon(c, 0.94), outline=theme.HIGHLIGHT_TILE, width=4.5)
    for hex_id in view.highlight_hexes:
        if hex_id in centres:
            canvas.polygon(layout.polygon(centres[hex_id], 0.88), outline=theme.HIGHLIGHT_LAY, width=3.5)
    for label in costs:
        _draw_hexside_cost(ctx, label)


# ----------------------------------------------------------------------------- phone crops

#: The width at which a phone shows a chat picture, and the smallest text height that reads there.
PHONE_WIDTH = 400.0
PHONE_MIN_TEXT = 11.0
CROP_WINDOW = 360.0  # hex area of a crop around one hex, logical pixels (about three hexes across)
CROP_MARGIN = 20.0  # coordinate band on each side
CROP_HEADER = 34.0


#: Hexes drawn this many times larger in a crop that shows a crowded hex (1822's London), as in its inset.
CROP_CROWDED_ZOOM = 2.0


def crop_layout(view: BoardView, focus: Sequence[str]) -> HexLayout:
    """Hexes at the map's size, or larger around a crowded hex so that its cities and numbers have room."""
    crowded = {h.id for h in crowded_hexes(view)}
    zoom = CROP_CROWDED_ZOOM if crowded & set(focus) else 1.0
    return HexLayout(view.layout, theme.HEX_SIZE * zoom)


def crop_window(view: BoardView, focus: Sequence[str]) -> tuple[float, float, float, float]:
    """The board area (x0, y0, x1, y1 in the crop's board coordinates) a crop around ``focus`` shows.

    Raises:
        ValueError: none of ``focus`` is on the board.
    """
    layout = crop_layout(view, focus)
    pts = [layout.centre(h.row, h.col) for h in view.hexes if h.id in set(focus)]
    if not pts:
        raise ValueError(f"no hex {', '.join(focus)} on the map")
    hw, hh = layout.half_extent()
    fx0, fx1 = min(p[0] for p in pts) - hw * 1.4, max(p[0] for p in pts) + hw * 1.4
    fy0, fy1 = min(p[1] for p in pts) - hh * 1.4, max(p[1] for p in pts) + hh * 1.4
    w, h = max(CROP_WINDOW, fx1 - fx0), max(CROP_WINDOW, fy1 - fy0)
    if len(pts) == 1 and layout.size > theme.HEX_SIZE:  # the crowded hex alone, as large as fits
        w = h = max(w, h)
    cx, cy = (fx0 + fx1) / 2, (fy0 + fy1) / 2
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def render_crop(view: BoardView, focus: Sequence[str], *, scale: float = 2.0, highlight: bool = True,
                caption: str = "") -> Image.Image:
    """The part of the map around the hexes ``focus`` (a tile just laid, a station, a company's network), for a
    phone: every text is at least ``PHONE_MIN_TEXT`` pixels high once the picture is shown ``PHONE_WIDTH`` wide.

    Only the hexes in the window are drawn, so a crop costs a fraction of the whole map. ``scale`` sets the
    output size (2.0: about 800 px across, sharp on a phone's dense screen).

    Raises:
        ValueError: none of ``focus`` is on the board.
    """
    return _draw_crop(view, focus, scale, highlight, caption).finish()


def smallest_crop_text(view: BoardView, focus: Sequence[str]) -> float:
    """The height in pixels of the smallest text inside a crop around ``focus`` shown ``PHONE_WIDTH`` wide."""
    canvas = _draw_crop(view, focus, 1.0, True, "")
    width, height = canvas.out_size
    inside = [size for size, (x, y) in canvas.texts if 0 <= x <= width and 0 <= y <= height]
    return min(inside) * PHONE_WIDTH / width


def _draw_crop(view: BoardView, focus: Sequence[str], scale: float, highlight: bool, caption: str) -> Canvas:
    x0, y0, x1, y1 = crop_window(view, focus)
    layout = crop_layout(view, focus)
    hw, hh = layout.half_extent()
    kept = tuple(h for h in view.hexes
                 if x0 - hw <= layout.centre(h.row, h.col)[0] <= x1 + hw
                 and y0 - hh <= layout.centre(h.row, h.col)[1] <= y1 + hh)
    sub = replace(view, hexes=kept)
    width = x1 - x0 + 2 * CROP_MARGIN
    height = y1 - y0 + 2 * CROP_MARGIN + CROP_HEADER
    ox, oy = CROP_MARGIN - x0, CROP_HEADER + CROP_MARGIN - y0
    centres = {h.id: (layout.centre(h.row, h.col)[0] + ox, layout.centre(h.row, h.col)[1] + oy) for h in kept}
    canvas = Canvas(width, height, scale=scale, min_text=PHONE_MIN_TEXT * width / PHONE_WIDTH)
    ctx = _Ctx(sub, layout, canvas, theme.currency_sign(view.currency))
    _draw_board(ctx, centres, highlight)
    # The bands round the window cover the hexes cut by its edge and carry the coordinates.
    inner = (CROP_MARGIN, CROP_HEADER + CROP_MARGIN, width - CROP_MARGIN, height - CROP_MARGIN)
    for band in ((0, 0, width, inner[1]), (0, inner[3], width, height), (0, 0, inner[0], height),
                 (inner[2], 0, width, height)):
        canvas.rect(band, fill=theme.BACKGROUND)
    canvas.rect((0, 0, width, CROP_HEADER), fill=theme.PANEL)
    names = [crowded_title(h, ctx.currency) if _crowded(h) else f"{h.name} ({h.id})" if h.name else h.id
             for h in kept if h.id in set(focus)]
    canvas.text((10, CROP_HEADER / 2 + 1), caption or f"{view.title}: around {', '.join(names)}",
                size=theme.FONT_TEXT, bold=True, anchor="lm")
    inside = {k: p for k, p in centres.items() if inner[0] <= p[0] <= inner[2] and inner[1] <= p[1] <= inner[3]}
    _draw_coordinates(replace(ctx, view=replace(sub, hexes=tuple(h for h in kept if h.id in inside))), inside,
                      (inner[0] + CROP_MARGIN / 2, inner[2] - CROP_MARGIN / 2,
                       inner[1] + CROP_MARGIN / 2, inner[3] - CROP_MARGIN / 2), size=theme.FONT_SMALL + 1)
    return canvas


# ----------------------------------------------------------------------------- insets

#: A hex with this many cities (1822's London has six) is drawn again, larger, in a corner of the map.
INSET_CITIES = 4
INSET_SCALE = 2.7


CROWDED_NODE_OFFSET = 0.6


def _crowded(h: HexView) -> bool:
    return sum(1 for n in h.nodes if n.kind == "city") >= INSET_CITIES


def crowded_title(h: HexView, currency: str) -> str:
    """The title over a crowded hex's inset or crop, with what the hex has no room for: its label (which tiles
    fit), its tile and the companies whose home there is still to be placed."""
    parts = [f"{h.name} ({h.id})" if h.name else h.id]
    if h.label:
        parts.append(f"label {h.label}")
    if h.tile:
        parts.append(f"tile {h.tile}")
    if h.home_reserved:
        parts.append(f"home of {', '.join(h.home_reserved)} to come")
    if h.terrain_cost:
        parts.append(f"{h.terrain_kind or 'terrain'} {currency}{h.terrain_cost}")
    return " · ".join(parts)


def crowded_hexes(view: BoardView) -> list[HexView]:
    """Hexes too full to read at the map's scale: their cities, stations and numbers get an inset."""
    return [h for h in view.hexes if _crowded(h)]


def _draw_insets(ctx: _Ctx, centres: dict[str, Point], width: float) -> None:
    """Each crowded hex enlarged in a framed box at the top right (1822's corner is open sea), tied to its
    place on the map by a frame of the same colour."""
    c = ctx.canvas
    right = width - theme.MAP_MARGIN - 8
    top = float(theme.MAP_HEADER + theme.MAP_MARGIN + 8)
    for h in crowded_hexes(ctx.view):
        layout = HexLayout(ctx.view.layout, theme.HEX_SIZE * INSET_SCALE)
        hw, hh = layout.half_extent()
        box = (right - 2 * hw - 24, top, right, top + 2 * hh + 52)
        c.rect(box, fill="#ffffff", outline=theme.INSET_FRAME, width=3, radius=10)
        title = crowded_title(h, ctx.currency)
        size = theme.FONT_TEXT + 2
        while size > theme.FONT_SMALL and c.text_width(title, size=size, bold=True) > box[2] - box[0] - 12:
            size -= 1
        c.text(((box[0] + box[2]) / 2, top + 20), title, size=size, bold=True)
        centre = ((box[0] + box[2]) / 2, top + 40 + hh)
        c.polygon(layout.polygon(centre), fill=theme.hex_fill(h.colour), outline=theme.GRID_LINE, width=1.5)
        inset = _Ctx(ctx.view, layout, c, ctx.currency)
        plan = _plan_hex(inset, replace(h, name=""), centre, ())
        _draw_track(inset, plan)
        _draw_hex_top(inset, plan)
        if h.id in centres:
            c.polygon(ctx.layout.polygon(centres[h.id], 0.97), outline=theme.INSET_FRAME, width=3)
        top = box[3] + 12


# ----------------------------------------------------------------------------- context


@dataclass(slots=True)
class _Ctx:
    view: BoardView
    layout: HexLayout
    canvas: Canvas
    currency: str

    @property
    def o(self) -> Orientation:
        return self.layout.orientation

    @property
    def size(self) -> float:
        return self.layout.size


def _split_id(hex_id: str) -> tuple[str, str]:
    m = _ID.match(hex_id)
    return (m.group(1), m.group(2)) if m else (hex_id, "")


# ----------------------------------------------------------------------------- header, coords


def _draw_header(ctx: _Ctx, width: float) -> None:
    c = ctx.canvas
    y = theme.MAP_HEADER / 2 + 2
    c.rect((0, 0, width, theme.MAP_HEADER), fill=theme.PANEL)
    c.text((theme.MAP_MARGIN, y), ctx.view.title, size=theme.FONT_HEADER, bold=True, anchor="lm")
    # Right side: tile colours of the phase and the off-board value in force.
    x = width - theme.MAP_MARGIN
    off = ctx.view.current_offboard_colour
    x = _swatch_right(c, x, y, off) - 6
    c.text((x, y), "Off-boards:", size=theme.FONT_TEXT, fill=theme.MUTED, anchor="rm")
    x -= c.text_width("Off-boards:", size=theme.FONT_TEXT) + 22
    for colour in reversed(ctx.view.phase_colours):
        x = _swatch_right(c, x, y, colour) - 4
    c.text((x - 2, y), "Tiles:", size=theme.FONT_TEXT, fill=theme.MUTED, anchor="rm")


def _swatch_right(c: Canvas, right: float, y: float, colour: str) -> float:
    """A small tile-colour chip ending at ``right``; returns its left edge."""
    w = 34.0
    c.rect((right - w, y - 9, right, y + 9), fill=theme.hex_fill(colour), outline=theme.INK, width=1,
           radius=4)
    c.text((right - w / 2, y), colour[:3], size=theme.FONT_SMALL, bold=True,
           fill=theme.readable_on(theme.hex_fill(colour)))
    return right - w


def _draw_coordinates(
    ctx: _Ctx, centres: dict[str, Point], bounds: tuple[float, float, float, float], size: float = theme.FONT_COORD
) -> None:
    c = ctx.canvas
    min_x, max_x, min_y, max_y = bounds
    letters_rows = ctx.view.letters == "rows"
    rows: dict[int, tuple[str, float]] = {}
    cols: dict[int, tuple[str, float]] = {}
    for h in ctx.view.hexes:
        letters, digits = _split_id(h.id)
        x, y = centres[h.id]
        rows[h.row] = (letters if letters_rows else digits, y)
        cols[h.col] = (digits if letters_rows else letters, x)
    m = theme.MAP_MARGIN / 2
    for label, y in rows.values():
        for x in (min_x - m, max_x + m):
            c.text((x, y), label, size=size, bold=True, fill=theme.MUTED)
    for label, x in cols.values():
        for y in (min_y - m, max_y + m):
            c.text((x, y), label, size=size, bold=True, fill=theme.MUTED)


# ----------------------------------------------------------------------------- hexsides


def _hexside_geometry(ctx: _Ctx, centres: dict[str, Point], a: str, b: str) -> tuple[Point, Point] | None:
    if a not in centres or b not in centres:
        return None
    ca, cb = centres[a], centres[b]
    edge = edge_towards(ctx.o, ca, cb)
    p, q = edge_corners(ctx.o, edge)
    return ctx.layout.to_board(ca, p), ctx.layout.to_board(ca, q)


def _draw_hexsides(ctx: _Ctx, centres: dict[str, Point]) -> None:
    for side in ctx.view.hexsides:
        ends = _hexside_geometry(ctx, centres, side.a, side.b)
        if ends is None:
            continue
        p, q = ends
        inset = 0.06
        p2 = (p[0] + (q[0] - p[0]) * inset, p[1] + (q[1] - p[1]) * inset)
        q2 = (q[0] + (p[0] - q[0]) * inset, q[1] + (p[1] - q[1]) * inset)
        if side.kind == "impassable":
            ctx.canvas.line([p2, q2], theme.IMPASSABLE, ctx.size * 0.12, round_ends=True)
        else:
            ctx.canvas.line([p2, q2], theme.WATER, ctx.size * 0.085, round_ends=True)


def _track_edges(h: HexView) -> set[int]:
    out: set[int] = set()
    for p in h.paths:
        for end in (p.a, p.b):
            parsed = _parse_end(end)
            if parsed is not None and parsed[0] == "e":
                out.add(parsed[1] % 6)
    return out


_Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True, slots=True)
class _CostLabel:
    text: str
    colour: str
    box: _Box  # board coordinates
    hexes: tuple[str, str]


def _hexside_costs(ctx: _Ctx, centres: dict[str, Point]) -> list[_CostLabel]:
    """Where each unpaid crossing cost goes: a pill on the middle of its hex side."""
    by_id = {h.id: h for h in ctx.view.hexes}
    out: list[_CostLabel] = []
    for side in ctx.view.hexsides:
        if side.cost <= 0:
            continue
        ends = _hexside_geometry(ctx, centres, side.a, side.b)
        if ends is None:
            continue
        # Once track crosses from both sides the crossing has been paid for: only the river stays.
        ea = edge_towards(ctx.o, centres[side.a], centres[side.b])
        track_a = ea in _track_edges(by_id[side.a])
        track_b = (ea + 3) % 6 in _track_edges(by_id[side.b])
        if track_a and track_b:
            continue
        p, q = ends
        # The middle of the side is where track would cross, so it is free while the cost is
        # unpaid; a view that still shows a cost beside track on one side gets it off-centre.
        t = 0.25 if track_a or track_b else 0.5
        x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        text = f"{ctx.currency}{side.cost}"
        w = ctx.canvas.text_width(text, size=theme.FONT_SMALL, condensed=True) + 8
        h = theme.FONT_SMALL + 5
        colour = theme.IMPASSABLE if side.kind == "impassable" else theme.WATER
        out.append(_CostLabel(text, colour, (x - w / 2, y - h / 2, x + w / 2, y + h / 2), (side.a, side.b)))
    return out


def _draw_hexside_cost(ctx: _Ctx, label: _CostLabel) -> None:
    x0, y0, x1, y1 = label.box
    ctx.canvas.rect(label.box, fill=label.colour, outline="#ffffff", width=1.2, radius=(y1 - y0) / 2)
    ctx.canvas.text(((x0 + x1) / 2, (y0 + y1) / 2), label.text, size=theme.FONT_SMALL, condensed=True,
                    fill=theme.WATER_TEXT)


# ----------------------------------------------------------------------------- free-spot finder


@dataclass(slots=True)
class _Spots:
    """Obstacles inside one unit hex, to put labels where they cover the least."""

    o: Orientation
    circles: list[tuple[float, float, float, float]] = field(default_factory=list)  # x, y, r, weight
    rects: list[tuple[float, float, float, float]] = field(default_factory=list)

    def add_circle(self, x: float, y: float, r: float, weight: float = 40.0) -> None:
        """A node or marker: covering it is much worse than covering track."""
        self.circles.append((x, y, r, weight))

    def add_polyline(self, pts: Sequence[Point], r: float) -> None:
        step = max(1, len(pts) // 6)
        for x, y in [*list(pts[::step]), pts[-1]]:
            self.circles.append((x, y, r, 1.0))

    def inside(self, box: tuple[float, float, float, float], margin: float = 0.03) -> bool:
        x0, y0, x1, y1 = box
        lim = APOTHEM - margin
        for nx, ny in _NORMALS[self.o]:
            if (x1 * nx if nx > 0 else x0 * nx) + (y1 * ny if ny > 0 else y0 * ny) > lim:
                return False
        return True

    def cost(self, box: tuple[float, float, float, float]) -> float:
        x0, y0, x1, y1 = box
        total = 0.0
        for cx, cy, r, weight in self.circles:
            if cx + r <= x0 or cx - r >= x1 or cy + r <= y0 or cy - r >= y1:
                continue
            dx = x0 - cx if cx < x0 else (cx - x1 if cx > x1 else 0.0)
            dy = y0 - cy if cy < y0 else (cy - y1 if cy > y1 else 0.0)
            d = math.sqrt(dx * dx + dy * dy)
            if d < r:
                total += (r - d) * weight
        for rx0, ry0, rx1, ry1 in self.rects:
            ix = min(x1, rx1) - max(x0, rx0)
            iy = min(y1, ry1) - max(y0, ry0)
            if ix > 0 and iy > 0:
                total += 60 * ix * iy / max(1e-6, min(ry1 - ry0, y1 - y0)) + 3.0
        return total

    def best(
        self, w: float, h: float, candidates: Sequence[Point], *, margin: float = 0.03
    ) -> tuple[Point, float]:
        """Centre and cost of the least covered ``w`` x ``h`` box among ``candidates`` (first wins
        ties), without taking it."""
        best: Point | None = None
        best_cost = math.inf
        for i, (x, y) in enumerate(candidates):
            box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            if not self.inside(box, margin):
                continue
            cost = self.cost(box) + i * 1e-3
            if cost < best_cost:
                best, best_cost = (x, y), cost
                if cost < 1e-2:
                    break
        if best is None:
            return candidates[0], math.inf
        return best, best_cost

    def take(self, p: Point, w: float, h: float) -> Point:
        self.rects.append((p[0] - w / 2, p[1] - h / 2, p[0] + w / 2, p[1] + h / 2))
        return p

    def place(self, w: float, h: float, candidates: Sequence[Point], *, margin: float = 0.03) -> Point:
        """Take the least covered ``w`` x ``h`` box among ``candidates`` and return its centre."""
        return self.take(self.best(w, h, candidates, margin=margin)[0], w, h)


def _edge_spots(o: Orientation, dist: float) -> list[Point]:
    """Points ``dist`` from the centre toward the middle of each side."""
    return [(x * dist, y * dist) for x, y in _NORMALS[o]]


def _corner_spots(o: Orientation, dist: float, order: Sequence[int]) -> list[Point]:
    pts = []
    for i in order:
        x, y = corner(o, i)
        pts.append((x * dist, y * dist))
    return pts


# ----------------------------------------------------------------------------- one hex


@dataclass(slots=True)
class _Track:
    points: list[Point]
    ends: frozenset[str]
    stub: bool = False  # off-board arrow
    edges: tuple[int, int] | None = None  # edge-to-edge track (drawn as one arc or line)


def _parse_end(end: str) -> tuple[str, int] | None:
    if len(end) >= 2 and end[0] in "en" and end[1:].isdigit():
        return end[0], int(end[1:])
    return None


@dataclass(slots=True)
class _HexPlan:
    """One hex between the drawing passes: where its nodes and track go, and what is taken."""

    h: HexView
    centre: Point
    places: dict[int, NodePlace]
    tracks: list[_Track]
    spots: _Spots

    def at(self, p: Point, size: float) -> Point:
        return (self.centre[0] + p[0] * size, self.centre[1] + p[1] * size)


def _plan_hex(ctx: _Ctx, h: HexView, centre: Point, obstacles: Sequence[_Box]) -> _HexPlan:
    o, size = ctx.o, ctx.size
    nodes = {n.index: n for n in h.nodes}
    node_edges: dict[int, list[int]] = {i: [] for i in nodes}
    linked: set[int] = set()
    edge_pairs: list[tuple[int, int]] = []
    node_pairs: list[tuple[int, int]] = []
    for path in h.paths:
        a, b = _parse_end(path.a), _parse_end(path.b)
        if a is None or b is None:
            continue
        if a[0] == "n" and b[0] == "e":
            a, b = b, a
        if a[0] == "e" and b[0] == "e":
            if a[1] % 6 != b[1] % 6:
                edge_pairs.append((a[1] % 6, b[1] % 6))
        elif a[0] == "e" and b[1] in nodes:
            node_edges[b[1]].append(a[1] % 6)
        elif a[0] == "n" and b[0] == "n" and a[1] in nodes and b[1] in nodes:
            node_pairs.append((a[1], b[1]))
            linked.update((a[1], b[1]))

    specs = [NodeSpec(n.index, n.kind, tuple(node_edges[n.index]), n.index in linked) for n in h.nodes]
    # A crowded hex's cities go further out, clear of each other, leaving the middle to their numbers and revenue.
    places = place_nodes(o, specs, CROWDED_NODE_OFFSET if _crowded(h) else NODE_OFFSET)

    tracks: list[_Track] = []
    for ea, eb in edge_pairs:
        tracks.append(_Track(track_curve(o, ea, eb), frozenset((f"e{ea}", f"e{eb}")), edges=(ea, eb)))
    for n in h.nodes:
        place = places[n.index]
        node_end = f"n{n.index}"
        if place.through is not None:
            ea, eb = place.through
            ends = frozenset((f"e{ea}", f"e{eb}", node_end))
            tracks.append(_Track(track_curve(o, ea, eb), ends, edges=(ea, eb)))
            continue
        for e in node_edges[n.index]:
            if n.kind == "offboard":
                mid = edge_midpoint(o, e)
                tracks.append(_Track([mid, (mid[0] * 0.42, mid[1] * 0.42)], frozenset((f"e{e}",)), stub=True))
            else:
                pts = edge_to_point(o, e, (place.x, place.y))
                tracks.append(_Track(pts, frozenset((f"e{e}", node_end))))
    for na, nb in node_pairs:
        pa, pb = places[na], places[nb]
        tracks.append(_Track([(pa.x, pa.y), (pb.x, pb.y)], frozenset((f"n{na}", f"n{nb}"))))

    spots = _Spots(o)
    for t in tracks:
        spots.add_polyline(t.points, theme.TRACK_WIDTH / 2 + 0.03)
    for x0, y0, x1, y1 in obstacles:
        spots.rects.append(((x0 - centre[0]) / size, (y0 - centre[1]) / size,
                            (x1 - centre[0]) / size, (y1 - centre[1]) / size))
    for n in h.nodes:
        place = places[n.index]
        if n.kind == "city" and n.slots == 2:
            # A two-slot city is a pill, twice as wide as tall: one circle round it would claim
            # the free space above and below it.
            r = theme.CITY_RADIUS
            spots.add_circle(place.x - r, place.y, r)
            spots.add_circle(place.x + r, place.y, r)
            spots.add_circle(place.x, place.y, r)
        elif n.kind == "city":
            spots.add_circle(place.x, place.y, _city_extent(n))
        elif n.kind == "town":
            spots.add_circle(place.x, place.y, 0.17)
    return _HexPlan(h, centre, places, tracks, spots)


def _draw_track(ctx: _Ctx, plan: _HexPlan) -> None:
    """Track, with a gap cut under a later track that crosses an earlier one (a bridge)."""
    o, size, c = ctx.o, ctx.size, ctx.canvas
    fill = theme.hex_fill(plan.h.colour)

    def at(p: Point) -> Point:
        return plan.at(p, size)

    tw = theme.TRACK_WIDTH
    drawn: list[_Track] = []
    for t in plan.tracks:
        if any(_crosses(t, d) for d in drawn):
            _stroke_track(c, o, t, at, plan.centre, size, fill, tw * 2.2)
        _stroke_track(c, o, t, at, plan.centre, size, theme.TRACK, tw)
        if t.stub:
            _arrow_head(c, t.points[-1], t.points[0], at, size, theme.TRACK)
        drawn.append(t)


def _draw_hex_top(ctx: _Ctx, plan: _HexPlan) -> None:
    """Everything above the track: stations, revenues, names, labels and markers."""
    o, size, c = ctx.o, ctx.size, ctx.canvas
    h, places, spots = plan.h, plan.places, plan.spots
    fill = theme.hex_fill(h.colour)
    text_colour = theme.hex_text(h.colour)

    def at(p: Point) -> Point:
        return plan.at(p, size)

    city_nodes = [n.index for n in h.nodes if n.kind == "city"]
    for n in h.nodes:
        place = places[n.index]
        if n.kind == "city":
            _draw_city(ctx, n, at((place.x, place.y)))
        elif n.kind == "town":
            _draw_town(c, place, at, size)
    if len(city_nodes) > 1:
        # `token HEX N` numbers a hex's cities in node order; show N beside each city, over all the cities
        # (in a crowded hex a neighbour would cover it). A crowded hex has its numbers on the inner rim of their
        # own circles, in the ring its cities leave free in the middle, where the labels then keep clear of them.
        for n in h.nodes:
            if n.kind == "city":
                place = places[n.index]
                number = city_nodes.index(n.index) + 1
                if _crowded(h):
                    p = _inner_rim(place)
                    spots.add_circle(p[0], p[1], CITY_NUMBER_RADIUS, weight=60.0)
                    _number_badge(ctx, at(p), number)
                else:
                    bx, by, br = _number_spot(n, place, size)
                    spots.add_circle(bx, by, br, weight=200.0)  # a label over it hides which city is which
                    _draw_city_number(ctx, n, at((bx, by)), number)

    # Labels go where they cover least, biggest first: the name (drawn last, over the track),
    # then revenues, which have many spots around their node, then corner markers.
    offboards = [n for n in h.nodes if n.kind == "offboard"]
    # A crowded hex's name is in the title of its inset (and of a crop around it): the middle is for its revenue.
    named = bool(h.name) and not _crowded(h)
    if h.blocked_by:
        # A private's blocker and a terrain cost have few places they fit, the name (which may shrink or wrap)
        # many: they go first.
        _draw_blocked(ctx, h.blocked_by, spots, at)
    if (h.terrain_cost or h.terrain_kind) and not _crowded(h):
        _draw_terrain(ctx, h, spots, at, fill)
    name_at = _place_name(ctx, h.name, spots) if named and not offboards else None
    earning = [n for n in h.nodes if n.kind in ("city", "town") and n.revenue > 0]
    cities = [n for n in earning if n.kind == "city"]
    if len(cities) > 1 and len({n.revenue for n in earning}) == 1:
        # Two or more cities paying the same (OO tiles): one value for the tile, as printed.
        _draw_shared_revenue(ctx, earning[0].revenue, [places[n.index] for n in earning], spots, at)
    else:
        for n in earning:
            _draw_revenue(ctx, n, places[n.index], spots, at)
    if offboards:
        _draw_offboard_values(ctx, offboards[0], spots, at, text_colour)
        if named:
            name_at = _place_name(ctx, h.name, spots)
    crowded = _crowded(h)  # its label, tile and homes to come are in the title of its inset or crop
    for sym in () if crowded else h.home_reserved:
        # A home somewhere in the hex, its city still to be chosen: a faint ring of its own, off
        # the cities (smaller than a token, so it does not read as a third city).
        r = theme.CITY_RADIUS * 0.72
        p = spots.place(2 * r + 0.03, 2 * r + 0.03, [(0.0, 0.0), *_ANYWHERE], margin=0.02)
        _draw_reserved(ctx, at(p), r * size, sym)

    # Label, terrain, markers.
    if h.label and not crowded:
        lw = c.text_width(h.label, size=theme.FONT_LABEL, bold=True) / size + 0.06
        lh = theme.FONT_LABEL / size + 0.04
        p = spots.place(lw, lh, [*_corner_spots(o, 0.6, (2, 3, 4, 1, 5, 0)), *_corner_spots(o, 0.72, (3, 0)),
                                  *_ANYWHERE, *_corner_spots(o, 0.8, range(6))])
        c.text(at(p), h.label, size=theme.FONT_LABEL, bold=True, fill=text_colour, stroke=1.5,
               stroke_fill=fill)
    if h.markers or h.passable_only_by is not None:
        _draw_markers(ctx, h, spots, at)
    for sym in h.destinations:
        _draw_destination(ctx, sym, spots, at)
    if "nwr" in h.tags:
        nw = c.text_width("NWR", size=theme.FONT_SMALL, condensed=True) / size + 0.1
        nh = (theme.FONT_SMALL + 5) / size
        p = spots.place(nw, nh, _corner_spots(o, 0.6, (3, 2, 4, 1, 5, 0)) + _ANYWHERE)
        box = (at((p[0] - nw / 2, p[1] - nh / 2)), at((p[0] + nw / 2, p[1] + nh / 2)))
        c.rect((box[0][0], box[0][1], box[1][0], box[1][1]), fill="#fff7f0", outline=theme.NWR, width=1.2,
               radius=3)
        c.text(at(p), "NWR", size=theme.FONT_SMALL, condensed=True, fill=theme.NWR)
    if h.bonus:
        # A bonus hex (1862): its extra revenue by phase colour, as "+20/30".
        text = "+" + "/".join(str(v) for _colour, v in h.bonus)
        bw = c.text_width(text, size=theme.FONT_SMALL, condensed=True) / size + 0.1
        bh = (theme.FONT_SMALL + 5) / size
        p = spots.place(bw, bh, _corner_spots(o, 0.6, (0, 5, 1, 4, 2, 3)) + _ANYWHERE)
        box = (at((p[0] - bw / 2, p[1] - bh / 2)), at((p[0] + bw / 2, p[1] + bh / 2)))
        c.rect((box[0][0], box[0][1], box[1][0], box[1][1]), fill="#fffbe6", outline=theme.INK, width=1.0,
               radius=3)
        c.text(at(p), text, size=theme.FONT_SMALL, condensed=True, fill=theme.INK)
    if "fishing" in h.tags:
        p = spots.place(0.5, 0.3, [(0.0, 0.45), (0.0, -0.45), *_corner_spots(o, 0.55, range(6))])
        _draw_fish(c, at(p), size)
    if h.tile and not crowded:
        tw_ = c.text_width(h.tile, size=theme.FONT_TILE) / size + 0.04
        th = theme.FONT_TILE / size + 0.02
        # Last, the corners' very tips: in a crowded hex (London) they are all that is left between the cities.
        spots_for_number = _corner_spots(o, 0.72, (1, 0, 2, 5, 3, 4)) + _ANYWHERE + _corner_spots(o, 0.82, range(6))
        p = spots.place(tw_, th, spots_for_number, margin=0.01)
        c.text(at(p), h.tile, size=theme.FONT_TILE, fill=theme.mix(text_colour, fill, 0.2))
    if name_at is not None:
        _draw_name(ctx, name_at, at, text_colour, fill)


def _ring_spots(x: float, y: float, radii: Sequence[float], count: int = 12) -> list[Point]:
    """Candidate centres on rings around (x, y), the centre itself first when a radius is 0."""
    out: list[Point] = []
    for rad in radii:
        if rad == 0:
            out.append((x, y))
            continue
        for i in range(count):
            ang = -math.pi / 2 + 2 * math.pi * i / count
            out.append((x + math.cos(ang) * rad, y + math.sin(ang) * rad))
    return out


# The fallback for small labels in a crowded hex: anywhere, the rim first (where nothing else goes).
_ANYWHERE = _ring_spots(0.0, 0.0, (0.66, 0.58, 0.5, 0.42, 0.34, 0.26, 0.18), 18)


def _stroke_track(
    c: Canvas, o: Orientation, t: _Track, at: _At, centre: Point, size: float, colour: Colour, width: float
) -> None:
    if t.edges is not None:
        arc = track_arc(o, *t.edges)
        if arc is not None:
            start, end = arc.degrees_clockwise()
            c.arc(at((arc.cx, arc.cy)), arc.radius * size, start, end, colour, size * width)
        else:
            c.line([at(t.points[0]), at(t.points[-1])], colour, size * width)
        return
    c.line([at(p) for p in t.points], colour, size * width)


def _crosses(a: _Track, b: _Track) -> bool:
    """Two edge-to-edge tracks cross when their ends interleave around the hex."""
    if a.edges is None or b.edges is None or a.ends & b.ends:
        return False
    lo, hi = sorted(a.edges)
    inside = [lo < e < hi for e in b.edges]
    return inside[0] != inside[1]


def _arrow_head(c: Canvas, tip: Point, tail: Point, at: _At, size: float, colour: Colour) -> None:
    ang = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    length, half = 0.2, 0.13
    base = (tip[0] - math.cos(ang) * length * 0.4, tip[1] - math.sin(ang) * length * 0.4)
    front = (base[0] + math.cos(ang) * length, base[1] + math.sin(ang) * length)
    left = (base[0] + math.cos(ang + math.pi / 2) * half, base[1] + math.sin(ang + math.pi / 2) * half)
    right = (base[0] - math.cos(ang + math.pi / 2) * half, base[1] - math.sin(ang + math.pi / 2) * half)
    c.polygon([at(front), at(left), at(right)], fill=colour)


# ----------------------------------------------------------------------------- nodes


def _slot_offsets(slots: int) -> list[Point]:
    """Centres of a city's token slots, in units of the slot radius."""
    if slots <= 1:
        return [(0.0, 0.0)]
    if slots == 2:
        return [(-1.0, 0.0), (1.0, 0.0)]
    if slots == 3:
        return [(-1.0, 0.58), (1.0, 0.58), (0.0, -1.15)]
    if slots == 4:
        return [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
    rad = 1.0 / math.sin(math.pi / slots)
    angles = [-math.pi / 2 + 2 * math.pi * i / slots for i in range(slots)]
    return [(math.cos(a) * rad, math.sin(a) * rad) for a in angles]


def _city_extent(n: NodeView) -> float:
    r = theme.CITY_RADIUS
    offs = _slot_offsets(max(1, n.slots))
    return r * (1 + max(math.hypot(x, y) for x, y in offs))


def _draw_city(ctx: _Ctx, n: NodeView, centre: Point) -> None:
    c, size = ctx.canvas, ctx.size
    r = theme.CITY_RADIUS * size
    slots = max(1, n.slots)
    offs = _slot_offsets(slots)
    line_w = size * 0.03
    if slots == 2:
        box = (centre[0] - 2 * r, centre[1] - r, centre[0] + 2 * r, centre[1] + r)
        c.rect(box, fill=theme.CITY_FILL, outline=theme.INK, width=line_w, radius=r)
    elif slots > 2:
        hull = r * (1 + max(math.hypot(x, y) for x, y in offs))
        c.circle(centre, hull, fill=theme.CITY_FILL, outline=theme.INK, width=line_w)
    for i, (dx, dy) in enumerate(offs):
        p = (centre[0] + dx * r, centre[1] + dy * r)
        c.circle(p, r, fill=theme.CITY_FILL, outline=theme.INK, width=line_w)
        token = n.tokens[i] if i < len(n.tokens) else None
        reserved = n.reserved[i] if i < len(n.reserved) else None
        kind = n.token_kinds[i] if i < len(n.token_kinds) else ""
        if token and kind == "blocking":
            _draw_blocking(ctx, p, r * 0.86)
        elif token:
            _draw_token(ctx, p, r * 0.86, token, destination=kind == "destination")
        elif reserved:
            _draw_reserved(ctx, p, r * 0.8, reserved)


CITY_NUMBER_RADIUS = 0.11  # of a crowded hex's city-number badge, in hex sizes


def _inner_rim(place: NodePlace) -> Point:
    """Where a crowded hex's city number goes: on its city's rim, on the side facing the middle of the hex."""
    d = math.hypot(place.x, place.y) or 1.0
    inward = theme.CITY_RADIUS * 0.95
    return (place.x - place.x / d * inward, place.y - place.y / d * inward)


def _number_badge(ctx: _Ctx, p: Point, number: int) -> None:
    r = CITY_NUMBER_RADIUS * ctx.size
    ctx.canvas.circle(p, r, fill=theme.INK, outline="#ffffff", width=1.2)
    ctx.canvas.text(p, str(number), size=max(theme.FONT_SMALL, r * 1.2), bold=True, fill="#ffffff")


def _number_spot(n: NodeView, place: NodePlace, size: float) -> tuple[float, float, float]:
    """Centre and radius (unit hex) of a city's number: touching its own circle at the left, above it, or below
    it for a city in the lower half (away from the hex's middle, where the labels go)."""
    r = theme.CITY_RADIUS
    wide = 2.0 if n.slots == 2 else _city_extent(n) / theme.CITY_RADIUS
    below = 1.0 if place.y > 0.05 else -1.0
    return (place.x - wide * r * 0.8, place.y + below * r * 1.05, min(r * 0.42, 13.0 / size))


def _draw_city_number(ctx: _Ctx, n: NodeView, p: Point, number: int) -> None:
    """City ``n``'s number in a dark disc centred on ``p`` (see :func:`_number_spot`)."""
    radius = _number_spot(n, NodePlace(0.0, 0.0), ctx.size)[2] * ctx.size
    ctx.canvas.circle(p, radius, fill=theme.INK)
    ctx.canvas.text(p, str(number), size=theme.FONT_SMALL, bold=True, fill="#ffffff")


def _shrinking(start: int, stop: int) -> range:
    return range(start, stop - 1, -1)


def _fit_font(c: Canvas, text: str, max_w: float, sizes: Sequence[int]) -> int:
    """The first size at which ``text`` (condensed bold) fits ``max_w``, else the smallest."""
    for s in sizes:
        if c.text_width(text, size=s, condensed=True) <= max_w:
            return s
    return sizes[-1]


def _draw_blocking(ctx: _Ctx, p: Point, r: float) -> None:
    """A blocking marker (1828: a merged company's second station in one city): a dark disc, crossed out."""
    c = ctx.canvas
    c.circle(p, r, fill=theme.INK, outline="#000000", width=1.2)
    d = r * 0.5
    for sx in (-1, 1):
        c.line([(p[0] - d, p[1] - sx * d), (p[0] + d, p[1] + sx * d)], "#ffffff", r * 0.22, round_ends=True)


def _draw_token(ctx: _Ctx, p: Point, r: float, sym: str, *, destination: bool = False) -> None:
    c = ctx.canvas
    if destination:  # 1822: the station a major reached as its destination, ringed in gold
        c.circle(p, r * 1.16, fill=theme.DESTINATION_RING)
    if sym == "CN":  # neutral station: grey with a double ring
        c.circle(p, r, fill=theme.NEUTRAL_TOKEN, outline=theme.INK, width=1.6)
        c.circle(p, r * 0.72, outline=theme.INK, width=0.8)
        colour = theme.INK
    else:
        fill = ctx.view.corporation_colours.get(sym, "#777777")
        colour = ctx.view.corporation_text_colours.get(sym) or theme.readable_on(fill)
        c.circle(p, r, fill=fill, outline=theme.mix(fill, "#000000", 0.45), width=1.2)
    fs = _fit_font(c, sym, r * 1.75, _shrinking(theme.FONT_TOKEN, 7))
    c.text(p, sym, size=fs, condensed=True, fill=colour)


def _draw_reserved(ctx: _Ctx, p: Point, r: float, sym: str) -> None:
    c = ctx.canvas
    base = ctx.view.corporation_colours.get(sym, "#777777")
    faint = theme.mix(base, "#ffffff", 0.55)
    c.circle(p, r, fill=theme.mix(base, "#ffffff", 0.88), outline=faint, width=2.0)
    fs = _fit_font(c, sym, r * 1.7, _shrinking(theme.FONT_TOKEN - 2, 7))
    c.text(p, sym, size=fs, condensed=True, fill=theme.mix(base, "#ffffff", 0.3))


def _draw_town(c: Canvas, place: NodePlace, at: _At, size: float) -> None:
    if place.through is not None:
        ang = place.angle + math.pi / 2
        hl, ht = 0.17, 0.055
        dx, dy = math.cos(ang), math.sin(ang)
        px, py = -dy, dx
        pts = [
            (place.x + dx * hl + px * ht, place.y + dy * hl + py * ht),
            (place.x - dx * hl + px * ht, place.y - dy * hl + py * ht),
            (place.x - dx * hl - px * ht, place.y - dy * hl - py * ht),
            (place.x + dx * hl - px * ht, place.y + dy * hl - py * ht),
        ]
        c.polygon([at(p) for p in pts], fill=theme.TRACK)
    else:
        c.circle(at((place.x, place.y)), theme.TOWN_DOT * size * 1.25, fill=theme.TRACK)


def _draw_revenue(ctx: _Ctx, n: NodeView, place: NodePlace, spots: _Spots, at: _At) -> None:
    rr = theme.REVENUE_RADIUS
    ext = _city_extent(n) if n.kind == "city" else 0.17  # clear of a town bar's ends
    slots = max(1, n.slots)
    cands: list[Point] = []
    for i in range(12):
        ang = -math.pi * 3 / 4 + 2 * math.pi * i / 12
        ca, sa = math.cos(ang), math.sin(ang)
        if n.kind == "city" and slots == 2:
            rx, ry = 2 * theme.CITY_RADIUS, theme.CITY_RADIUS
            d = math.hypot(rx * ca, ry * sa) + rr + 0.02
        else:
            d = ext + rr + 0.02
        cands.append((place.x + ca * d, place.y + sa * d))
    # Prefer spots toward the hex centre's far side from the track, then anything that fits.
    p = spots.place(2 * rr, 2 * rr, cands, margin=0.0)
    _revenue_disc(ctx, at(p), n.revenue)


def _revenue_disc(ctx: _Ctx, p: Point, revenue: int) -> None:
    c = ctx.canvas
    rr = theme.REVENUE_RADIUS * ctx.size
    text = str(revenue)
    c.circle(p, rr, fill="#ffffff", outline=theme.INK, width=1.2)
    fs = _fit_font(c, text, rr * 1.8, _shrinking(theme.FONT_REVENUE, 9))
    c.text(p, text, size=fs, condensed=True)


def _draw_shared_revenue(ctx: _Ctx, revenue: int, nodes: Sequence[NodePlace], spots: _Spots, at: _At) -> None:
    """One revenue for several cities: between them if there is room, else beside the first."""
    rr = theme.REVENUE_RADIUS
    mx = sum(p.x for p in nodes) / len(nodes)
    my = sum(p.y for p in nodes) / len(nodes)
    cands = _ring_spots(mx, my, (0.0, 0.2)) + _ring_spots(0.0, 0.0, (0.3, 0.45, 0.55))
    p = spots.place(2 * rr, 2 * rr, cands, margin=0.0)
    _revenue_disc(ctx, at(p), revenue)


def _phase_index(colour: str) -> int:
    return _PHASE_ORDER.index(colour) if colour in _PHASE_ORDER else -1


def _current_value_colour(values: Sequence[tuple[str, int]], current: str) -> str | None:
    """The colour whose value is in force: the newest one not newer than ``current``."""
    if not values:
        return None
    names = [v[0] for v in values]
    if current in names:
        return current
    ci = _phase_index(current)
    eligible = [v for v in names if 0 <= _phase_index(v) <= ci]
    return max(eligible, key=_phase_index) if eligible else names[0]


def _draw_offboard_values(
    ctx: _Ctx, n: NodeView, spots: _Spots, at: _At, text_colour: str
) -> None:
    c = ctx.canvas
    values = list(n.revenues_by_colour) or [(ctx.view.current_offboard_colour, n.revenue)]
    current = _current_value_colour(values, ctx.view.current_offboard_colour)
    bw, bh = 0.36, 0.24
    total = bw * len(values)
    p = spots.place(total + 0.04, bh + 0.04, [(0.0, 0.0), (0.0, 0.3), (0.0, -0.3), (0.0, 0.45), (0.0, -0.45)])
    x0 = p[0] - total / 2
    for i, (colour, value) in enumerate(values):
        box0 = at((x0 + i * bw, p[1] - bh / 2))
        box1 = at((x0 + (i + 1) * bw, p[1] + bh / 2))
        is_current = colour == current
        bg: Colour = theme.hex_fill(colour)
        if not is_current:
            bg = theme.mix(theme.hex_fill(colour), "#ffffff", 0.35)
        c.rect((box0[0], box0[1], box1[0], box1[1]), fill=bg, outline=theme.INK,
               width=2.4 if is_current else 0.8, radius=2)
        fg = theme.INK if is_current else theme.MUTED
        c.text(at((x0 + (i + 0.5) * bw, p[1])), str(value),
               size=theme.FONT_REVENUE + (1 if is_current else 0), bold=is_current, fill=fg)
    if current is not None and len(values) > 1:
        # A thick underline too, for colour-blind readers.
        i = [v[0] for v in values].index(current)
        a = at((x0 + i * bw + 0.04, p[1] + bh / 2 + 0.05))
        b = at((x0 + (i + 1) * bw - 0.04, p[1] + bh / 2 + 0.05))
        c.line([a, b], text_colour, 2.5)
        spots.rects.append((x0, p[1] + bh / 2 + 0.02, x0 + total, p[1] + bh / 2 + 0.08))


def _draw_terrain(ctx: _Ctx, h: HexView, spots: _Spots, at: _At, fill: str) -> None:
    c, size = ctx.canvas, ctx.size
    kind = h.terrain_kind or "terrain"
    text = f"{ctx.currency}{h.terrain_cost}" if h.terrain_cost else ""
    tw = c.text_width(text, size=theme.FONT_SMALL + 1, bold=True) / size if text else 0.0
    w = 0.26 + tw
    p = spots.place(w, 0.24, [*_corner_spots(ctx.o, 0.58, (2, 3, 1, 4, 0, 5)), (0.0, -0.5), (0.0, 0.5),
                              *_edge_spots(ctx.o, 0.45), *_ANYWHERE])
    ix, iy = p[0] - w / 2 + 0.13, p[1]
    if kind in ("mountain", "hill", "hills"):
        colour = theme.MOUNTAIN
        tri = [(ix - 0.12, iy + 0.08), (ix, iy - 0.11), (ix + 0.12, iy + 0.08)]
        c.polygon([at(q) for q in tri], fill=colour, outline=theme.INK, width=0.8)
        snow = [(ix - 0.045, iy - 0.04), (ix, iy - 0.11), (ix + 0.045, iy - 0.04)]
        c.polygon([at(q) for q in snow], fill="#ffffff")
    elif kind in ("water", "river", "swamp", "lake"):
        colour = theme.WATER
        for dy in (-0.05, 0.03):
            wave = [(ix - 0.11 + 0.022 * k, iy + dy + 0.025 * math.sin(k * 1.2)) for k in range(11)]
            c.line([at(q) for q in wave], colour, 2.0)
    else:
        colour = theme.MUTED
        c.circle(at((ix, iy)), 0.08 * size, fill=colour)
    if text:
        c.text(at((p[0] + w / 2 - tw / 2, p[1])), text, size=theme.FONT_SMALL + 1, bold=True, fill=colour,
               stroke=1.2, stroke_fill=fill)


def _draw_blocked(ctx: _Ctx, sym: str, spots: _Spots, at: _At) -> None:
    c, size = ctx.canvas, ctx.size
    w = c.text_width(sym, size=theme.FONT_SMALL + 1, bold=True) / size + 0.26
    p = spots.place(w, 0.22, [(0.0, -0.42), (0.0, 0.42), *_corner_spots(ctx.o, 0.55, (2, 3, 4, 1, 0, 5)),
                              *_edge_spots(ctx.o, 0.45), *_ANYWHERE])
    a, b = at((p[0] - w / 2, p[1] - 0.11)), at((p[0] + w / 2, p[1] + 0.11))
    c.rect((a[0], a[1], b[0], b[1]), fill=theme.BLOCKED_FILL, outline="#ffffff", width=1, radius=4)
    # A small "no entry" disc, then the private's symbol.
    disc = at((p[0] - w / 2 + 0.11, p[1]))
    c.circle(disc, 0.065 * size, fill="#e53935")
    c.line([(disc[0] - 0.04 * size, disc[1]), (disc[0] + 0.04 * size, disc[1])], "#ffffff", 0.025 * size)
    c.text(at((p[0] + 0.06, p[1])), sym, size=theme.FONT_SMALL + 1, bold=True, fill=theme.BLOCKED_TEXT)


def _draw_markers(ctx: _Ctx, h: HexView, spots: _Spots, at: _At) -> None:
    """Markers on the hex (1828's coal: one black cube each) and, for a hex closed to companies without a
    coal marker, who may pass: one dark pill of one or two short lines, which fits above or below a city."""
    c, size = ctx.canvas, ctx.size
    lines: list[str] = []
    if h.markers:
        counts: dict[str, int] = {}
        for m in h.markers:
            counts[m] = counts.get(m, 0) + 1
        lines.append("  ".join(f"{m} ×{n}" for m, n in counts.items()))
    if h.passable_only_by is not None:
        # Short, to fit above a city in a pointy hex: who may pass, or that only holders of coal may.
        if not h.passable_only_by:
            lines.append("coal only")
        else:  # as many companies a line as keep the pill narrow enough to sit beside a city
            rows = [f"only: {h.passable_only_by[0]}"]
            for sym in h.passable_only_by[1:]:
                wider = f"{rows[-1]}, {sym}"
                if c.text_width(wider, size=theme.FONT_SMALL, bold=True, condensed=True) > 0.8 * size:
                    rows[-1] += ","
                    rows.append(sym)
                else:
                    rows[-1] = wider
            lines += rows
    fs = theme.FONT_SMALL
    w = max(c.text_width(t, size=fs, bold=True, condensed=True) for t in lines) / size + 0.08
    line_h = (fs + 2) / size
    hgt = line_h * len(lines) + 0.04
    p = spots.place(w, hgt, [(0.0, 0.52), (0.0, -0.52), (0.0, 0.45), (0.0, -0.45),
                             *_corner_spots(ctx.o, 0.55, (0, 5, 1, 2, 3, 4)), *_ANYWHERE])
    a, b = at((p[0] - w / 2, p[1] - hgt / 2)), at((p[0] + w / 2, p[1] + hgt / 2))
    c.rect((a[0], a[1], b[0], b[1]), fill=theme.COAL, outline="#ffffff", width=1, radius=3)
    for i, t in enumerate(lines):
        y = p[1] + (i - (len(lines) - 1) / 2) * line_h
        c.text(at((p[0], y)), t, size=fs, bold=True, condensed=True, fill="#ffffff")


def _draw_destination(ctx: _Ctx, sym: str, spots: _Spots, at: _At) -> None:
    """Where a company's destination station waits for it (1822): its symbol in its colour, framed in the
    gold of a placed destination station."""
    c, size = ctx.canvas, ctx.size
    fill = ctx.view.corporation_colours.get(sym, "#777777")
    fg = ctx.view.corporation_text_colours.get(sym) or theme.readable_on(fill)
    text = f"▸{sym}"
    fs = theme.FONT_SMALL + 3
    w = c.text_width(text, size=fs, bold=True, condensed=True) / size + 0.12
    p = spots.place(w, 0.25, [*_corner_spots(ctx.o, 0.55, (4, 5, 3, 0, 2, 1)), (0.0, 0.45), *_ANYWHERE])
    a, b = at((p[0] - w / 2, p[1] - 0.125)), at((p[0] + w / 2, p[1] + 0.125))
    c.rect((a[0], a[1], b[0], b[1]), fill=fill, outline=theme.DESTINATION_RING, width=2.5, radius=4)
    c.text(at(p), text, size=fs, bold=True, condensed=True, fill=fg)


def _draw_fish(c: Canvas, p: Point, size: float) -> None:
    s = size * 0.11
    x, y = p
    c.polygon([(x + s * 0.9, y), (x + s * 1.8, y - s * 0.7), (x + s * 1.8, y + s * 0.7)], fill="#ffffff")
    c.circle((x, y), s, fill="#ffffff")
    c.rect((x - s * 1.6, y - s * 0.75, x + s * 1.0, y + s * 0.75), fill="#ffffff", radius=s * 0.75)
    c.circle((x - s * 0.9, y - s * 0.15), s * 0.18, fill=theme.INK)


def _wrap(c: Canvas, text: str, size: float, max_w: float, max_lines: int = 2) -> list[str]:
    """``text`` in at most ``max_lines`` lines, split where the widest line is narrowest."""
    words = text.split()
    if c.text_width(text, size=size) <= max_w or len(words) < 2:
        return [text]
    best = [text]
    best_w = math.inf
    for n in range(2, min(max_lines, len(words)) + 1):
        for cuts in itertools.combinations(range(1, len(words)), n - 1):
            bounds = (0, *cuts, len(words))
            lines = [" ".join(words[a:b]) for a, b in itertools.pairwise(bounds)]
            w = max(c.text_width(s, size=size) for s in lines)
            if w < best_w - 0.5:
                best, best_w = lines, w
        if best_w <= max_w:
            break
    return best


def _name_candidates(o: Orientation) -> list[Point]:
    # The outermost row clears the hull of a city of three or four slots (1822's big cities) in a flat hex.
    ys = (0.6, 0.45, 0.3, 0.15, 0.0, 0.72) if o == "flat" else (0.55, 0.4, 0.25, 0.1, 0.0)
    out: list[Point] = []
    for y in ys:
        for dx in (0.0, -0.2, 0.2, -0.35, 0.35):
            out.extend({(dx, -y), (dx, y)} if y else {(dx, 0.0)})
    return out


_NAME_CANDIDATES = {o: _name_candidates(o) for o in ("flat", "pointy")}


@dataclass(frozen=True, slots=True)
class _NameSpot:
    lines: list[str]
    font_size: float
    x: float
    y: float
    line_h: float
    w: float
    h: float


def _place_name(ctx: _Ctx, name: str, spots: _Spots) -> _NameSpot:
    """The name at its full size where it covers little; in a crowded hex a smaller or a
    three-line version when that keeps it off the stations (which cost far more than track)."""
    c, size = ctx.canvas, ctx.size
    options: list[tuple[float, float, Point, _NameSpot]] = []
    for font_size, max_lines, penalty in ((theme.FONT_NAME, 2, 0.0), (theme.FONT_NAME - 1, 2, 0.5),
                                          (theme.FONT_NAME - 1, 3, 1.0), (theme.FONT_NAME - 2, 3, 1.5)):
        lines = _wrap(c, name, font_size, 1.2 * size, max_lines)
        line_h = (font_size + 2) / size
        w = max(c.text_width(s, size=font_size) for s in lines) / size + 0.04
        h = line_h * len(lines)
        # Names may spill a little over the hex border: the halo keeps them readable there.
        p, cost = spots.best(w, h, _NAME_CANDIDATES[ctx.o], margin=-0.08)
        options.append((cost + penalty, penalty, p, _NameSpot(lines, font_size, p[0], p[1], line_h, w, h)))
        if cost < 1.0:
            break
    *_, spot = min(options, key=lambda o: (o[0], o[1]))
    spots.take((spot.x, spot.y), spot.w, spot.h)
    return spot


def _draw_name(ctx: _Ctx, spot: _NameSpot, at: _At, colour: str, fill: str) -> None:
    y0 = spot.y - spot.line_h * len(spot.lines) / 2 + spot.line_h / 2
    for i, s in enumerate(spot.lines):
        ctx.canvas.text(at((spot.x, y0 + i * spot.line_h)), s, size=spot.font_size, fill=colour, stroke=1.6,
                        stroke_fill=fill)


# ----------------------------------------------------------------------------- routes


def _route_colour(i: int) -> str:
    return theme.ROUTE_COLOURS[i % len(theme.ROUTE_COLOURS)]


def _draw_route_lines(ctx: _Ctx, centres: dict[str, Point]) -> None:
    """Each run as a translucent line through the centres of its hexes, side by side when several."""
    routes = ctx.view.last_routes
    size = ctx.size
    lines: list[tuple[Sequence[Point], Colour, float]] = []
    n = len(routes)
    for i, route in enumerate(routes):
        shift = (i - (n - 1) / 2) * size * 0.11
        pts = [(centres[h][0] + shift, centres[h][1] + shift * 0.6) for h in route.hexes if h in centres]
        if len(pts) == 1:
            pts = [pts[0], (pts[0][0] + 0.01, pts[0][1])]
        lines.append((pts, _route_colour(i), size * theme.ROUTE_WIDTH))
    ctx.canvas.translucent_lines(lines, theme.ROUTE_ALPHA)


def _draw_route_legend(ctx: _Ctx, height: float) -> None:
    routes = ctx.view.last_routes
    if not routes:
        return
    c = ctx.canvas
    y = height - theme.MAP_FOOTER / 2
    x = float(theme.MAP_MARGIN)
    c.text((x, y), "Last run:", size=theme.FONT_TEXT, bold=True, anchor="lm")
    x += c.text_width("Last run:", size=theme.FONT_TEXT, bold=True) + 12
    for i, route in enumerate(routes):
        c.line([(x, y), (x + 26, y)], theme.mix(_route_colour(i), "#ffffff", 0.3), 9, round_ends=True)
        x += 34
        label = f"{route.train}-train {ctx.currency}{route.revenue}"
        c.text((x, y), label, size=theme.FONT_TEXT, anchor="lm")
        x += c.text_width(label, size=theme.FONT_TEXT) + 20
    total = sum(r.revenue for r in routes)
    c.text((x, y), f"= {ctx.currency}{total}", size=theme.FONT_TEXT, bold=True, anchor="lm")


_EDGE_NAMES = {"flat": ("S", "SW", "NW", "N", "NE", "SE"), "pointy": ("SW", "W", "NW", "NE", "E", "SE")}


def _draw_lay_key(ctx: _Ctx, width: float, height: float) -> None:
    """Footer, right: what the outlined hexes mean and how rotations are numbered."""
    c = ctx.canvas
    y = height - theme.MAP_FOOTER / 2
    names = _EDGE_NAMES.get(ctx.o, _EDGE_NAMES["flat"])
    key = "rotation R turns a tile R edges clockwise; edges " + " ".join(f"{i}={n}" for i, n in enumerate(names))
    note = ctx.view.highlight_note or "may lay track here"
    x = width - theme.MAP_MARGIN
    c.text((x, y), key, size=theme.FONT_SMALL + 2, fill=theme.MUTED, anchor="rm")
    x -= c.text_width(key, size=theme.FONT_SMALL + 2) + 16
    c.text((x, y), note, size=theme.FONT_TEXT, anchor="rm")
    x -= c.text_width(note, size=theme.FONT_TEXT) + 8
    c.line([(x - 26, y), (x, y)], theme.HIGHLIGHT_LAY, 4)
