"""Map crops for phones: around a tile just laid, a station, a hex or a company's network."""

from __future__ import annotations

import math
from functools import cache

import pytest

from engine.core.viewbuild import board_view
from engine.core.views import BoardView
from engine.importer import read_game_file, replay
from rendering.map import (
    CITY_NUMBER_RADIUS,
    PHONE_MIN_TEXT,
    _inner_rim,
    _plan_hex,
    crop_window,
    crowded_hexes,
    render_crop,
    smallest_crop_text,
)
from tests.conftest import SHARED_FIXTURES
from tests.rendering.imagecompare import block_difference

GAMES = {
    "1882": SHARED_FIXTURES / "1882" / "1882_game_end_stock_market.json",
    "1822": SHARED_FIXTURES / "1822" / "33845.json",
    "1828": SHARED_FIXTURES / "1828" / "1828Games_game_end_stock_market.json",
}
# Busy places of each finished board: a big city, a tile with towns, a crowded hex.
FOCUS = {"1882": ["G11", "I11", "E5"], "1822": ["M38", "D35", "G22"], "1828": ["D14", "G23", "E9"]}


@cache
def end_board(title: str) -> BoardView:
    return board_view(replay(read_game_file(GAMES[title])))


@pytest.mark.parametrize("title", list(GAMES))
def test_smallest_text_of_a_crop_reads_on_a_phone(title: str) -> None:
    board = end_board(title)
    for hex_id in [*FOCUS[title], board.last_tile_hex or FOCUS[title][0]]:
        assert smallest_crop_text(board, [hex_id]) >= PHONE_MIN_TEXT, f"{title} {hex_id}"


def test_a_crop_is_about_three_hexes_across_and_sharp() -> None:
    board = end_board("1882")
    img = render_crop(board, ["G11"])
    assert 760 <= img.width <= 900 and 760 <= img.height <= 1000
    x0, _y0, x1, _y1 = crop_window(board, ["G11"])
    assert 2.5 <= (x1 - x0) / 108 <= 4  # hex columns are 108 logical pixels apart


def test_a_crop_shows_what_changed_there() -> None:
    board = end_board("1882")
    before = render_crop(board, ["G11"])
    hexes = tuple(h if h.id != "G11" else type(h)(h.id, h.row, h.col, "white") for h in board.hexes)
    after = render_crop(BoardView(**{**{f: getattr(board, f) for f in board.__dataclass_fields__},
                                     "hexes": hexes}), ["G11"])
    assert block_difference(before, after).value > 100


def test_a_crop_covers_all_of_a_network() -> None:
    board = end_board("1882")
    network = [h.id for h in board.hexes for n in h.nodes if "CPR" in n.tokens]
    x0, y0, x1, y1 = crop_window(board, network)
    assert len(network) >= 2
    assert x1 - x0 > 360 or y1 - y0 > 360
    assert render_crop(board, network).width >= 800


def test_an_unknown_hex_is_refused() -> None:
    with pytest.raises(ValueError, match="no hex ZZ9"):
        render_crop(end_board("1882"), ["ZZ9"])


def test_london_cities_do_not_overlap_and_each_number_sits_on_its_own_city() -> None:
    board = end_board("1822")
    (london,) = crowded_hexes(board)
    from rendering import theme
    from rendering.canvas import Canvas
    from rendering.geometry import HexLayout
    from rendering.map import _Ctx

    ctx = _Ctx(board, HexLayout(board.layout, theme.HEX_SIZE), Canvas(8, 8), "£")
    plan = _plan_hex(ctx, london, (0.0, 0.0), ())
    cities = [plan.places[n.index] for n in london.nodes if n.kind == "city"]
    assert len(cities) == 6
    for i, a in enumerate(cities):
        for b in cities[i + 1:]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= 2 * theme.CITY_RADIUS, "two cities overlap"
        badge = _inner_rim(a)
        mine = math.hypot(badge[0] - a.x, badge[1] - a.y)
        others = min(math.hypot(badge[0] - b.x, badge[1] - b.y) for b in cities if b is not a)
        # The number touches its own circle and stays clear of every other one.
        assert mine <= theme.CITY_RADIUS
        assert others >= theme.CITY_RADIUS + CITY_NUMBER_RADIUS
