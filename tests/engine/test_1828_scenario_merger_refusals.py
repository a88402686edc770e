"""1828 mergers refused (rules 7.5), on the recorded game where Player 4 starts GT + IC in its Stock Round:
a company with no partner, a partner the rules do not allow, and a decision naming neither company."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from tests.engine.test_1828_rules import GAME_A, GAME_B, before

pytestmark = pytest.mark.skipif(not (GAME_A.exists() and GAME_B.exists()), reason="1828 recorded games absent")


def test_a_player_cannot_start_a_merger_with_a_company_that_has_no_partner() -> None:
    game = before(GAME_A, 234)  # Player 4 is about to choose GT
    player = game.player_by_id(5518)
    offered = {c["choice"] for c in query.choices(game, player, "choose")}
    assert offered == {"CPR", "GT", "IC", "MC", "MP"}
    assert query.step_for(game, player, "lay_tile") is None  # a stock round's turn: no step lays track
    assert query.step_for(game, player, "choose") is not None
    for name in ("NYC", "B&O", "C&P", "ZZZ"):  # another's company, one with no partner, the C&P minor, no company
        with pytest.raises(GameError, match=f"{name} has no company to merge with"):
            game.process({"type": "choose", "entity": 5518, "entity_type": "player", "choice": name})
    assert [p.id for p in game.acting()] == [5518]  # nothing changed: the choice is still to make
    game.process({"type": "choose", "entity": 5518, "entity_type": "player", "choice": "GT"})


def test_a_merger_with_a_company_the_rules_do_not_allow_is_refused() -> None:
    game = before(GAME_A, 235)  # GT is chosen; it now names its partner
    gt = game.corporations["GT"]
    assert [c["corporation"] for c in query.choices(game, gt, "merge")] == ["CPR", "IC", "MC"]
    for name in ("NYC", "B&O", "PRR"):
        with pytest.raises(GameError, match=f"GT cannot merge with {name}"):
            game.process({"type": "merge", "entity": "GT", "entity_type": "corporation", "corporation": name})
    assert "GT-IC" not in game.corporations or not game.corporations["GT-IC"].ipoed
    game.process({"type": "merge", "entity": "GT", "entity_type": "corporation", "corporation": "IC"})
    assert game.corporations["GT-IC"].ipoed


def test_the_odd_share_decision_names_one_of_the_two_companies() -> None:
    game = before(GAME_A, 236)  # Player 1 picks which company's odd share to keep
    with pytest.raises(GameError, match=r"choose one of: GT \(\$67\), IC \(\$78\)"):
        game.process({"type": "choose", "entity": 648, "entity_type": "player", "choice": "XX"})
    assert not game.corporations["GT"].closed
    game.process({"type": "choose", "entity": 648, "entity_type": "player", "choice": "IC"})
    assert game.corporations["GT"].closed and game.corporations["IC"].closed


def test_no_move_is_taken_after_the_game_has_ended() -> None:
    game = before(GAME_B, 10**9)  # the whole recorded game: it ends when a share price reaches the market's end
    assert game.finished
    with pytest.raises(GameError, match="the game is over") as caught:
        game.process({"type": "pass", "entity": 1, "entity_type": "player"})
    assert caught.value.code.value == "game_over"
    # and nothing is offered: no choices, no step to take one
    assert query.choices(game, game.players[0], "pass") == []
    assert query.step_for(game, game.players[0], "pass") is None
