"""1828 operating-turn moves refused, on the recorded game's systems: a second lay in the hex just laid, a station
in the Virginia Coalfields (rules 16: no company may token there) and a swap of a train the system does not own."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.titles.g1828 import shells
from tests.engine.test_1828_rules import GAME_A, before

FIRST_LAY = {"type": "lay_tile", "entity": "CPR-MC", "entity_type": "system", "hex": "D6", "tile": "14-2",
             "rotation": 1}  # id 274 of the recorded game
SECOND_LAY = {"type": "lay_tile", "entity": "CPR-MC", "entity_type": "system", "hex": "B18", "tile": "9-4",
              "rotation": 1}  # id 275


def test_a_system_may_not_lay_its_second_tile_in_the_hex_it_just_laid() -> None:
    game = before(GAME_A, 275)
    assert game.board["D6"].tile.id == "14-2"
    with pytest.raises(GameError, match="D6 already had a tile laid this turn"):
        game.process({**SECOND_LAY, "hex": "D6"})
    game.process(SECOND_LAY)  # elsewhere the second lay is fine
    assert game.board["B18"].tile.id == "9-4"


def test_no_station_may_be_placed_in_the_virginia_coalfields() -> None:
    game = before(GAME_A, 275)
    game.process(SECOND_LAY)
    system = game.corporations["CPR-MC"]
    free_before = len(system.unused_tokens())
    coalfields = game.board[game.coal["coalfields"]]
    with pytest.raises(GameError, match="the Virginia Coalfields may not be tokened"):
        game.process({"type": "place_token", "entity": "CPR-MC", "entity_type": "system",
                      "city": f"{coalfields.tile.id}-0", "slot": 0})
    system = game.corporations["CPR-MC"]
    assert len(system.unused_tokens()) == free_before
    assert all(t is None for t in game.board[game.coal["coalfields"]].tile.tokens[0])


def test_a_system_swaps_only_its_own_trains_between_its_shells() -> None:
    game = before(GAME_A, 474)
    system = game.corporations["CPR-MC"]
    assert [t.id for t in system.trains] == ["3+D-1", "6-0"]
    with pytest.raises(GameError, match="CPR-MC does not own train 2-0"):
        game.process({"type": "swap_train", "entity": "CPR-MC", "entity_type": "system", "train": "2-0"})
    with pytest.raises(GameError, match="CPR-MC does not own train 9-9"):
        game.process({"type": "swap_train", "entity": "CPR-MC", "entity_type": "system", "train": "9-9"})


def test_a_station_goes_only_where_the_system_reaches_and_may_place_one() -> None:
    game = before(GAME_A, 275)
    game.process(SECOND_LAY)
    offered = {c["city"] for c in query.choices(game, game.corporations["CPR-MC"], "place_token")}
    assert offered == {"14-2-0", "57-3-0"}
    with pytest.raises(GameError, match="A15 is not connected to CPR-MC's network"):
        game.process({"type": "place_token", "entity": "CPR-MC", "entity_type": "system",
                      "city": f"{game.board['A15'].tile.id}-0", "slot": 0})
    with pytest.raises(GameError, match="CPR-MC cannot place a token in A23"):  # its own station is there
        game.process({"type": "place_token", "entity": "CPR-MC", "entity_type": "system",
                      "city": f"{game.board['A23'].tile.id}-0", "slot": 0})


ROUTE: dict[str, object] = {"train": "2-5", "connections": [["B20", "A21", "B22", "A23"]], "hexes": ["A23", "B20"],
                            "revenue": 70}
RUN: dict[str, object] = {"type": "run_routes", "entity": "CPR-MC", "entity_type": "system",
       "routes": [ROUTE]}  # id 277


def test_a_system_runs_only_its_own_trains_each_once() -> None:
    game = before(GAME_A, 277)
    route = ROUTE
    with pytest.raises(GameError, match="CPR-MC does not own train 2-0"):
        game.process({**RUN, "routes": [{**route, "train": "2-0"}]})
    with pytest.raises(GameError, match="train 2-5 can only run once"):
        game.process({**RUN, "routes": [route, route]})
    cash = game.corporations["CPR-MC"].cash
    game.process(RUN)
    assert game.corporations["CPR-MC"].cash in (cash, cash + 70)  # revenue awaits the dividend decision or is kept


def test_a_player_sells_only_shares_held_and_cannot_buy_back_what_was_sold() -> None:
    game = before(GAME_A, 186)
    sell = {"type": "sell_shares", "entity": 2051, "entity_type": "player",
            "shares": ["MP_1", "MP_2", "MP_3", "MP_4"], "percent": 40}
    with pytest.raises(GameError, match="Player 3 does not own NYC_1"):
        game.process({**sell, "shares": ["NYC_1"], "percent": 10})
    with pytest.raises(GameError, match="Player 3 cannot sell 40% as MP_1, MP_2, MP_3, MP_4, MP_1"):
        game.process({**sell, "shares": sell["shares"] * 2})  # type: ignore[operator]
    game.process(sell)
    mp = game.pool.shares_of("MP")[0]
    with pytest.raises(GameError, match="Player 3 sold MP this round and cannot buy it back"):
        game.process({"type": "buy_shares", "entity": 2051, "entity_type": "player", "shares": [mp.id], "percent": 10})
    assert len(game.pool.shares_of("MP")) == 4  # still in the market: the state was rolled back


def test_a_system_buys_a_train_that_exists_into_a_named_shell() -> None:
    buy = {"type": "buy_train", "entity": "CPR-MC", "entity_type": "system", "train": "3+D-1", "price": 350,
           "variant": "3+D", "shell": "CPR"}  # id 324
    game = before(GAME_A, 324)
    with pytest.raises(GameError, match="there is no train ZZ"):
        game.process({**buy, "train": "ZZ"})
    game.process(buy)
    assert game.all_trains["3+D-1"].owner is game.corporations["CPR-MC"]
    shell = shells.shell_of(game, game.corporations["CPR-MC"], game.all_trains["3+D-1"])
    assert shell is not None and shell.name == "CPR"
