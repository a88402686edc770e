"""Tile lays and a company's network in 1882: blank sides of gray hexes, no turning back, one station a hex."""

from __future__ import annotations

from engine.core.graph import company_network
from engine.core.tiles import Tile
from engine.core.track import legal_rotations, move_tokens
from engine.titles.g1882.game import G1882


def new_1882() -> G1882:
    return G1882([(1, "P1"), (2, "P2"), (3, "P3")], seed=1)


def put(game: G1882, hex_id: str, tile: str, rotation: int) -> Tile:
    hx = game.board[hex_id]
    hx.tile = Tile(f"{tile}-test", game.tile_defs[tile], rotation)
    return hx.tile


def test_track_may_not_lead_into_the_blank_side_of_a_gray_hex() -> None:
    game = new_1882()
    m7, m9 = game.board["M7"], game.board["M9"]
    # M7's edge 5 faces N8, whose printed track (3-4) runs to L8 and M9 but not to M7.
    assert m7.neighbors[5] == "N8" and m7.sealed == {5}
    assert m9.neighbors[1] == "N8" and not m9.sealed  # N8's track does lead to M9
    cat = game.tile_defs
    for name in ("7", "8", "9"):
        rotations = legal_rotations(game, m7, cat[name], None)
        assert rotations
        assert all(5 not in Tile("t", cat[name], r).exits() for r in rotations)
    # Off the map is closed as before: L10's edge 0 also faces a gray blank side (N10).
    assert 0 in game.board["L10"].sealed


def test_network_does_not_turn_back_through_the_side_it_came_in_by() -> None:
    game = new_1882()
    # I5 holds a tokened city whose track enters K5 by edge 3. K5's #23 (0-3 and 0-4) carries it on to
    # edge 0 only: the branch 0-4 is reachable just by reversing at edge 0, which no train may do.
    city = put(game, "I5", "57", 0)  # exits 0 and 3: 0 faces K5
    city.tokens[0][0] = "ZZ"
    put(game, "K5", "23", 0)
    put(game, "M5", "9", 0)  # straight 0-3, joined to K5's edge 0
    net = company_network(game.board, "ZZ")
    assert net.hex_edges["K5"] == {3, 0}
    assert "J6" not in net.hex_edges  # K5's edge 4 leads to J6
    assert net.hex_edges["M5"] == {3, 0}
    # Coming in by the branch instead reaches both of the other sides.
    game = new_1882()
    city = put(game, "J6", "57", 1)  # exits 1 and 4: 1 faces K5
    city.tokens[0][0] = "ZZ"
    put(game, "K5", "23", 0)
    net = company_network(game.board, "ZZ")
    assert net.hex_edges["K5"] == {4, 0}
    assert "I5" not in net.hex_edges


def test_upgrading_a_printed_oo_hex_keeps_each_station_in_its_own_city() -> None:
    game = new_1882()
    e5 = game.board["E5"]  # printed OO: two cities, no track yet
    e5.tile.tokens[0][0] = "GT"
    e5.tile.tokens[1][0] = "CNR"
    # Cities without exits keep their order (18xx.games maps them by index); both used to go to city 0.
    new = Tile("59-0", game.tile_defs["59"], 4)
    move_tokens(e5.tile, new)
    assert new.tokens == {0: ["GT"], 1: ["CNR"]}


def test_track_on_a_printed_oo_hex_holding_two_stations_re_places_both() -> None:
    game = new_1882()
    game.phase_index = 1  # green tiles
    e5 = game.board["E5"]
    gt, cnr = game.corporations["GT"], game.corporations["CNR"]
    game.track.place_token(gt, gt.tokens[1], e5, 0, free=True)
    game.track.place_token(cnr, cnr.tokens[1], e5, 1, free=True)
    # The lay used to fail on the second station ("no room"); 18xx.games lifts both for re-placing.
    game.track.lay_tile(gt, {"hex": "E5", "tile": "59-0", "rotation": 4}, check_connection=False)
    assert e5.tile.tokens == {0: [None], 1: [None]}
    assert [(actor.sym, token.corp) for actor, _hexes, token in game.pending_tokens] == [("GT", "GT"), ("GT", "CNR")]



def test_no_hex_lies_beyond_the_maps_edge_or_across_an_impassable_side() -> None:
    game = new_1882()
    c7 = game.board["C7"]  # beside gray Prince Albert (D8), across an impassable side
    edge = next(e for e, n in c7.neighbors.items() if n == "D8")
    assert c7.borders[edge].kind == "impassable" and game.board.neighbor(c7, edge) is None
    other = next(e for e, n in c7.neighbors.items() if n != "D8" and e not in c7.borders)
    assert game.board.neighbor(c7, other) is game.board[c7.neighbors[other]]
    edge_hex = next(h for h in game.board.hexes.values() if len(h.neighbors) < 6)
    off = next(e for e in range(6) if e not in edge_hex.neighbors)
    assert game.board.neighbor(edge_hex, off) is None  # off the map
