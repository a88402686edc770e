"""Hex maths for drawing: centres, corners, edge midpoints, track curves and node placement.

Everything here works in a *unit hex*: the hex is centred on the origin and its corners lie at
distance 1 (the hex "size"). Screen conventions apply: x grows to the right, y grows downwards and
angles turn clockwise. Callers scale and translate the points (see :class:`HexLayout`).

Edge numbering follows ``engine/data/FORMAT.md``: edges count clockwise, flat-topped hexes start
with 0 = S (then SW, NW, N, NE, SE), pointy-topped ones with 0 = SW (then W, NW, NE, E, SE).

>>> [round(c, 3) for c in edge_midpoint("flat", 0)]
[0.0, 0.866]
>>> curve_kind(0, 3), curve_kind(0, 2), curve_kind(5, 0)
('straight', 'gentle', 'sharp')
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

Orientation = Literal["flat", "pointy"]
Point = tuple[float, float]
CurveKind = Literal["straight", "gentle", "sharp"]

SQRT3 = math.sqrt(3.0)
APOTHEM = SQRT3 / 2.0  # centre to edge midpoint in a unit hex

# Angle (degrees, clockwise from +x, y down) of the outward normal of edge 0.
_EDGE0_DEGREES: dict[str, float] = {"flat": 90.0, "pointy": 120.0}
# Angle of corner 0; corner i is at _CORNER0 + 60 i.
_CORNER0_DEGREES: dict[str, float] = {"flat": 0.0, "pointy": 30.0}

FLAT_EDGE_NAMES = ("S", "SW", "NW", "N", "NE", "SE")
POINTY_EDGE_NAMES = ("SW", "W", "NW", "NE", "E", "SE")

# Where a node sits in a hex with several nodes, as a fraction of the hex size.
NODE_OFFSET = 0.5


def rotate_edge(edge: int, rotation: int) -> int:
    """The absolute edge of a tile's own ``edge`` once the tile is laid at ``rotation``."""
    return (edge + rotation) % 6


def edge_angle(orientation: Orientation, edge: int) -> float:
    """Angle in radians of the outward normal of ``edge`` (clockwise from +x, y down)."""
    return math.radians(_EDGE0_DEGREES[orientation] + 60.0 * (edge % 6))


def edge_normal(orientation: Orientation, edge: int) -> Point:
    a = edge_angle(orientation, edge)
    return (math.cos(a), math.sin(a))


def edge_midpoint(orientation: Orientation, edge: int) -> Point:
    """Midpoint of the hex side ``edge`` in a unit hex."""
    nx, ny = edge_normal(orientation, edge)
    return (nx * APOTHEM, ny * APOTHEM)


def corner(orientation: Orientation, index: int) -> Point:
    a = math.radians(_CORNER0_DEGREES[orientation] + 60.0 * (index % 6))
    return (math.cos(a), math.sin(a))


def corners(orientation: Orientation) -> list[Point]:
    """The six corners of a unit hex, clockwise."""
    return [corner(orientation, i) for i in range(6)]


def edge_corners(orientation: Orientation, edge: int) -> tuple[Point, Point]:
    """The two corners that bound side ``edge`` (in clockwise order)."""
    # The side's normal sits half-way between two corners.
    base = (_EDGE0_DEGREES[orientation] - _CORNER0_DEGREES[orientation]) / 60.0 + edge
    first = round(base - 0.5) % 6
    return corner(orientation, first), corner(orientation, first + 1)


def edge_distance(a: int, b: int) -> int:
    d = (b - a) % 6
    return min(d, 6 - d)


def curve_kind(a: int, b: int) -> CurveKind:
    """How a track from edge ``a`` to edge ``b`` bends: straight, gentle or sharp."""
    d = edge_distance(a, b)
    if d == 3:
        return "straight"
    if d == 2:
        return "gentle"
    if d == 1:
        return "sharp"
    raise ValueError(f"track cannot join edge {a} to itself")


@dataclass(frozen=True, slots=True)
class Arc:
    """A circle arc in a unit hex: centre, radius and the angles (radians) of its two ends."""

    cx: float
    cy: float
    radius: float
    start: float  # angle of the end on edge ``a``
    sweep: float  # signed; positive turns clockwise (y down)

    def degrees_clockwise(self) -> tuple[float, float]:
        """Start and end angles in degrees such that the arc runs clockwise from one to the other."""
        a0 = math.degrees(self.start)
        a1 = math.degrees(self.start + self.sweep)
        return (a0, a1) if self.sweep >= 0 else (a1, a0)


