"""1828 rules a seeded game seldom or never meets, played on a fresh game: a par price that is not open, the
Virginia Tunnel's one tile, the coal markers lying on the map, the C&P's route off its own tile, and routes
entered as hex chains that do not follow the track (rules 16, 13.2; core route entry)."""

from __future__ import annotations

import pytest

from engine.core import events as ev
from engine.core.entities import pay
from engine.core.errors import GameError
from engine.core.routes import build_route
from engine.core.tiles import NODE_BASE
from engine.core.transfer import BLOCKING_OWNER
from engine.titles import title_class
from engine.titles.g1828 import coal, minor, routes, stations, systems
from engine.titles.g1828.game import G1828
from tests.engine.game_end_checks import check_messages_name_entities_and_unknown_tiles


def _fresh_game() -> G1828:
    game = title_class("1828")([(1, "a"), (2, "b"), (3, "c")], 5, {})
    assert isinstance(game, G1828)
    return game


def test_a_par_price_that_is_not_open_is_refused_naming_the_open_ones() -> None:
    game = _fresh_game()
    pars = game.market.par_cells()
    # a green par price (rules 5.3): a par price, but not open before the green phase
    cell = game.market.rows[5][3]
    assert cell is not None and game.market.par_colours[(5, 3)] == "green" and cell not in pars
    with pytest.raises(GameError, match=rf"\${cell.price} is not an open par price; par prices: \$67, \$71, \$79"):
        game.parse_price(f"{cell.price},{cell.row},{cell.col}", par=True)
    assert game.parse_price(f"{pars[0].price},{pars[0].row},{pars[0].col}", par=True) is pars[0]
    plain = game.market.rows[0][0]  # no par price at all
    assert plain is not None and (0, 0) not in game.market.par_colours
    with pytest.raises(GameError, match=rf"\${plain.price} is not a par price; par prices: \$67, \$71, \$79"):
        game.parse_price(f"{plain.price},0,0", par=True)


def test_the_virginia_tunnel_takes_only_tile_4() -> None:
    game = _fresh_game()
    tunnel = game.coal["tunnel"]
    with pytest.raises(GameError, match=rf"the Virginia Tunnel \({tunnel}\) takes only tile #4"):
        coal.check_lay_allowed(game, tunnel, "9-0")
    coal.check_lay_allowed(game, tunnel, "4-0")  # the tunnel tile itself
    coal.check_lay_allowed(game, "A3", "9-0")  # elsewhere any tile the board allows


def test_the_coal_markers_lie_on_the_coalfields_and_the_tunnel_until_taken() -> None:
    game = _fresh_game()
    fields, tunnel = game.coal["coalfields"], game.coal["tunnel"]
    assert game.hex_markers(fields) == ("coal",) * int(game.coal["markers"])
    assert game.hex_markers(tunnel) == ("coal",)
    assert game.hex_markers("A3") == ()
    game.coal_on_fields -= 1  # a company bought one
    game.tunnel_coal = False  # the tunnel's layer took its marker
    assert game.hex_markers(fields) == ("coal",) * (int(game.coal["markers"]) - 1)
    assert game.hex_markers(tunnel) == ()


def test_a_route_into_the_coalfields_needs_coal_and_the_c_and_p_runs_over_its_own_tile() -> None:
    game = _fresh_game()
    nyc, cp = game.corporations["NYC"], game.corporations["C&P"]
    with pytest.raises(GameError, match="a route to the Virginia Coalfields needs a coal marker"):
        routes.check_route(game, nyc, {game.coal["coalfields"], "K13"}, set(), [])
    with pytest.raises(GameError, match=r"the C&P's route must use the tile it laid this turn"):
        routes.check_route(game, cp, {"A3", "A5"}, {"A3", "A5"}, ["B8"])
    routes.check_route(game, nyc, {"A3", "A5"}, {"A3", "A5"}, [])  # no coal needed off the Coalfields


def _route(game: G1828, *chains: list[str]) -> object:
    return build_route(game, game.corporations["NYC"], game.all_trains["2-0"], {"connections": list(chains)})


