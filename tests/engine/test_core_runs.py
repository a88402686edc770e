"""The core's run of a company's trains and its station (engine/core/steps/operating.py): each of its own trains
once, at the revenue its route earns; a run recorded on 18xx.games stands as recorded, even where our route check
would refuse it (its loaded games are not checked again); a station in a city of the company's network where it may
have one. Positions of the recorded 1830 game ../shared/fixtures/1830/26855.json (B&O's run at action 200: its 3
train from I19 to I15 for $60)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core.errors import GameError
from engine.core.game import Game
from tests.conftest import SHARED_FIXTURES
from tests.engine.test_1830_rules import before

GAME = SHARED_FIXTURES / "1830" / "26855.json"


def _b_and_o_runs() -> tuple[Game, dict[str, Any], dict[str, Any]]:
    game, run = before(GAME, 200)
    [route] = run["routes"]
    assert (run["entity"], route["train"], route["revenue"]) == ("B&O", "3-4", 60)
    assert game.options["recorded_runs"] is True  # an 18xx.games file
    return game, {k: v for k, v in run.items() if k not in ("id", "created_at")}, route


def test_a_run_made_here_names_each_own_train_once_at_what_its_route_earns() -> None:
    game, run, route = _b_and_o_runs()
    game.options.pop("recorded_runs")
    assert [t.id for t in game.corporations["B&O"].trains] == ["3-4", "4-0"]
    with pytest.raises(GameError, match="B&O does not own train 2-0"):
        game.process({**run, "routes": [{**route, "train": "2-0"}]})
    with pytest.raises(GameError, match="train 3-4 can only run once"):
        game.process({**run, "routes": [route, route]})
    with pytest.raises(GameError, match=r"the 3 train's route earns \$60, not \$70"):
        game.process({**run, "routes": [{**route, "revenue": 70}]})
    game.process(run)
    assert game.round.revenue == 60  # type: ignore[attr-defined]


def test_a_recorded_run_stands_as_recorded_where_a_run_made_here_is_refused() -> None:
    game, run, route = _b_and_o_runs()
    off_track = {**run, "routes": [{**route, "connections": [["I15", "I17"]]}]}
    made_here = copy.deepcopy(game)
    made_here.options.pop("recorded_runs")
    with pytest.raises(GameError, match="there is no track along I15-I17"):
        made_here.process(off_track)
    game.process(off_track)
    assert game.round.revenue == 60  # type: ignore[attr-defined]


def test_a_station_goes_in_a_city_of_the_companys_network_where_it_may_have_one() -> None:
    """PRR's station at action 187 of the same game (in H16, 57-2 or 57-3; its home is H12)."""
    game, station = before(GAME, 187)
    move = {k: v for k, v in station.items() if k not in ("id", "created_at")}
    with pytest.raises(GameError, match="PRR has no station tokens left"):
        game.process({**move, "token_type": "neutral"})  # 1830 has no neutral stations
    with pytest.raises(GameError, match="A19 is not connected to PRR's network"):
        game.process({**move, "city": f"{game.board['A19'].tile.id}-0"})
    with pytest.raises(GameError, match="PRR cannot place a token in H12"):
        game.process({**move, "city": f"{game.board['H12'].tile.id}-0"})  # it is there already
    game.process(move)
    assert [t.hex for t in game.corporations["PRR"].tokens if t.used] == ["H12", "H16"]
