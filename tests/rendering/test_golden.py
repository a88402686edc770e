"""Golden images: the pictures must stay close to the reviewed files in tests/rendering/golden/.

Refresh with ``RENDER_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/rendering`` and look at the
new files before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import pytest
from PIL import Image, ImageFilter, ImageFont

from engine.core.views import BoardView
from rendering import canvas, fonts, render_map, render_market, render_status
from tests.rendering.boards import feature_board, late_game_1882, market_1882, status_1882
from tests.rendering.imagecompare import GOLDEN_DIR, assert_matches_golden, assert_same_picture, block_difference


def test_feature_board_flat() -> None:
    assert_matches_golden(render_map(feature_board()), "map_features_flat")


def test_feature_board_pointy() -> None:
    assert_matches_golden(render_map(feature_board("pointy")), "map_features_pointy")


def test_late_game_map() -> None:
    assert_matches_golden(render_map(late_game_1882(), scale=0.6), "map_1882_late")


def test_market() -> None:
    assert_matches_golden(render_market(market_1882()), "market_1882")


def test_market_game_over() -> None:
    assert_matches_golden(render_market(market_1882(finished=True)), "market_1882_over")


def test_status() -> None:
    assert_matches_golden(render_status(status_1882()), "status_1882")


def _without_stations_of_one_hex(board: BoardView) -> BoardView:
    """The board with the first hex that has a station emptied of its stations."""
    hexes = list(board.hexes)
    for i, h in enumerate(hexes):
        if any(t for n in h.nodes for t in n.tokens):
            nodes = tuple(replace(n, tokens=tuple(None for _ in n.tokens)) for n in h.nodes)
            hexes[i] = replace(h, nodes=nodes)
            return replace(board, hexes=tuple(hexes))
    raise AssertionError("the board has no station")


@pytest.mark.parametrize(("board", "scale", "golden"), [
    (late_game_1882, 0.6, "map_1882_late"),
    (feature_board, 1.0, "map_features_flat"),
])
def test_comparison_fails_without_one_hex_stations_or_without_the_routes(
    board: Callable[[], BoardView], scale: float, golden: str
) -> None:
    view = board()
    assert view.last_routes, "the board must show runs for the check to mean anything"
    no_stations = _without_stations_of_one_hex(view)
    with Image.open(GOLDEN_DIR / f"{golden}.png") as stored:  # read only: this test never refreshes a file
        ref = stored.convert("RGB")
    with pytest.raises(pytest.fail.Exception, match="differs by"):
        assert_same_picture(ref, render_map(no_stations, scale=scale), golden)
    with pytest.raises(pytest.fail.Exception, match="differs by"):
        assert_same_picture(ref, render_map(replace(view, last_routes=()), scale=scale), golden)
    # The golden file itself passes (the check is not failing everything).
    assert_same_picture(ref, render_map(view, scale=scale), golden)


def test_comparison_tolerates_anti_aliasing_and_layout_engines() -> None:
    img = render_map(late_game_1882(), scale=0.6)
    # Softer edges, as another FreeType or resampling build draws them.
    assert_same_picture(img, img.filter(ImageFilter.GaussianBlur(0.6)), "blurred")
    # Everything a pixel apart.
    shifted = Image.new("RGB", img.size, "white")
    shifted.paste(img, (1, 0))
    assert_same_picture(img, shifted, "shifted")
    # Text laid out without libraqm (Pillow builds differ in that).
    basic = ImageFont.Layout.BASIC
    real = ImageFont.truetype
    try:
        ImageFont.truetype = partial(_truetype_with, real, basic)  # type: ignore[assignment]
        fonts._local.fonts = {}
        canvas._text_length.cache_clear()
        other = render_map(late_game_1882(), scale=0.6)
    finally:
        ImageFont.truetype = real  # type: ignore[assignment]
        fonts._local.fonts = {}
        canvas._text_length.cache_clear()
    assert_same_picture(img, other, "basic-layout")
    assert block_difference(img, img.copy()).value == 0
    with pytest.raises(ValueError):
        block_difference(img, Image.new("RGB", (1, 1)))


def _truetype_with(real: Callable[..., ImageFont.FreeTypeFont], engine: ImageFont.Layout, path: str,
                   size: int) -> ImageFont.FreeTypeFont:
    return real(path, size, layout_engine=engine)
