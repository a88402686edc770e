"""Golden images: the pictures must stay close to the reviewed files in tests/rendering/golden/.

Refresh with ``RENDER_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/rendering`` and look at the
new files before committing them.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from rendering import render_map, render_market, render_status
from tests.rendering.boards import feature_board, late_game_1882, market_1882, status_1882
from tests.rendering.imagecompare import assert_matches_golden, mean_abs_diff


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


def test_comparison_catches_a_visible_change() -> None:
    img = render_map(feature_board(), scale=0.5)
    changed = img.copy()
    # Cover one hex-sized area: a missing tile or token must fail the default tolerance.
    ImageDraw.Draw(changed).rectangle((100, 60, 170, 120), fill="#ff00ff")
    assert mean_abs_diff(img, changed) > 1.0
    assert mean_abs_diff(img, img.copy()) == 0
    with pytest.raises(ValueError):
        mean_abs_diff(img, Image.new("RGB", (1, 1)))
