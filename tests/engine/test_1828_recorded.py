"""Every recorded 1828 game replays to exactly its final result and end reason, with the invariants after each
action, and its title moves both ways between 18xx.games' name and ours."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import actions as act
from engine.core.invariants import problems
from engine.importer import read_game_file, replay
from engine.titles import title_class
from engine.titles.g1828.game import G1828
from tests.conftest import SHARED_FIXTURES, recorded_games

GAMES_1828 = recorded_games("1828")
pytestmark = pytest.mark.skipif(not GAMES_1828, reason=f"{SHARED_FIXTURES / '1828'} is absent")


@pytest.mark.parametrize("path", GAMES_1828, ids=lambda p: p.stem)
def test_replays_to_recorded_result(path: Path) -> None:
    gf = read_game_file(path)
    game = replay(gf)
    assert game.result() == {str(k): v for k, v in gf.raw["result"].items()}
    assert game.game_end_reason == gf.raw["game_end_reason"]


@pytest.mark.parametrize("path", GAMES_1828, ids=lambda p: p.stem)
def test_invariants_hold_after_every_action(path: Path) -> None:
    gf = read_game_file(path)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    money = game.total_cash()
    for action in act.filter_undo(gf.actions):
        game._apply(action)
        found = problems(game, money)
        assert not found, f"after action {action.get('id')}: {found}"


def test_title_names_map_both_ways() -> None:
    assert title_class("1828.Games") is G1828
    assert title_class("1828") is G1828
    assert G1828.EXPORT_TITLE == "1828.Games"
