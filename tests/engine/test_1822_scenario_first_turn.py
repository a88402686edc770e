"""1822: a minor's first turn opens with the purchase of the depot's next L train at its price (1822 rules 6.1;
18xx.games buys the depot's next), refused at another price or as another variant."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.titles.g1822.game import G1822
from tests.engine.test_1822 import bid, new_game, pass_


def _minor_24_first_turn() -> G1822:
    game = new_game()
    bid(game, game.players[0], "M24", 100)
    while game.round.kind == "stock":
        pass_(game, game.acting()[0])
    assert game.acting() == [game.corporations["24"]]
    return game


def test_a_minor_buys_the_next_l_train_at_its_price_and_as_an_l_train_only() -> None:
    game = _minor_24_first_turn()
    [offer] = query.choices(game, game.corporations["24"], "buy_train")
    assert (offer["train"], offer["price"], offer["variant"]) == ("L-3", 60, "L")
    with pytest.raises(GameError, match="the L train costs £60"):
        game.process({**offer, "price": 50})
    with pytest.raises(GameError, match="only an L train may be bought now"):
        game.process({**offer, "variant": "2"})
    game.process(offer)
    minor = game.corporations["24"]
    assert [t.id for t in minor.trains] == ["L-3"] and minor.cash == 100 - 60