def test_a_route_entered_along_the_preprinted_track_passes_through_a_town() -> None:
    game = _fresh_game()
    route = _route(game, ["A3", "A5", "A7"])
    assert route.hexes == ["A3", "A5", "A7"]  # type: ignore[attr-defined]
    assert route.stops == [("A3", 0), ("A7", 0)]  # type: ignore[attr-defined]
    # one piece in each end hex, two in A5: in to its node and out again
    assert sorted(h for h, _ in route.track) == ["A3", "A5", "A5", "A7"]  # type: ignore[attr-defined]
    assert all(b >= NODE_BASE for a, b in game.board["A3"].tile.abs_paths())


def test_routes_entered_off_the_track_are_refused_with_the_reason() -> None:
    game = _fresh_game()
    with pytest.raises(GameError, match="A3 and A7 are not neighbours"):
        _route(game, ["A3", "A7"])
    with pytest.raises(GameError, match="there is no track along B8-A7"):
        _route(game, ["B8", "A7"])  # no track leaves B8
    with pytest.raises(GameError, match="there is no track along A7-B8"):
        _route(game, ["A7", "B8"])  # A7's track stops at B8's edge
    beyond = next(h for h in game.board["B8"].neighbors.values() if h != "A7")
    with pytest.raises(GameError, match=f"there is no track along A7-B8-{beyond}"):
        _route(game, ["A7", "B8", beyond])  # no track across B8
    with pytest.raises(GameError, match="a route may not use the same track twice"):
        _route(game, ["A3", "A5"], ["A5", "A3"])


def test_companies_never_started_leave_and_erie_blocks_both_its_possible_homes() -> None:
    """Rules 7.1, 17.7: from the first purple stock round, unstarted companies leave; ERIE, whose home is either
    city of E15 (its president's choice), blocks both."""
    game = _fresh_game()
    erie = game.corporations["ERIE"]
    assert erie.home == "E15" and erie.home_city is None
    stations.remove_unparred_corporations(game)
    hx = game.board["E15"]
    assert [hx.tile.tokens[n] for n in hx.tile.tdef.cities] == [[BLOCKING_OWNER], [BLOCKING_OWNER]]
    assert erie.closed and "Removing ERIE" in game.log_lines
    stations.place_blocking_token(game, "E15", hx.tile.tdef.cities[0])  # a full city takes no second marker
    assert hx.tile.tokens[hx.tile.tdef.cities[0]] == [BLOCKING_OWNER]


def test_the_c_and_p_closing_at_the_phase_change_pays_its_cash_to_the_bank_and_leaves_a_blocking_marker() -> None:
    game = _fresh_game()
    cp = game.corporations["C&P"]
    hx = game.board[minor.cp_hex(game)]
    [token] = cp.tokens
    assert token.used and token.hex == hx.id
    pay(game.bank, cp, 40, ev.Why.OTHER)
    bank = game.bank.cash
    game.event_close_companies()
    assert cp.closed and cp.cash == 0 and game.bank.cash == bank + 40
    assert hx.tile.tokens[hx.tile.tdef.cities[0]] == [BLOCKING_OWNER]
    assert not token.used and f"Placing a blocking token on {hx.id}" in game.log_lines


def test_a_system_of_two_companies_with_coal_keeps_one_marker_and_returns_the_other() -> None:
    """Rules 16: a company holds at most one coal marker; a system formed from two holders returns one to the
    Virginia Coalfields."""
    game = _fresh_game()
    nw, wab = game.corporations["NW"], game.corporations["WAB"]
    for corp in (nw, wab):
        game.shares.set_par(corp, game.market.par_cells()[0])
        corp.ipoed = True
        corp.markers.append("coal")
    on_fields = game.coal_on_fields
    system = systems.create_system(game, [nw, wab])
    assert system.markers == ["coal"]
    assert game.coal_on_fields == on_fields + 1
    assert game.hex_markers(game.coal["coalfields"]) == ("coal",) * (on_fields + 1)
    assert f"{system.sym} cannot have two coal markers, returning one to Virginia Coalfields" in game.log_lines


def test_messages_name_entities_and_refuse_an_unknown_tile() -> None:
    check_messages_name_entities_and_unknown_tiles(_fresh_game())
