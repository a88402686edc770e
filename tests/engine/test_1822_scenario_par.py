"""1822: a major is started by the player holding its concession (1822 rules 5.3), at a major's par price (£50 is a
minor's only) the player can pay for. The position: Player 3's stock turn in the recorded 1822+ game
(../shared/fixtures/1822/33845.json before action 294), holding CR's concession, with £335."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.titles.g1822.game import G1822
from tests.engine.test_1822_rules import PLUS_GAME, recorded_until


def _player_3_may_start_cr() -> G1822:
    assert PLUS_GAME is not None, "the recorded 1822+ game 33845 is missing"
    game, _ = recorded_until(294)
    assert game.round.entity().name == "Player 3" and game.round.entity().cash == 335
    return game


def _par(game: G1822, corp: str, price: str) -> None:
    game.process({"type": "par", "entity": 1539, "entity_type": "player", "corporation": corp, "share_price": price})


def test_a_major_is_started_by_its_concessions_holder_at_a_majors_par_price() -> None:
    game = _player_3_may_start_cr()
    offered = [c["share_price"] for c in query.choices(game, game.player_by_id(1539), "par")]
    assert offered == ["100,4,4", "90,5,4", "80,6,4", "70,7,4", "60,8,4"]
    with pytest.raises(GameError, match="Player 3 cannot start LNWR now"):
        _par(game, "LNWR", "100,4,4")
    with pytest.raises(GameError, match="£50 is a par price for minors only"):
        _par(game, "CR", "50,9,4")
    with pytest.raises(GameError, match="£550 is not a par price; par prices: £50, £60, £70, £80, £90, £100"):
        _par(game, "CR", "550,0,17")


def test_a_major_is_started_only_with_the_money_for_its_directors_certificate() -> None:
    game = _player_3_may_start_cr()
    _par(game, "CR", "100,4,4")  # the director's certificate at £200, less the concession's £100 value
    assert game.player_by_id(1539).cash == 335 - 100

    poor = _player_3_may_start_cr()
    poor.player_by_id(1539).cash = 90
    poor._checkpoint = None  # a refusal restores this position
    offered = [c["share_price"] for c in query.choices(poor, poor.player_by_id(1539), "par")]
    assert offered == ["90,5,4", "80,6,4", "70,7,4", "60,8,4"]
    with pytest.raises(GameError, match="Player 3 cannot afford to start CR at £100"):
        _par(poor, "CR", "100,4,4")
