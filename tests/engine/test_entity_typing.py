"""The typed Step API: who may act (``engine.core.entities.Entity``), how a step narrows it to the kind it acts
for, and the typed reads of an action's fields."""

from __future__ import annotations

import pytest

from engine.core.actions import Action, opt_text, opt_whole, route_list, share_ids, text, whole
from engine.core.entities import as_company, as_corporation, as_player, sym_of
from engine.core.errors import ErrorCode, GameError
from engine.titles.g1882.game import G1882


def new_1882() -> G1882:
    return G1882([(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=1)


def test_narrowing_hands_back_the_entity_of_the_kind_asked() -> None:
    game = new_1882()
    player, corp, company = game.players[0], game.corporations["CPR"], next(iter(game.companies.values()))
    assert as_player(player) is player
    assert as_corporation(corp) is corp
    assert as_company(company) is company
    assert sym_of(corp) == "CPR"
    assert sym_of(company) == company.sym


@pytest.mark.parametrize(("narrow", "who", "says"), [
    (as_corporation, "player", "Ann is not a corporation"),
    (as_player, "corporation", "CPR is not a player"),
    (as_company, "corporation", "CPR is not a private company"),
    (sym_of, "player", "Ann is not a company"),
    (as_corporation, "nobody", "nobody is not a corporation"),
])
def test_narrowing_refuses_another_kind_with_a_game_error_that_names_it(narrow: object, who: str, says: str) -> None:
    game = new_1882()
    entity = {"player": game.players[0], "corporation": game.corporations["CPR"], "nobody": None}[who]
    assert callable(narrow)
    with pytest.raises(GameError) as refused:
        narrow(entity)
    assert refused.value.code is ErrorCode.ILLEGAL
    assert says in str(refused.value)


def test_typed_reads_give_each_field_as_its_type() -> None:
    action: Action = {"type": "buy_train", "entity": "CPR", "train": "3-0", "price": 180, "variant": None,
                      "shares": ["CPR_1", "CPR_2"], "routes": [{"train": "3-0", "hexes": ["J10"]}]}
    assert text(action, "train") == "3-0"
    assert whole(action, "price") == 180
    assert opt_text(action, "variant") is None  # null
    assert opt_text(action, "exchange") is None  # missing
    assert opt_whole(action, "slot") is None
    assert opt_whole({**action, "slot": 1}, "slot") == 1
    assert share_ids(action) == ["CPR_1", "CPR_2"]
    assert route_list(action)[0]["hexes"] == ["J10"]
    with pytest.raises(KeyError):
        text(action, "hex")  # a required field is read only after validate_shape checked it is there
