"""1862: the decisions of docs/1862-decisions.md that can fail, one test each (test_d<NN>_...)."""

from __future__ import annotations

import pytest

from engine.core.errors import GameError
from engine.titles.g1862 import routes
from engine.titles.g1862.game import G1862

from .g1862_helpers import (
    act,
    choices,
    lay,
    new,
    operating_round,
    player,
    sell_privates,
    start,
    stock_round,
)


def test_d01_nysh_par_blocks_everyone_until_set() -> None:
    g = new()
    sell_privates(g)
    assert [(s.id, s.percent) for s in player(g, 4).shares] == [("NYH_0", 30)]
    assert g.corporations["NYH"].par_price == 100


def test_d02_a_purchase_ends_the_turn_and_sales_come_first() -> None:
    g = new()
    sell_privates(g)
    start(g, "NYC", 1)
    stock_round(g)
    act(g, "pass", 1)
    act(g, "buy_shares", 2, shares=["NYC_3"])
    assert g.acting() == [player(g, 3)]
    act(g, "pass", 3)
    act(g, "pass", 4)
    act(g, "pass", 1)
    act(g, "sell_shares", 2, shares=["NYC_1"], percent=10)
    with pytest.raises(GameError):
        act(g, "sell_shares", 2, shares=["NYC_2"], percent=10)
    assert g.acting() == [player(g, 2)]


def test_d05_a_private_and_its_shares_must_fit_the_certificate_limit() -> None:
    g = new()
    act(g, "bid", 1, company="BOM", price=20)
    g.cert_limit = 2
    assert not [c for c in choices(g, player(g, 2), "bid") if c["company"] == "FNY"]  # FNY + two NYC = 3
    with pytest.raises(GameError):
        act(g, "bid", 2, company="FNY", price=185)


def test_d06_no_erie_tile_inside_an_auction_of_privates() -> None:
    g = new()
    act(g, "bid", 1, company="BOM", price=20)
    act(g, "bid", 2, company="ERIE", price=40)
    act(g, "bid", 3, company="RMC", price=105)
    act(g, "bid", 4, company="RMC", price=110)
    act(g, "choose", 3, choice="keep")
    erie = g.companies["ERIE"]
    assert g.actions_for(erie) == ["lay_tile"]
    act(g, "bid", 1, company="B&O", price=70)  # the cascade starts the RMC auction
    assert g.private_sale.auction is not None
    assert g.actions_for(g.companies["ERIE"]) == []


def test_d07_the_president_of_the_operating_company_may_close_his_private() -> None:
    g = new()
    sell_privates(g)
    start(g, "CPR", 4, cash=300)
    operating_round(g)
    owner = player(g, 4)
    mine = next(c for c in owner.companies if c.sym != "ERIE" and not c.closed)
    others = [p for p in g.players if p is not owner and any(c.sym != "ERIE" for c in p.companies)]
    assert "close_company" in g.actions_for(owner)
    assert any(a["company"] == mine.sym for a in choices(g, owner, "close_company"))
    # Only the president of the company whose turn it is (spec §6); the others wait for their turns.
    assert "close_company" not in g.actions_for(others[0])
    other_private = next(c for c in others[0].companies if c.sym != "ERIE")
    with pytest.raises(GameError):
        act(g, "close_company", others[0].id, company=other_private.sym)
    act(g, "close_company", 4, company=mine.sym)
    assert g.companies[mine.sym].closed and g.round.entity() is g.corporations["CPR"]  # CPR's turn goes on


def test_d08_the_rocky_mountain_tile_is_free_and_closes_the_private() -> None:
    g = new()
    sell_privates(g)
    cpr = start(g, "CPR", 4, cash=300)
    lay(g, "CPR", "G6", "6", 3)  # to F7 and H7
    operating_round(g)
    cash = g.corporations["CPR"].cash
    # Before the company's own lay (the tile comes before its trains run): F7 has $120 of terrain.
    g.process({"type": "lay_tile", "entity": "RMC", "entity_type": "company", "hex": "F7", "tile": "9-0",
               "rotation": 0})
    assert g.board.hexes["F7"].tile.name == "9" and g.corporations["CPR"].cash == cash
    assert g.companies["RMC"].closed
    assert cpr.sym == "CPR"


