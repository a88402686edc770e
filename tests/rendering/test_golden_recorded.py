"""Golden images of a real recorded 1882 game at three points: early track, mid-game and the finished game.

The game is read from ../shared/fixtures (never copied here); only the reviewed pictures are kept in
tests/rendering/golden/. A change to the engine's state at those points (a tile, a token, a share price, a
player's cash) shows up here as well as a change to the drawing. Refresh as described in imagecompare.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from engine.core.game import Game
from engine.core.statusbuild import status_view
from engine.core.viewbuild import board_view, market_view
from engine.importer import read_game_file, replay
from rendering import render_map, render_market, render_status
from tests.conftest import SHARED_FIXTURES, missing_message
from tests.rendering.imagecompare import assert_matches_golden

GAME = SHARED_FIXTURES / "1882" / "1882_game_end_stock_market.json"
POINTS = {"early": 120, "mid": 400, "end": None}  # replay the actions whose id is below this (None: all)


@cache
def game_at(before: int | None) -> Game:
    recorded = read_game_file(GAME)
    if before is not None:
        # Undo and redo only point backwards, so a prefix of the log is a valid log.
        recorded = replace(recorded, actions=[a for a in recorded.actions if int(a.get("id", 0)) < before])
    return replay(recorded)


@pytest.fixture(params=list(POINTS), ids=list(POINTS))
def point(request: pytest.FixtureRequest) -> str:
    if not GAME.is_file():
        pytest.fail(missing_message(f"the recorded game {GAME}"), pytrace=False)
    return str(request.param)


def test_map(point: str) -> None:
    assert_matches_golden(render_map(board_view(game_at(POINTS[point])), scale=0.6), f"recorded_{point}_map")


def test_market(point: str) -> None:
    assert_matches_golden(render_market(market_view(game_at(POINTS[point]))), f"recorded_{point}_market")


def test_status(point: str) -> None:
    assert_matches_golden(render_status(status_view(game_at(POINTS[point]))), f"recorded_{point}_status")
