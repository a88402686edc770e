"""The core's refusals of a tile lay, a station and a train purchase, each with the message a player reads, and the
state left as it was (the rules of ``engine/core/play_track.py`` and ``play_trains.py``; 1882's board)."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.core.entities import Corporation, Train
from engine.core.errors import ErrorCode, GameError
from engine.titles.g1882.game import G1882


def game() -> G1882:
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=1)
    assert isinstance(g, G1882)
    return g


def floated(g: G1882, sym: str, cash: int) -> Corporation:
    corp = g.corporations[sym]
    corp.floated = True
    g.bank.spend(cash, corp)
    g.place_home_token(corp)
    return corp


def owned(g: G1882, corp: Corporation, train: Train) -> None:
    g.depot.remove(train)
    train.owner = corp
    corp.trains.append(train)


def test_a_tile_lay_is_refused_off_the_network_in_the_wrong_colour_rotation_or_beyond_the_treasury() -> None:
    g = game()
    cnr = floated(g, "CNR", 0)
    home = cnr.tokens[0].hex
    assert home is not None
    with pytest.raises(GameError, match="is not connected to CNR's network"):
        g.lay_tile(cnr, {"hex": "C3", "tile": "57-0", "rotation": 0})
    with pytest.raises(GameError, match="green tiles are not available in phase 2"):
        g.lay_tile(cnr, {"hex": home, "tile": "14-0", "rotation": 0})
    with pytest.raises(GameError, match=f"tile 9 cannot be laid on {home}"):
        g.lay_tile(cnr, {"hex": home, "tile": "9-0", "rotation": 0}, check_connection=False)
    # B4 lies on the map's edge: a gentle curve fits it one way only, and any other way is named with that one.
    with pytest.raises(GameError, match="tile 8 cannot be laid on B4 at rotation 0; legal rotations: 5"):
        g.lay_tile(cnr, {"hex": "B4", "tile": "8-0", "rotation": 0}, check_connection=False)
    mountain = g.board["M3"]  # a town in the mountains: $40 for its first tile
    old = mountain.tile
    rotation = g.tile_rotations(cnr, mountain, g.tile_from_supply("58-0").tdef, None)[0]
    with pytest.raises(GameError, match="CNR cannot afford this tile lay: treasury \\$0, cost \\$40"):
        g.lay_tile(cnr, {"hex": "M3", "tile": "58-0", "rotation": rotation}, check_connection=False)
    assert mountain.tile is old and g.board["B4"].tile.tdef.name == "B4"


def test_a_hex_blocked_by_a_private_takes_no_tile_while_a_player_owns_it() -> None:
    g = game()
    cnr = floated(g, "CNR", 100)
    hb = g.companies["HB"]
    hb.owner = g.players[0]
    g.players[0].companies.append(hb)
    blocked = next(h for h in g.board.hexes.values() if g.blocked_hex(h) is hb)
    with pytest.raises(GameError, match=f"{blocked.id} is blocked by HB while a player owns it"):
        g.lay_tile(cnr, {"hex": blocked.id, "tile": "9-0", "rotation": 0}, check_connection=False)


def test_a_station_is_refused_in_a_full_city_and_beyond_the_treasury() -> None:
    g = game()
    cnr = floated(g, "CNR", 0)
    hbr = floated(g, "HBR", 0)
    full = g.board[hbr.tokens[0].hex or ""]
    with pytest.raises(GameError, match=f"no free token space in {full.id}"):
        g.place_token(cnr, cnr.tokens[1], full, hbr.tokens[0].node)
    free = g.board["C3"]
    with pytest.raises(GameError, match="CNR cannot afford a token: treasury \\$0, price \\$40"):
        g.place_token(cnr, cnr.tokens[1], free, 0)
    assert free.tile.tokens == {0: [None]} and not cnr.tokens[1].used


def test_a_train_purchase_is_refused_when_the_rules_forbid_it() -> None:
    g = game()
    cnr = floated(g, "CNR", 100)
    hbr = floated(g, "HBR", 500)
    first, second, three = g.depot[0], g.depot[1], next(t for t in g.depot if t.name == "3")
    owned(g, cnr, first)
    with pytest.raises(GameError, match=f"CNR already owns {first.id}"):
        g.buy_train_action(cnr, first, 80, exchange=None, must_buy=False)
    with pytest.raises(GameError, match=f"{three.id} is not for sale; the depot sells: 2"):
        g.buy_train_action(cnr, three, 180, exchange=None, must_buy=False)
    with pytest.raises(GameError, match="the 2 train costs \\$80, not \\$70"):
        g.buy_train_action(cnr, second, 70, exchange=None, must_buy=False)
    with pytest.raises(GameError, match=f"HBR does not own {first.id}"):
        g.buy_train_action(hbr, second, 80, exchange=first, must_buy=False)
    g.pool_trains.append(second)
    g.depot.remove(second)
    second.owner = g.pool
    with pytest.raises(GameError, match="the 2 train from the pool costs \\$80"):
        g.buy_train_action(hbr, second, 60, exchange=None, must_buy=False)
    with pytest.raises(GameError, match="HBR may spend \\$1 to \\$"):
        g.buy_train_action(hbr, first, 0, exchange=None, must_buy=False)
    cnr.cash, g.bank.cash = 0, g.bank.cash + cnr.cash
    with pytest.raises(GameError, match="CNR cannot afford the 2 train: treasury \\$0, price \\$80"):
        g.buy_train_action(cnr, g.depot[0], 80, exchange=None, must_buy=False)
    assert [t.id for t in cnr.trains] == [first.id] and hbr.trains == []


def test_a_finished_game_takes_no_action_and_a_game_needs_its_player_count() -> None:
    g = game()
    g.end_game("manually_ended")
    with pytest.raises(GameError) as err:
        g.process({"type": "pass", "entity": 1, "entity_type": "player"})
    assert err.value.code is ErrorCode.GAME_OVER and err.value.message == "the game is over"
    with pytest.raises(GameError, match="1882 is for 2 to 6 players, not 1"):
        new_game("1882", [(1, "Ann")], seed=1)
