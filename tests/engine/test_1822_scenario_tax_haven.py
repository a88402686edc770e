"""1822: the tax haven (P16) buys only the shares its owner is offered (1822 rules, P16): one share of a started
major with a price, named ``<major>_ipo`` or ``<major>_market``; nothing while the bank owns P16. The position:
P16's owner's stock turn in the recorded 1822+ game (../shared/fixtures/1822/33845.json before action 1030)."""

from __future__ import annotations

import pytest

from engine.core.errors import GameError
from engine.titles.g1822.tax_haven import tax_haven_choices, tax_haven_owner
from tests.engine.test_1822 import new_game
from tests.engine.test_1822_rules import PLUS_GAME, p16_buy, recorded_until


def test_the_tax_haven_buys_only_a_share_it_is_offered() -> None:
    assert PLUS_GAME is not None, "the recorded 1822+ game 33845 is missing"
    game, _ = recorded_until(1030)
    offered = [a["choice"] for a in game.round.choices_for(game.companies["P16"], "choose_ability")]
    assert offered == ["LBSCR_ipo", "CR_ipo", "MR_ipo", "NBR_ipo"]
    with pytest.raises(GameError, match="the tax haven cannot buy a share of GWR now"):
        p16_buy(game, "GWR_ipo")  # GWR has not started
    for choice in ("NOPE_ipo", "LNWR_pool", "P1_ipo"):  # no such company, source or major
        with pytest.raises(GameError, match=f"the tax haven cannot buy '{choice}' now"):
            p16_buy(game, choice)
    assert game.tax_haven.shares == []


def test_a_tax_haven_the_bank_still_owns_buys_nothing() -> None:
    game = new_game()
    assert tax_haven_owner(game) is None and tax_haven_choices(game, 500) == []