def track_arc(orientation: Orientation, a: int, b: int) -> Arc | None:
    """The arc of a curved track between edges ``a`` and ``b``; None for a straight track.

    The arc meets both sides at a right angle, so its centre is where the lines of the two sides
    cross: the shared corner for a sharp curve (radius 1/2), a point outside the hex for a gentle
    one (radius 3/2).
    """
    kind = curve_kind(a, b)
    if kind == "straight":
        return None
    start = edge_midpoint(orientation, a)
    end = edge_midpoint(orientation, b)
    na = edge_angle(orientation, a)
    nb = edge_angle(orientation, b)
    half = math.radians(30.0 if kind == "sharp" else 60.0)
    diff = math.atan2(math.sin(nb - na), math.cos(nb - na))  # short way round
    mid = na + diff / 2.0
    dist = APOTHEM / math.cos(half)
    cx, cy = math.cos(mid) * dist, math.sin(mid) * dist
    t0 = math.atan2(start[1] - cy, start[0] - cx)
    t1 = math.atan2(end[1] - cy, end[0] - cx)
    sweep = math.atan2(math.sin(t1 - t0), math.cos(t1 - t0))
    return Arc(cx, cy, math.hypot(start[0] - cx, start[1] - cy), t0, sweep)


def track_curve(orientation: Orientation, a: int, b: int, steps: int = 16) -> list[Point]:
    """Points of the track from the midpoint of edge ``a`` to the midpoint of edge ``b``.

    Straight tracks pass through the centre; curves follow :func:`track_arc`. The points are
    evenly spaced along the track, so ``points[len(points) // 2]`` is its middle.
    """
    start = edge_midpoint(orientation, a)
    end = edge_midpoint(orientation, b)
    arc = track_arc(orientation, a, b)
    if arc is None:
        return [_lerp(start, end, i / steps) for i in range(steps + 1)]
    pts = [
        (
            arc.cx + arc.radius * math.cos(arc.start + arc.sweep * i / steps),
            arc.cy + arc.radius * math.sin(arc.start + arc.sweep * i / steps),
        )
        for i in range(steps + 1)
    ]
    pts[0], pts[-1] = start, end  # exact ends, free of rounding
    return pts


def edge_to_point(orientation: Orientation, edge: int, target: Point, steps: int = 12) -> list[Point]:
    """Track from the midpoint of ``edge`` to ``target``, leaving the side at a right angle.

    A quadratic Bézier whose control point lies on the inward normal of the edge; when the
    target is on that normal (a centred node) the result is a straight line.
    """
    start = edge_midpoint(orientation, edge)
    nx, ny = edge_normal(orientation, edge)
    depth = max(0.0, (start[0] - target[0]) * nx + (start[1] - target[1]) * ny)
    ctrl = (start[0] - nx * depth * 0.6, start[1] - ny * depth * 0.6)
    return [_bezier2(start, ctrl, target, i / steps) for i in range(steps + 1)]


def point_along(points: Sequence[Point], t: float) -> tuple[Point, float]:
    """Point at fraction ``t`` of a polyline's length and the tangent angle there (radians)."""
    seg = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in itertools.pairwise(points)]
    total = sum(seg)
    if total == 0:
        return points[0], 0.0
    goal = max(0.0, min(1.0, t)) * total
    run = 0.0
    for (p, q), length in zip(itertools.pairwise(points), seg, strict=True):
        if run + length >= goal and length > 0:
            f = (goal - run) / length
            return _lerp(p, q, f), math.atan2(q[1] - p[1], q[0] - p[0])
        run += length
    p, q = points[-2], points[-1]
    return q, math.atan2(q[1] - p[1], q[0] - p[0])


def _lerp(p: Point, q: Point, t: float) -> Point:
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def _bezier2(p0: Point, p1: Point, p2: Point, t: float) -> Point:
    u = 1.0 - t
    return (
        u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
        u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1],
    )


# --------------------------------------------------------------------------- board layout


@dataclass(frozen=True, slots=True)
class HexLayout:
    """Maps board coordinates to points, for hexes of ``size`` (centre to corner).

    ``row`` and ``col`` are the geometric row and column of :class:`engine.core.views.HexView`
    (doubled coordinates: flat hexes step 1.5 sizes per column and half a hex height per row,
    pointy hexes half a hex width per column and 1.5 sizes per row).
    """

    orientation: Orientation
    size: float

    def centre(self, row: int, col: int) -> Point:
        if self.orientation == "flat":
            return (col * 1.5 * self.size, row * APOTHEM * self.size)
        return (col * APOTHEM * self.size, row * 1.5 * self.size)

    def to_board(self, centre: Point, p: Point) -> Point:
        """A unit-hex point ``p`` placed in the hex at ``centre``."""
        return (centre[0] + p[0] * self.size, centre[1] + p[1] * self.size)

    def polygon(self, centre: Point, shrink: float = 1.0) -> list[Point]:
        return [self.to_board(centre, (x * shrink, y * shrink)) for x, y in corners(self.orientation)]

    def half_extent(self) -> Point:
        """Half width and half height of one hex."""
        if self.orientation == "flat":
            return (self.size, APOTHEM * self.size)
        return (APOTHEM * self.size, self.size)


