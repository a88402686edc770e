"""1882 station rules: one station per company per hex, homes and neutral stations, routes between stations,
and the 18xx.games ids of printed cities."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.core import query
from engine.core.errors import GameError
from engine.core.game import Game
from engine.core.graph import company_network

from .test_1882_scenarios import finish_auction


def game() -> Game:
    return new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)


def lay(g: Game, hex_id: str, tile_id: str, rotation: int) -> None:
    tile = g.track.tile_from_supply(tile_id)
    tile.rotation = rotation
    g.board[hex_id].tile = tile
    g.tile_supply.pop(tile_id, None)
    g.track.board_changed()


def station(g: Game, corp_sym: str, hex_id: str, node: int = 0) -> None:
    corp = g.corporations[corp_sym]
    token = next(t for t in corp.tokens if not t.used and not t.neutral)
    g.track.place_token(corp, token, g.board[hex_id], node, free=True)


def test_track_between_two_own_stations_is_a_route() -> None:
    g = game()
    lay(g, "J8", "57-0", 0)  # exits S and N: J8's south neighbour is L8
    lay(g, "L8", "57-1", 0)
    station(g, "GT", "J8")
    station(g, "GT", "L8")
    assert company_network(g.board, "GT").route_possible


def test_two_stations_without_track_between_them_are_no_route() -> None:
    g = game()
    lay(g, "J8", "57-0", 1)  # exits SW and NE: no link to L8
    lay(g, "L8", "57-1", 0)
    station(g, "GT", "J8")
    station(g, "GT", "L8")
    assert not company_network(g.board, "GT").route_possible


def test_a_company_holds_one_station_per_hex() -> None:
    g = game()
    m11 = g.board["M11"]  # OO: two one-space cities
    station(g, "GT", "M11", 0)
    assert not g.can_token_city(g.corporations["GT"], m11, 1)
    assert g.can_token_city(g.corporations["HBR"], m11, 1)


def test_a_neutral_station_may_join_its_placers_hex_but_a_hex_holds_one() -> None:
    g = game()
    m11 = g.board["M11"]
    gt, hbr = g.corporations["GT"], g.corporations["HBR"]
    station(g, "GT", "M11", 0)
    gt_neutral = next(t for t in gt.tokens if t.neutral)
    assert g.can_token_city(gt, m11, 1, gt_neutral)
    g2 = game()
    g2.track.place_token(g2.corporations["HBR"], next(t for t in g2.corporations["HBR"].tokens if t.neutral),
                   g2.board["M11"], 0, free=True)
    gt2 = g2.corporations["GT"]
    assert g2.can_token_city(gt2, g2.board["M11"], 1)
    assert not g2.can_token_city(gt2, g2.board["M11"], 1, next(t for t in gt2.tokens if t.neutral))
    _ = hbr


def test_only_sc_may_take_a_neutral_stations_space_for_its_home() -> None:
    g = game()
    j10 = g.board["J10"]
    gt = g.corporations["GT"]
    neutral = next(t for t in gt.tokens if t.neutral)
    g.track.place_token(gt, neutral, j10, 0, free=True)
    qll, sc = g.corporations["QLL"], g.corporations["SC"]
    assert [(h.id, n, s) for h, n, s in g.track.home_token_spots(qll, ["J10"])] == [("J10", 1, 0)]
    assert ("J10", 0, 0) in [(h.id, n, s) for h, n, s in g.track.home_token_spots(sc, ["J10"])]


def test_qll_home_may_not_replace_a_neutral_station() -> None:
    g = game()
    finish_auction(g)
    j10 = g.board["J10"]
    gt = g.corporations["GT"]
    g.track.place_token(gt, next(t for t in gt.tokens if t.neutral), j10, 0, free=True)
    qll = g.corporations["QLL"]
    qll.ipoed = qll.floated = True
    g.pending_tokens.append((qll, ["J10"], qll.tokens[0]))
    offered = [a for a in query.all_choices(g, qll) if a["type"] == "place_token"]
    assert offered == [{"type": "place_token", "entity": "QLL", "entity_type": "corporation",
                        "city": "J10-0-1", "slot": 0}]
    with pytest.raises(GameError, match="may not replace"):
        g.process({"type": "place_token", "entity": "QLL", "entity_type": "corporation", "city": "J10-0-0",
                   "slot": 0})
    assert j10.tile.tokens[0] == ["CN"]


def test_printed_cities_carry_the_18xx_games_copy_number() -> None:
    g = game()
    assert g.board["G11"].tile.id == "G11-2" and g.board["J12"].tile.id == "J12-3"
    assert g.track.city_by_id("G11-2-0") == (g.board["G11"], 0)
    # Games stored before the copy numbers wrote every printed tile as copy 0: they still load.
    assert g.track.city_by_id("G11-0-0") == (g.board["G11"], 0)


def test_the_company_laying_track_on_a_tokened_oo_hex_re_places_the_station() -> None:
    g = game()
    finish_auction(g)
    station(g, "SC", "E5", 0)  # a station on a printed OO hex before any track
    cnr = g.corporations["CNR"]
    g.phase_index = next(i for i, p in enumerate(g.phases) if "green" in p["tiles"])
    g.track.lay_tile(cnr, {"hex": "E5", "tile": "59-0", "rotation": 3}, check_connection=False)
    actor, hexes, token = g.pending_tokens[0]
    assert (actor.sym, hexes, token.corp) == ("CNR", ["E5"], "SC")
    assert g.acting() == [cnr]
    spots = query.choices(g, cnr, "place_token")
    assert {a["city"] for a in spots} == {"59-0-0", "59-0-1"}
    g.process({"type": "place_token", "entity": "CNR", "entity_type": "corporation", "city": "59-0-1", "slot": 0})
    assert g.board["E5"].tile.tokens[1] == ["SC"] and not g.pending_tokens


def test_qll_chooses_its_home_city_even_when_an_upgrade_left_one_city() -> None:
    g = game()
    j10 = g.board["J10"]
    one_city = next(t for t in g.tile_supply.values() if t.name.startswith("R") and len(t.tdef.cities) == 1)
    old = j10.tile
    j10.tile = one_city
    assert old is j10.original
    qll = g.corporations["QLL"]
    g.track.place_home_token(qll)
    # The home was given as the hex, so the reservation is the hex's and the president still chooses.
    assert not qll.tokens[0].used and [p[0] for p in g.pending_tokens] == [qll]
    g.pending_tokens.clear()
    g.track.place_home_token(g.corporations["GT"])  # a home in a one-city hex is placed at once
    assert g.corporations["GT"].tokens[0].used
