"""1862 rules no seeded playout happened to reach (engine.rule_coverage lists them): the refusals of the private
sale and auction, and what keeping or withdrawing an outbid bid is said to do."""

from __future__ import annotations

import pytest

from engine.core.errors import GameError

from .g1862_helpers import act, corp_act, lay, new, operating_round, player, sell_privates, start, stock_round
from .test_1862_scenarios import sc16_position


def sale_step(g: object) -> object:
    return next(s for s in g.round.steps if s.name.startswith("Buy or bid"))  # type: ignore[attr-defined]


def test_the_lowest_private_has_its_one_price_and_a_sold_private_is_not_for_sale() -> None:
    g = new()
    with pytest.raises(GameError, match="BOM costs \\$20"):
        act(g, "bid", 1, company="BOM", price=25)
    act(g, "bid", 1, company="BOM", price=20)
    with pytest.raises(GameError, match="BOM is not for sale"):
        act(g, "bid", 2, company="BOM", price=20)


def test_a_free_private_must_be_taken_before_any_bid() -> None:
    g = new()
    for _ in range(4):
        for pid in (1, 2, 3, 4):
            act(g, "pass", pid)
    with pytest.raises(GameError, match="BOM is free now and P1 must take it"):
        act(g, "bid", 1, company="ERIE", price=45)


def test_a_player_does_not_outbid_himself() -> None:
    g = new()
    act(g, "pass", 1)
    act(g, "bid", 2, company="ERIE", price=45)
    for pid in (3, 4, 1):
        act(g, "pass", pid)
    with pytest.raises(GameError, match="P2 already holds the highest bid on ERIE"):
        act(g, "bid", 2, company="ERIE", price=50)


def test_keep_and_withdraw_say_what_they_do_and_the_auction_takes_bids_on_its_private_only() -> None:
    g = new(5)
    act(g, "pass", 1)
    act(g, "bid", 2, company="ERIE", price=45)
    act(g, "pass", 3)
    act(g, "bid", 4, company="ERIE", price=50)
    step = sale_step(g)
    keep = {"type": "choose", "entity": 2, "entity_type": "player", "choice": "keep"}
    withdraw = {**keep, "choice": "withdraw"}
    assert step.choice_label(player(g, 2), keep) == (  # type: ignore[attr-defined]
        "the $45 bid on ERIE stands and its money stays earmarked; P2 joins the auction among ERIE's bidders when "
        "it comes up")
    assert step.choice_label(player(g, 2), withdraw) == (  # type: ignore[attr-defined]
        "the $45 bid on ERIE is taken back and its money is free again")
    assert step.choice_label(player(g, 2), {**keep, "choice": "maybe"}) is None  # type: ignore[attr-defined]
    act(g, "choose", 2, choice="keep")
    act(g, "bid", 5, company="ERIE", price=55)
    act(g, "choose", 4, choice="keep")
    act(g, "bid", 1, company="BOM", price=20)  # the purchase starts ERIE's auction among its bidders
    assert g.acting() == [player(g, 2)]
    assert sale_step(g).price_range(player(g, 2), {"type": "bid", "company": "ERIE"}) == (  # type: ignore[attr-defined]
        60, player(g, 2).cash)
    assert sale_step(g).price_range(player(g, 2), {"type": "pass"}) is None  # type: ignore[attr-defined]
    with pytest.raises(GameError, match="the auction is for ERIE"):
        act(g, "bid", 2, company="B&O", price=75)


def test_the_erie_power_places_only_its_tile_and_only_turned_to_fit_and_erie_never_closes_by_choice() -> None:
    g = new()
    sell_privates(g)  # P2 holds ERIE
    stock_round(g)
    erie = {"type": "lay_tile", "entity": "ERIE", "entity_type": "company", "hex": "E28"}
    with pytest.raises(GameError, match="the Erie Steamship Company places only the special Erie tile"):
        g.process({**erie, "tile": "57-0", "rotation": 0})
    with pytest.raises(GameError, match="the Erie tile fits E28 one way only \\(exits W, NE and SE\\): rotation 0"):
        g.process({**erie, "tile": "ERIE", "rotation": 1})
    assert g.board.hexes["E28"].tile.name != "ERIE" and not g.companies["ERIE"].closed


def test_a_player_closes_only_his_own_open_privates_and_never_erie() -> None:
    g = new()
    sell_privates(g)  # P4 holds RMC and NYSH; P2 holds ERIE
    start(g, "CPR", 4, cash=300)
    operating_round(g)
    assert "close_company" in g.actions_for(player(g, 4))
    with pytest.raises(GameError, match="P4 does not own an open ERIE"):
        act(g, "close_company", 4, company="ERIE")
    erie = g.companies["ERIE"]
    player(g, 2).companies.remove(erie)
    erie.owner = player(g, 4)
    player(g, 4).companies.append(erie)
    with pytest.raises(GameError, match="the Erie Steamship Company closes only by placing the Erie tile"):
        act(g, "close_company", 4, company="ERIE")
    assert not g.companies["ERIE"].closed


def test_the_rocky_mountain_company_lays_only_a_yellow_tile() -> None:
    g = new()
    sell_privates(g)
    start(g, "CPR", 4, cash=300)
    lay(g, "CPR", "G6", "6", 3)  # to F7 and H7
    g.phase_index = 1  # green tiles are out: only the Rocky Mountain Company's own rule refuses one
    operating_round(g)
    green = next(t.id for t in g.tile_supply.values() if t.colour == "green")
    with pytest.raises(GameError, match="the Rocky Mountain Company lays a yellow tile"):
        g.process({"type": "lay_tile", "entity": "RMC", "entity_type": "company", "hex": "F7", "tile": green,
                   "rotation": 0})
    assert not g.companies["RMC"].closed and g.board.hexes["F7"].tile.name == "F7"


def test_a_typed_run_over_one_tile_twice_is_refused_before_it_is_priced() -> None:
    g = sc16_position("5E")
    looped = {"train": "5E-0", "connections": [["K14", "K16", "K18", "K16"]]}
    with pytest.raises(GameError, match="a route may not include the tile on K16 twice"):
        corp_act(g, "run_routes", "TP", routes=[looped])
    assert g.actions_for(g.corporations["TP"]) == ["run_routes"]