def edge_towards(orientation: Orientation, a: Point, b: Point) -> int:
    """The edge of the hex centred at ``a`` that faces the hex centred at ``b``."""
    ang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    e = round((ang - _EDGE0_DEGREES[orientation]) / 60.0) % 6
    return int(e)


def neighbour(orientation: Orientation, row: int, col: int, edge: int) -> tuple[int, int]:
    """Row and column of the hex across ``edge`` (doubled coordinates)."""
    nx, ny = edge_normal(orientation, edge)
    if orientation == "flat":  # one column is 1.5 sizes; one row is APOTHEM
        return (row + round(ny * SQRT3 / APOTHEM), col + round(nx * SQRT3 / 1.5))
    return (row + round(ny * SQRT3 / 1.5), col + round(nx * SQRT3 / APOTHEM))


# --------------------------------------------------------------------------- nodes on a tile


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """What node placement needs to know about one node."""

    index: int
    kind: str  # city, town, offboard, junction
    edges: tuple[int, ...]  # absolute edges joined directly to the node
    linked: bool = False  # joined to another node by a node-to-node path


@dataclass(frozen=True, slots=True)
class NodePlace:
    """Where a node is drawn. ``through`` is set for a town sitting on an edge-to-edge curve."""

    x: float
    y: float
    angle: float = 0.0  # tangent of the track at the node (radians), for town bars
    through: tuple[int, int] | None = None


def place_nodes(
    orientation: Orientation, nodes: Sequence[NodeSpec], offset: float = NODE_OFFSET
) -> dict[int, NodePlace]:
    """Position every node in a unit hex.

    * A town with exactly two edges (and nothing else) sits on the curve between them: in the
      middle of it, or nudged along it when another node is already there.
    * A single city, off-board or junction sits at the centre.
    * With several nodes, each one moves ``offset`` toward the mean direction of its edges; nodes
      with no edges (blank OO hexes) spread out evenly where there is room.
    """
    places: dict[int, NodePlace] = {}
    through_towns = [
        n for n in nodes if n.kind == "town" and len(n.edges) == 2 and not n.linked
    ]
    others = [n for n in nodes if n not in through_towns]

    if len(others) == 1 and not through_towns:
        places[others[0].index] = NodePlace(0.0, 0.0)
        return places

    free: list[NodeSpec] = []
    for n in others:
        if len(nodes) == 1 or n.kind in ("offboard", "junction"):
            places[n.index] = NodePlace(0.0, 0.0)
            continue
        sx = sum(edge_normal(orientation, e)[0] for e in n.edges)
        sy = sum(edge_normal(orientation, e)[1] for e in n.edges)
        norm = math.hypot(sx, sy)
        if not n.edges or norm < 1e-6:
            free.append(n)
            continue
        places[n.index] = NodePlace(sx / norm * offset, sy / norm * offset)

    if free:
        for n, ang in zip(free, _free_angles(orientation, places.values(), len(free)), strict=True):
            places[n.index] = NodePlace(math.cos(ang) * offset, math.sin(ang) * offset)

    for n in through_towns:
        pts = track_curve(orientation, n.edges[0], n.edges[1])
        chosen: tuple[Point, float] | None = None
        for t in (0.5, 0.3, 0.7, 0.2, 0.8):
            p, ang = point_along(pts, t)
            if all(math.hypot(p[0] - q.x, p[1] - q.y) > 0.3 for q in places.values()):
                chosen = (p, ang)
                break
        if chosen is None:
            chosen = point_along(pts, 0.5)
        (x, y), ang = chosen
        places[n.index] = NodePlace(x, y, ang, (n.edges[0], n.edges[1]))
    return places


def _free_angles(orientation: Orientation, taken: Iterable[NodePlace], count: int) -> list[float]:
    """Angles for ``count`` nodes with no edges, away from nodes already placed."""
    taken_angles = [math.atan2(p.y, p.x) for p in taken if math.hypot(p.x, p.y) > 1e-6]
    # Flat hexes are widest left to right, pointy ones top to bottom: put the first pair there.
    start = math.pi if orientation == "flat" else -math.pi / 2
    if not taken_angles:
        return [start + 2 * math.pi * i / count for i in range(count)]
    candidates = [start + math.pi / 6 * i for i in range(12)]
    out: list[float] = []
    for _ in range(count):
        best = max(candidates, key=lambda a: min(_angle_gap(a, t) for t in taken_angles + out))
        out.append(best)
    return out


def _angle_gap(a: float, b: float) -> float:
    return abs(math.atan2(math.sin(a - b), math.cos(a - b)))
