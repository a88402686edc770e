"""Hex maths: edge numbering, neighbours, track curves and node placement."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rendering.geometry import (
    APOTHEM,
    HexLayout,
    NodeSpec,
    corners,
    curve_kind,
    edge_corners,
    edge_midpoint,
    edge_to_point,
    edge_towards,
    neighbour,
    place_nodes,
    point_along,
    rotate_edge,
    track_arc,
    track_curve,
)

# Neighbours by absolute edge, as engine/data/FORMAT.md and rules-data.md §0.3 give them
# (doubled coordinates: row, col). 1882 and 1822 are flat (1822's HexView rows are its numbers);
# 1828 is pointy.
FLAT = {0: (2, 0), 1: (1, -1), 2: (-1, -1), 3: (-2, 0), 4: (-1, 1), 5: (1, 1)}  # S SW NW N NE SE
POINTY = {0: (1, -1), 1: (0, -2), 2: (-1, -1), 3: (-1, 1), 4: (0, 2), 5: (1, 1)}  # SW W NW NE E SE
COMPASS = {
    "flat": {0: (0, 1), 1: (-1, 1), 2: (-1, -1), 3: (0, -1), 4: (1, -1), 5: (1, 1)},
    "pointy": {0: (-1, 1), 1: (-1, 0), 2: (-1, -1), 3: (1, -1), 4: (1, 0), 5: (1, 1)},
}
TABLES = {"flat": FLAT, "pointy": POINTY}
ORIENTATIONS = ("flat", "pointy")


def _unit(v: tuple[float, float]) -> tuple[float, float]:
    n = math.hypot(*v)
    return (v[0] / n, v[1] / n)


def _close(p: tuple[float, float], q: tuple[float, float], tol: float = 1e-9) -> bool:
    return math.hypot(p[0] - q[0], p[1] - q[1]) < tol


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("rotation", range(6))
@pytest.mark.parametrize("edge", range(6))
def test_edge_midpoint_lands_on_the_numbered_side(orientation: str, rotation: int, edge: int) -> None:
    absolute = rotate_edge(edge, rotation)
    mx, my = edge_midpoint(orientation, absolute)  # type: ignore[arg-type]
    assert math.hypot(mx, my) == pytest.approx(APOTHEM)
    # Compass side: the signs of x and y.
    sx, sy = COMPASS[orientation][absolute]
    assert (mx > 1e-9) - (mx < -1e-9) == sx
    assert (my > 1e-9) - (my < -1e-9) == sy
    # And it points at the neighbour across that edge.
    layout = HexLayout(orientation, 1.0)  # type: ignore[arg-type]
    dr, dc = TABLES[orientation][absolute]
    nx, ny = layout.centre(10 + dr, 10 + dc)
    cx, cy = layout.centre(10, 10)
    assert _close(_unit((mx, my)), _unit((nx - cx, ny - cy)))
    assert math.hypot(nx - cx, ny - cy) == pytest.approx(math.sqrt(3))
    # The midpoint is half-way between the side's corners.
    p, q = edge_corners(orientation, absolute)  # type: ignore[arg-type]
    assert _close(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), (mx, my))


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("edge", range(6))
def test_neighbour_and_edge_towards_agree_with_the_table(orientation: str, edge: int) -> None:
    dr, dc = TABLES[orientation][edge]
    assert neighbour(orientation, 4, 6, edge) == (4 + dr, 6 + dc)  # type: ignore[arg-type]
    layout = HexLayout(orientation, 50.0)  # type: ignore[arg-type]
    a = layout.centre(4, 6)
    b = layout.centre(4 + dr, 6 + dc)
    assert edge_towards(orientation, a, b) == edge  # type: ignore[arg-type]
    assert edge_towards(orientation, b, a) == (edge + 3) % 6  # type: ignore[arg-type]


def test_flat_corners_make_a_flat_top() -> None:
    ys = sorted(y for _, y in corners("flat"))
    assert ys[0] == pytest.approx(-APOTHEM) and ys[1] == pytest.approx(-APOTHEM)  # two corners share the top
    xs = sorted(x for x, _ in corners("pointy"))
    assert xs[0] == pytest.approx(-APOTHEM) and xs[1] == pytest.approx(-APOTHEM)  # and the left side


def test_straight_track_e0_e3_passes_through_the_centre() -> None:
    pts = track_curve("flat", 0, 3)
    assert min(math.hypot(x, y) for x, y in pts) < 1e-9
    assert curve_kind(0, 3) == "straight"
    assert track_arc("flat", 0, 3) is None


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize(("a", "b"), [(a, b) for a in range(6) for b in range(6) if a != b])
def test_curve_ends_are_the_edge_midpoints(orientation: str, a: int, b: int) -> None:
    pts = track_curve(orientation, a, b)  # type: ignore[arg-type]
    assert _close(pts[0], edge_midpoint(orientation, a))  # type: ignore[arg-type]
    assert _close(pts[-1], edge_midpoint(orientation, b))  # type: ignore[arg-type]
    # Every point stays inside the hex.
    assert all(math.hypot(x, y) <= 1.0 + 1e-9 for x, y in pts)
    arc = track_arc(orientation, a, b)  # type: ignore[arg-type]
    kind = curve_kind(a, b)
    if arc is None:
        assert kind == "straight"
        return
    assert arc.radius == pytest.approx(0.5 if kind == "sharp" else 1.5)
    for x, y in pts:
        assert math.hypot(x - arc.cx, y - arc.cy) == pytest.approx(arc.radius, abs=1e-9)
    # The track leaves each side at a right angle: the radius at an end runs along the side.
    for end, edge in ((pts[0], a), (pts[-1], b)):
        p, q = edge_corners(orientation, edge)  # type: ignore[arg-type]
        side = _unit((q[0] - p[0], q[1] - p[1]))
        radial = _unit((end[0] - arc.cx, end[1] - arc.cy))
        assert abs(side[0] * radial[1] - side[1] * radial[0]) < 1e-9


def test_arc_degrees_run_clockwise_over_the_short_way() -> None:
    for a in range(6):
        for b in range(6):
            arc = track_arc("flat", a, b) if a != b else None
            if arc is None:
                continue
            start, end = arc.degrees_clockwise()
            span = (end - start) % 360
            assert span == pytest.approx(120 if curve_kind(a, b) == "sharp" else 60)


def test_edge_to_point_leaves_along_the_normal() -> None:
    pts = edge_to_point("flat", 0, (0.0, 0.0))
    assert _close(pts[0], edge_midpoint("flat", 0))
    assert _close(pts[-1], (0.0, 0.0))
    assert all(abs(x) < 1e-9 for x, _ in pts)  # centred node: a straight line


def test_point_along_finds_the_middle() -> None:
    (x, y), ang = point_along(track_curve("flat", 0, 3), 0.5)
    assert _close((x, y), (0.0, 0.0))
    assert ang == pytest.approx(-math.pi / 2)  # running north, up the screen


def test_single_city_sits_in_the_centre() -> None:
    places = place_nodes("flat", [NodeSpec(0, "city", (0, 3))])
    assert _close((places[0].x, places[0].y), (0.0, 0.0))


def test_two_cities_move_toward_their_edges() -> None:
    places = place_nodes("flat", [NodeSpec(0, "city", (1,)), NodeSpec(1, "city", (4,))])
    assert _unit((places[0].x, places[0].y)) == pytest.approx(_unit(edge_midpoint("flat", 1)))
    assert _unit((places[1].x, places[1].y)) == pytest.approx(_unit(edge_midpoint("flat", 4)))


def test_two_cities_without_track_spread_out() -> None:
    places = place_nodes("flat", [NodeSpec(0, "city", ()), NodeSpec(1, "city", ())])
    a, b = places[0], places[1]
    assert math.hypot(a.x - b.x, a.y - b.y) > 0.8


def test_town_on_a_curve_sits_on_it_and_towns_do_not_collide() -> None:
    # Tile 55: towns on 0-3 and 1-4, both straight through the centre.
    places = place_nodes("flat", [NodeSpec(0, "town", (0, 3)), NodeSpec(1, "town", (1, 4))])
    a, b = places[0], places[1]
    assert a.through == (0, 3) and b.through == (1, 4)
    assert math.hypot(a.x - b.x, a.y - b.y) > 0.3
    for place in (a, b):
        assert place.through is not None
        pts = track_curve("flat", *place.through, steps=200)
        assert min(math.hypot(x - place.x, y - place.y) for x, y in pts) < 0.01


@given(st.integers(0, 5), st.integers(-12, 12))
def test_six_rotations_are_the_identity(edge: int, rotation: int) -> None:
    e = edge
    for _ in range(6):
        e = rotate_edge(e, 1)
    assert e == edge
    assert rotate_edge(rotate_edge(edge, rotation), -rotation) == edge


@given(st.sampled_from(ORIENTATIONS), st.integers(-20, 20), st.integers(-20, 20), st.integers(0, 5))
def test_neighbour_round_trip(orientation: str, row: int, col: int, edge: int) -> None:
    r2, c2 = neighbour(orientation, row, col, edge)  # type: ignore[arg-type]
    assert neighbour(orientation, r2, c2, (edge + 3) % 6) == (row, col)  # type: ignore[arg-type]
    assert (r2 + c2) % 2 == (row + col) % 2  # doubled coordinates keep their parity
