"""1822: a major's acquisition of a minor refused with the reason (1822 rules 7.2: only a started minor that has
operated twice and is connected to the major, or one from a bid box in the later phases), and the acquisition's two
decisions, each refused outside its options. The position: CR's turn in the recorded 1822+ game
(../shared/fixtures/1822/33845.json before action 577), where it takes minor 6 over."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.titles.g1822.game import G1822
from tests.engine.test_1822 import plus_game_until
from tests.engine.test_1822_rules import PLUS_GAME


def _cr_to_acquire() -> G1822:
    assert PLUS_GAME is not None, "the recorded 1822+ game 33845 is missing"
    game = plus_game_until(577)
    assert game.actions_for(game.corporations["CR"]) == ["merge", "pass"]
    return game


def _cr(game: G1822, kind: str, **fields: str) -> None:
    game.process({"type": kind, "entity": "CR", "entity_type": "corporation", **fields})


@pytest.mark.parametrize(("minor", "why"), [
    ("LNWR", "LNWR is not a minor company"),
    ("5", "5 has closed"),
    ("1", "1 has not started and is not in a bid box"),
    ("8", "8 is still in a bid box, which majors may buy from only in a later phase"),
    ("7", "it is not connected"),
])
def test_a_minor_out_of_reach_is_refused_with_the_reason(minor: str, why: str) -> None:
    game = _cr_to_acquire()
    assert [c["corporation"] for c in query.choices(game, game.corporations["CR"], "merge")] == ["6"]
    with pytest.raises(GameError, match=f"^CR cannot acquire {minor}: {why}$"):
        _cr(game, "merge", corporation=minor)


def test_each_decision_of_an_acquisition_is_one_of_its_options() -> None:
    game = _cr_to_acquire()
    _cr(game, "merge", corporation="6")
    assert game.actions_for(game.corporations["CR"]) == ["choose"]  # no pass until it is finished
    with pytest.raises(GameError, match="choose one of one_share, two_shares"):
        _cr(game, "choose", choice="exchange")  # the station's decision comes second
    _cr(game, "choose", choice="two_shares")
    with pytest.raises(GameError, match="choose one of replace, exchange"):
        _cr(game, "choose", choice="two_shares")
    _cr(game, "choose", choice="exchange")
    assert game.corporations["6"].closed