def test_d11_routes_may_not_join_both_mexico_hexes_nor_take_a_tile_twice() -> None:
    g = new()
    assert routes.route_problem(g, {"connections": [["K12", "J13"], ["J13", "K14"]]}) is not None
    assert routes.route_problem(g, {"connections": [["G20", "G22", "F23"], ["F23", "G22", "H21"]]}) is not None
    assert routes.route_problem(g, {"connections": [["G20", "G22", "F23"], ["F23", "E22"]]}) is None
    assert routes.route_problem(g, {"connections": [["F29", "F31"], ["F31", "F33"]]}) is None  # NY's two stations
    # The route finder applies the same rule, with the same exemption (tests/engine/test_train_kinds.py).
    assert g.autoroute_tile_once() == frozenset({"F31"})


def test_d14_a_removed_companys_certificates_leave_play_but_add_up() -> None:
    g = new()
    sell_privates(g)
    nyc = start(g, "NYC", 1, row=9, col=0)
    g.pay_dividend(nyc, 0, "withhold")
    assert nyc.closed and sum(s.percent for s in nyc.shares) == 100
    assert not any(s.corp == "NYC" for p in g.players for s in p.shares)


def test_bids_name_a_price_in_their_range_and_the_lowest_private_has_one_price() -> None:
    from engine.core import query
    g = new()
    p1 = player(g, 1)
    bom = {"type": "bid", "entity": 1, "entity_type": "player", "company": "BOM", "price": 20}
    assert query.price_range(g, p1, bom) is None
    assert query.price_range(g, p1, {**bom, "company": "ERIE", "price": 45}) == (45, 600)
    act(g, "bid", 1, company="ERIE", price=50)
    assert query.price_range(g, player(g, 2), {**bom, "entity": 2, "company": "ERIE", "price": 55}) == (55, 600)
    assert query.price_range(g, player(g, 2), {**bom, "entity": 2, "company": "B&O", "price": 75}) == (75, 600)


def test_d11_the_finder_lists_exactly_the_routes_the_tile_rule_allows() -> None:
    """On a played board, the routes listed with the each-tile-once rule are those listed without it that
    route_problem (the check of routes entered by hand) accepts."""
    from engine.core import autoroute
    from engine.core.autoroute import Pricing, Solution, TrainSpec
    from engine.playout import random_playout

    g = random_playout("1862", 5, 101, max_actions=1200, policy="steady", check=False).game
    assert isinstance(g, G1862)

    def listed(graph: autoroute.RouteGraph, spec: TrainSpec) -> dict[frozenset[object], autoroute.Candidate]:
        cands = autoroute.enumerate_shared(graph, [spec], Pricing(), trim=False)[0][0]
        return {frozenset(graph.units[i] for i in range(len(graph.units)) if c.mask >> i & 1): c for c in cands}

    checked = dropped = 0
    for corp in [c for c in g.corporations.values() if c.floated and not c.closed]:
        ruled = autoroute.build_graph(g, corp)
        free = autoroute.build_graph(type("Free", (), {"__getattr__": lambda _s, k: getattr(g, k),
                                                       "autoroute_tile_once": lambda _s: None})(), corp)
        for spec in (TrainSpec("4", 4), TrainSpec("6E", 6, express=True)):
            with_rule = listed(ruled, spec)
            sol = Solution(0, True, [], free)
            allowed = {k for k, c in listed(free, spec).items()
                       if routes.route_problem(g, {"connections": sol.connections(c)}) is None}
            assert set(with_rule) == allowed, (corp.sym, spec.name)
            checked += len(allowed)
            dropped += len(listed(free, spec)) - len(allowed)
    assert checked > 100 and dropped > 0
