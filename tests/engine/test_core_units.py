"""Unit tests of the shared core: hex maths, tiles, upgrades, market moves and the undo filter."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.actions import filter_undo
from engine.core.board import join_hex_id, split_hex_id
from engine.core.errors import ErrorCode, GameError
from engine.core.market import StockMarket
from engine.core.tiles import Tile, parse_tile, shared_catalogue
from engine.core.track import legal_rotations, upgrade_shape_ok
from engine.titles.g1882.game import G1882


def new_1882(players: int = 3) -> G1882:
    return G1882([(i + 1, f"P{i + 1}") for i in range(players)], seed=1)


@given(st.integers(min_value=0, max_value=700), st.integers(min_value=0, max_value=99))
def test_hex_ids_round_trip(letter: int, number: int) -> None:
    assert split_hex_id(join_hex_id(letter, number)) == (letter, number)


def test_1882_neighbours_follow_the_printed_coordinates() -> None:
    board = new_1882().board
    j10 = board["J10"]
    # Flat hexes, letters are rows: 0=S 1=SW 2=NW 3=N 4=NE 5=SE.
    assert j10.neighbors == {0: "L10", 1: "K9", 2: "I9", 3: "H10", 4: "I11", 5: "K11"}
    assert len(board.hexes) == 74


@given(st.sampled_from(sorted(shared_catalogue())), st.integers(min_value=0, max_value=5))
def test_six_rotations_are_the_identity(name: str, rotation: int) -> None:
    tdef = shared_catalogue()[name]
    tile = Tile("t-0", tdef, rotation)
    exits = tile.exits()
    tile.rotation = (rotation + 6) % 6
    assert tile.exits() == exits
    tile.rotation = (rotation + 1) % 6
    assert tile.exits() == frozenset((e + 1) % 6 for e in exits)


def test_tile_language_parses_nodes_paths_and_labels() -> None:
    t = parse_tile("59", "green c40 c40 0-n0 2-n1 label:OO")
    assert [n.kind for n in t.nodes] == ["city", "city"]
    assert t.label == "OO"
    assert t.edges() == frozenset({0, 2})
    assert parse_tile("14", "green c30x2 0-n0 1-n0 3-n0 4-n0").nodes[0].slots == 2


def test_upgrades_respect_colour_label_and_track() -> None:
    game = new_1882()
    cat = game.tile_defs
    g11 = game.board["G11"]
    assert legal_rotations(game, g11, cat["57"], None)  # white city takes #57
    assert not legal_rotations(game, g11, cat["9"], None)  # plain track may not cover a city
    assert not legal_rotations(game, g11, cat["14"], None)  # no skipping yellow
    g11.tile = Tile("57-0", cat["57"], 1)
    assert legal_rotations(game, g11, cat["14"], None)
    assert legal_rotations(game, g11, cat["15"], None)
    assert not upgrade_shape_ok(g11.tile, cat["59"])  # OO label does not match
    e5 = game.board["E5"]  # preprinted OO
    assert legal_rotations(game, e5, cat["59"], None)
    assert not legal_rotations(game, e5, cat["14"], None)


def test_market_moves_like_the_1882_chart() -> None:
    data = new_1882().data()["game"]["market"]
    m = StockMarket(data)
    m.place("A", m.cell(0, 14))
    m.right("A")
    assert m.location["A"].price == 350
    m.right("A")  # already top right: stays
    assert m.location["A"].price == 350
    m.place("B", m.cell(3, 9))
    m.right("B")  # end of row 3: up
    assert m.location["B"].coords == (2, 9)
    m.place("C", m.cell(4, 0))
    m.left("C")  # start of the row: down
    assert m.location["C"].coords == (5, 0)
    m.place("D", m.cell(10, 3))
    m.down("D")  # column bottom: stays
    assert m.location["D"].coords == (10, 3)
    m.place("E", m.cell(5, 0))
    assert m.location["E"].stack == ["C", "E"]
    assert m.order_key("C") < m.order_key("E")


def test_market_arrows_and_ledges_from_data() -> None:
    m = StockMarket({"rows": [[50, 60, 70], [40, 50, 60], [30, 40, 50]], "up_arrows": [[1, 1]], "ledges": [[1, 0]]})
    m.place("A", m.cell(1, 1))
    m.right("A")  # an arrow: up, not right
    assert m.location["A"].coords == (0, 1)
    m.place("B", m.cell(1, 0))
    m.down("B")  # a ledge holds the marker
    assert m.location["B"].coords == (1, 0)
    m.place("C", m.cell(0, 0))
    m.down("C")
    assert m.location["C"].coords == (1, 0)


def test_undo_filter_semantics() -> None:
    acts = [{"id": 1, "type": "pass"}, {"id": 2, "type": "bid"}, {"id": 3, "type": "undo"},
            {"id": 4, "type": "redo"}, {"id": 5, "type": "message"}, {"id": 6, "type": "undo", "action_id": 1},
            {"id": 7, "type": "par"}]
    assert [a["id"] for a in filter_undo(acts[:3])] == [1]
    assert [a["id"] for a in filter_undo(acts[:4])] == [1, 2]
    assert [a["id"] for a in filter_undo(acts)] == [1, 5, 7]
    # A new action clears what could be redone.
    acts2 = [{"id": 1, "type": "pass"}, {"id": 2, "type": "undo"}, {"id": 3, "type": "bid"},
             {"id": 4, "type": "redo"}]
    assert [a["id"] for a in filter_undo(acts2)] == [3]


def test_every_action_type_of_the_recorded_games_is_registered() -> None:
    from engine.core import actions as act

    for kind, fields in (("merge", {"corporation": "NYH"}), ("choose", {"choice": "2"}),
                         ("acquire_company", {"company": "M1"}), ("hex_token", {"hex": "F5"}),
                         ("special_buy", {"description": "Coal marker", "cost": 120}), ("swap_train", {"train": "3-0"}),
                         ("choose_ability", {"choice": "x"}), ("take_loan", {}), ("payoff_loan", {})):
        act.validate_shape({"type": kind, "entity": "NYH", "entity_type": "system", **fields})
    with pytest.raises(GameError) as err:
        act.validate_shape({"type": "merge", "entity": "NYH"})
    assert err.value.code is ErrorCode.MALFORMED and "corporation" in err.value.message
    with pytest.raises(GameError, match="unknown action type 'fly'"):
        act.validate_shape({"type": "fly", "entity": 1})


def test_a_title_may_register_its_own_action_type_once() -> None:
    from engine.core import actions as act

    act.register_action("redeem_shares_test", "corporation")
    act.validate_shape({"type": "redeem_shares_test", "entity": "B&O", "corporation": "B&O"})
    assert act.register_action("redeem_shares_test", "corporation").required == ("corporation",)
    with pytest.raises(ValueError):
        act.register_action("redeem_shares_test", "shares")


def test_an_engine_bug_is_refused_with_the_internal_code_and_the_state_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_1882()
    before = [p.cash for p in game.players]

    def broken(*_: object) -> None:
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(type(game.round), "process", broken)
    with pytest.raises(GameError) as err:
        game.process({"type": "pass", "entity": game.players[0].id, "entity_type": "player"})
    assert err.value.code is ErrorCode.INTERNAL
    assert [p.cash for p in game.players] == before and game.raw_actions == []
