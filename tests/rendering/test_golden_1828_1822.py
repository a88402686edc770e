"""Golden images of recorded 1828 and 1822 games at three points each: early, mid-game and the finished game.

The games are read from ../shared/fixtures (never copied here); only the reviewed pictures are kept in
tests/rendering/golden/. 1828's mid point comes right after its first merger (systems on the map, the market
and the status card); 1822's after majors have acquired minors (London full, destinations placed). A change
to the engine's state at those points shows up here as well as a change to the drawing. Refresh as
described in imagecompare.
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

GAMES = {"1828": SHARED_FIXTURES / "1828" / "23366.json", "1822": SHARED_FIXTURES / "1822" / "33845.json"}
#: Replay the actions whose id is below this (None: all).
POINTS = {
    "1828": {"early": 130, "mid": 410, "end": None},
    "1822": {"early": 120, "mid": 700, "end": None},
}
#: Map scale: 1822's board is twice 1828's, so it is drawn smaller to keep the golden files small.
MAP_SCALE = {"1828": 0.6, "1822": 0.45}
CASES = [(title, point) for title, points in POINTS.items() for point in points]


@cache
def game_at(title: str, before: int | None) -> Game:
    recorded = read_game_file(GAMES[title])
    if before is not None:
        # Undo and redo only point backwards, so a prefix of the log is a valid log.
        recorded = replace(recorded, actions=[a for a in recorded.actions if int(a.get("id", 0)) < before])
    return replay(recorded)


@pytest.fixture(params=CASES, ids=[f"{t}-{p}" for t, p in CASES])
def case(request: pytest.FixtureRequest) -> tuple[str, str]:
    title, point = request.param
    if not GAMES[title].is_file():
        pytest.fail(missing_message(f"the recorded game {GAMES[title]}"), pytrace=False)
    return str(title), str(point)


def _game(case: tuple[str, str]) -> Game:
    title, point = case
    return game_at(title, POINTS[title][point])


def test_map(case: tuple[str, str]) -> None:
    title, point = case
    assert_matches_golden(render_map(board_view(_game(case)), scale=MAP_SCALE[title]), f"recorded_{title}_{point}_map")


def test_market(case: tuple[str, str]) -> None:
    title, point = case
    assert_matches_golden(render_market(market_view(_game(case))), f"recorded_{title}_{point}_market")


def test_status(case: tuple[str, str]) -> None:
    title, point = case
    assert_matches_golden(render_status(status_view(_game(case))), f"recorded_{title}_{point}_status")
