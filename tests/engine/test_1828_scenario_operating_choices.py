"""1828 operating choices refused outside what the rules offer, on positions of the recorded game
../shared/fixtures/1828/23366.json: the C&P minor's train is not for sale (rules 13.2), the Coalfields sell only coal
markers (rules 16), a company over its train limit discards one of its own trains (rules 7.5.4, 11), and the C&P's free
station goes in Peterborough only (rules 13.2)."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.titles.g1828.game import G1828
from tests.engine.test_1828_rules import GAME_A, before


def _position(action_id: int) -> G1828:
    assert GAME_A.exists(), f"the recorded game {GAME_A} is missing"
    return before(GAME_A, action_id)


def _corp(sym: str, kind: str, **fields: object) -> dict[str, object]:
    return {"type": kind, "entity": sym, "entity_type": "corporation", **fields}


def test_the_c_and_p_minors_train_is_not_for_sale() -> None:
    game = _position(56)  # GT buys trains; the C&P minor runs 2-1
    assert [t.id for t in game.corporations["C&P"].trains] == ["2-1"]
    assert [c["train"] for c in query.choices(game, game.corporations["GT"], "buy_train")] == ["2-0"]
    with pytest.raises(GameError, match="train 2-1 runs for the C&P and is not for sale"):
        game.process(_corp("GT", "buy_train", train="2-1", price=80))
    assert game.corporations["C&P"].trains[0].id == "2-1"


def test_the_coalfields_sell_only_coal_markers() -> None:
    game = _position(164)  # IC may buy a coal marker
    [offer] = query.choices(game, game.corporations["IC"], "special_buy")
    assert (offer["description"], offer["cost"]) == ("Coal Marker", 120)
    with pytest.raises(GameError, match="there is no Gold Marker for sale"):
        game.process(_corp("IC", "special_buy", description="Gold Marker", cost=120))
    game.process(offer)
    assert "coal" in game.corporations["IC"].markers


def test_a_company_over_its_train_limit_discards_one_of_its_own_trains() -> None:
    game = _position(310)  # NYC is over the limit
    nyc = game.corporations["NYC"]
    assert game.acting() == [nyc] and [t.id for t in nyc.trains] == ["3-7", "3-8", "5-0", "5-1"]
    assert [c["train"] for c in query.choices(game, nyc, "discard_train")] == ["3-7", "3-8", "5-0", "5-1"]
    other = next(t for t in game.all_trains.values() if t.owner is not None and t.owner is not nyc)
    with pytest.raises(GameError, match=f"NYC cannot discard train {other.id} now"):
        game.process(_corp("NYC", "discard_train", train=other.id))
    with pytest.raises(GameError, match="NYC cannot discard train 9-9 now"):
        game.process(_corp("NYC", "discard_train", train="9-9"))


def test_a_company_buying_the_c_and_p_places_its_free_station_in_peterborough_only() -> None:
    game = _position(285)  # GT-IC has just bought the C&P
    cp = game.companies["C&P"]
    [offer] = query.choices(game, cp, "place_token")
    assert offer["city"] == "C15-0-0" and game.actions_for(cp) == ["place_token", "pass"]
    with pytest.raises(GameError, match="C&P's station goes in C15"):
        game.process({**offer, "city": f"{game.board['D4'].tile.id}-0"})
    cash = game.corporations["GT-IC"].cash
    game.process(offer)
    assert game.board["C15"].tile.tokens == {0: ["GT-IC"]} and game.corporations["GT-IC"].cash == cash
