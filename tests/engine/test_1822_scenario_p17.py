"""1822: P17 (the bank's stacks) lets its company move a minor, concession or private of the bank's stacks that is
not in a bid box to just under the bid boxes or to the bottom of its stack, once: then it closes (1822 rules, P17);
nothing for a private not owned by a company, and no other move."""

from __future__ import annotations

import pytest

from engine.core.errors import GameError
from engine.titles.g1822.bidboxes import bank_companies, bidbox_minors
from engine.titles.g1822.private_choices import make_company_choice, move_card_choices
from tests.engine.test_1822 import new_game


def test_p17_moves_a_card_of_the_banks_stacks_under_the_bid_boxes_or_to_the_bottom() -> None:
    game = new_game()
    p17, lnwr = game.companies["P17"], game.corporations["LNWR"]
    assert p17.owner is None and move_card_choices(game, p17) == []  # still the bank's
    p17.owner = lnwr
    lnwr.companies.append(p17)
    assert [c.sym for c in bidbox_minors(game)] == ["M24", "M16", "M14", "M15"]
    assert [c.sym for c in bank_companies(game, "M")][4:7] == ["M3", "M21", "M5"]
    choices = move_card_choices(game, p17)
    assert choices[:4] == ["M3_top", "M3_bottom", "M21_top", "M21_bottom"] and "M24_top" not in choices
    with pytest.raises(GameError, match="that choice is not available now"):
        make_company_choice(game, p17, "M24_bottom", "issue")  # in a bid box
    make_company_choice(game, p17, "M5_top", "issue")
    assert [c.sym for c in bank_companies(game, "M")][4:7] == ["M5", "M3", "M21"]
    assert [c.sym for c in bidbox_minors(game)] == ["M24", "M16", "M14", "M15"]
    assert p17.closed and move_card_choices(game, p17) == []  # one move, then it closes


def test_p17_moves_a_card_to_the_bottom_of_its_stack() -> None:
    game = new_game()
    p17, lnwr = game.companies["P17"], game.corporations["LNWR"]
    p17.owner = lnwr
    lnwr.companies.append(p17)
    make_company_choice(game, p17, "M3_bottom", "issue")
    assert [c.sym for c in bank_companies(game, "M")][-1] == "M3" and p17.closed
