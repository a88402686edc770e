"""1822's bid boxes (1822 rules 4.2): a bid names an item in a bid box, at least its minimum, in steps of £5, within
the bidder's cash; a player bids on at most as many items as they have bid tokens, then may only move a bid. A loan is
repaid in part by a positive amount."""

from __future__ import annotations

import pytest

from engine.core.errors import GameError
from engine.titles.g1822.bidboxes import bidbox_companies
from engine.titles.g1822.game import G1822
from tests.engine.test_1822 import bid, new_game, pass_


def test_a_bid_names_an_item_in_a_bid_box_at_a_price_the_rules_allow() -> None:
    game = new_game()
    p1 = game.players[0]
    assert game.acting() == [p1] and p1.cash == 700
    assert [c.sym for c in bidbox_companies(game)][:4] == ["M24", "M16", "M14", "M15"]
    with pytest.raises(GameError, match="M3 is not in a bid box"):
        bid(game, p1, "M3", 100)
    with pytest.raises(GameError, match="the minimum bid for M24 is £100"):
        bid(game, p1, "M24", 95)
    with pytest.raises(GameError, match="bids rise in steps of £5"):
        bid(game, p1, "M24", 103)
    with pytest.raises(GameError, match="P1 can bid at most £700"):
        bid(game, p1, "M24", 705)
    bid(game, p1, "M24", 105)
    assert game.bids["M24"] == [(game.players[0], 105)]


def test_a_player_out_of_bid_tokens_may_not_bid_on_another_item() -> None:
    game = new_game()
    assert game.bid_tokens == 6
    targets = [c.sym for c in bidbox_companies(game)]
    placed: list[str] = []
    while len(placed) < game.bid_tokens:
        actor = game.acting()[0]
        if actor is game.players[0]:
            placed.append(targets[len(placed)])
            bid(game, actor, placed[-1], 100)
        else:
            pass_(game, actor)
    while game.acting()[0] is not game.players[0]:
        pass_(game, game.acting()[0])
    with pytest.raises(GameError, match="P1 has no bid tokens left; move a bid instead"):
        bid(game, game.players[0], targets[len(placed)], 100)
    assert sorted(sym for sym, bids in game.bids.items() if any(who is game.players[0] for who, _ in bids)) \
        == sorted(placed)


def test_a_partial_repayment_of_a_loan_is_of_a_positive_amount() -> None:
    game = G1822([(1, "P1"), (2, "P2"), (3, "P3")], 11, {"optional_rules": []})
    game.players[0].debt = 30
    assert game.actions_for(game.players[0]) == ["payoff_player_debt", "payoff_player_debt_partial", "pass"]
    with pytest.raises(GameError, match="a repayment must be of a positive amount"):
        game.process({"type": "payoff_player_debt_partial", "entity": 1, "entity_type": "player", "amount": 0})
    game.process({"type": "payoff_player_debt_partial", "entity": 1, "entity_type": "player", "amount": 10})
    assert (game.players[0].cash, game.players[0].debt) == (700 - 10, 20)
