"""1862 USA & Canada: the spec's scenario checks (/work/shared/rules/1862-reconstruction.md §13), one test
each, named after them, played through Game.process where the spec plays moves."""

from __future__ import annotations

import pytest

from engine.core.errors import ErrorCode, GameError
from engine.core.tiles import TokenKind
from engine.titles.g1862.game import G1862

from .g1862_helpers import (
    act,
    choices,
    give,
    new,
    player,
    sell_privates,
    shares_of,
    start,
    stock_round,
    to_pool,
)


def test_sc01_private_1_discount_down_to_a_forced_free_purchase() -> None:
    g = new()
    prices = []
    for _ in range(4):
        for pid in (1, 2, 3, 4):
            act(g, "pass", pid)
        prices.append(g.companies["BOM"].min_bid)
    assert prices == [15, 10, 5, 0]
    p1 = player(g, 1)
    assert g.actions_for(p1) == ["bid"]
    assert choices(g, p1, "bid") == [{"type": "bid", "entity": 1, "entity_type": "player", "company": "BOM",
                                      "price": 0}]
    with pytest.raises(GameError):
        act(g, "pass", 1)
    act(g, "bid", 1, company="BOM", price=0)
    p1 = player(g, 1)  # a refused action restores the state from a snapshot: look entities up again
    assert g.companies["BOM"].owner is p1 and p1.cash == 600
    assert g.acting() == [player(g, 2)]
    assert {"company": "ERIE", "price": 40}.items() <= choices(g, player(g, 2), "bid")[0].items()


def test_sc02_a_single_bid_is_sold_at_once_in_the_cascade() -> None:
    g = new()
    act(g, "pass", 1)
    with pytest.raises(GameError) as err:
        act(g, "bid", 2, company="ERIE", price=44)
    assert err.value.code is ErrorCode.ILLEGAL
    act(g, "bid", 2, company="ERIE", price=45)
    act(g, "bid", 3, company="B&O", price=75)
    act(g, "pass", 4)
    act(g, "bid", 1, company="BOM", price=20)
    assert g.companies["ERIE"].owner is player(g, 2) and player(g, 2).cash == 555
    assert g.companies["B&O"].owner is player(g, 3) and player(g, 3).cash == 525
    baltimore = g.board.hexes["G30"].tile
    assert baltimore.tokens[0] == ["B&O"] and baltimore.kinds[0] == [TokenKind.BLOCKING]
    assert g.acting() == [player(g, 2)]
    buy = [c for c in choices(g, player(g, 2), "bid") if c["company"] == "RMC"]
    assert buy[0]["price"] == 100


def test_sc03_auction_among_bidders_and_earmarked_money() -> None:
    g = new(5)
    act(g, "pass", 1)
    act(g, "bid", 2, company="ERIE", price=45)
    act(g, "pass", 3)
    act(g, "bid", 4, company="ERIE", price=50)
    assert g.acting() == [player(g, 2)]
    act(g, "choose", 2, choice="keep")
    act(g, "bid", 5, company="ERIE", price=55)
    act(g, "choose", 4, choice="keep")
    # P2's $45 stays earmarked: $455 is the most he may bid on another private.
    with pytest.raises(GameError) as err:
        act(g, "bid", 1, company="B&O", price=600)
    assert err.value.code is ErrorCode.INSUFFICIENT_FUNDS
    step = next(s for s in g.round.steps if s.name.startswith("Buy or bid"))
    assert step.available(player(g, 2), g.companies["B&O"]) == 455  # type: ignore[attr-defined]
    act(g, "bid", 1, company="BOM", price=20)
    assert g.acting() == [player(g, 2)]  # the first bidder clockwise from P5, the highest
    with pytest.raises(GameError):
        act(g, "bid", 2, company="ERIE", price=59)
    act(g, "bid", 2, company="ERIE", price=60)
    act(g, "pass", 4)
    act(g, "pass", 5)
    assert g.companies["ERIE"].owner is player(g, 2) and player(g, 2).cash == 440
    assert player(g, 4).cash == 500 and player(g, 5).cash == 500
    assert g.acting() == [player(g, 2)]  # the turn goes on left of P1, whose purchase started it


def test_sc04_no_selling_in_the_initial_stock_round() -> None:
    g = new()
    sell_privates(g)
    act(g, "par", 1, corporation="NYC", share_price="100,0,7")
    fny = player(g, 2)
    assert [s.id for s in shares_of(g, 2, "NYC")] == ["NYC_1", "NYC_2"]
    assert "sell_shares" not in g.actions_for(fny)
    with pytest.raises(GameError):
        act(g, "sell_shares", 2, shares=["NYC_1"], percent=10)
    for pid in (2, 3, 4, 1):
        act(g, "pass", pid)
    assert g.round.kind == "stock"  # no company floated: the OR was empty
    while g.acting() != [player(g, 2)]:
        act(g, "pass", g.acting()[0].id)
    act(g, "sell_shares", 2, shares=["NYC_1"], percent=10)
    assert g.pool.shares_of("NYC")[0].id == "NYC_1"


def test_sc05_revenue_only_operating_round_then_a_new_initial_round() -> None:
    g = new()
    act(g, "bid", 1, company="BOM", price=20)
    act(g, "bid", 2, company="ERIE", price=40)
    act(g, "bid", 3, company="B&O", price=70)
    cash = {p.id: p.cash for p in g.players}
    for pid in (4, 1, 2, 3):
        act(g, "pass", pid)
    assert g.round.kind == "initial"
    assert [player(g, pid).cash - cash[pid] for pid in (1, 2, 3, 4)] == [5, 10, 15, 0]
    assert g.acting() == [player(g, 4)]  # left of P3, the last to act
    assert any("Operating Round" in line for line in g.log_lines)


def test_sc06_new_haven_steamship_gives_nyh_and_its_par() -> None:
    g = new()
    for pid, sym in zip((1, 2, 3, 4, 1, 2, 3), ("BOM", "ERIE", "B&O", "RMC", "PSC", "FNY", "SOC"), strict=True):
        act(g, "bid", pid, company=sym, price={"BOM": 20, "ERIE": 40, "B&O": 70, "RMC": 100, "PSC": 150,
                                              "FNY": 180, "SOC": 220}[sym])
    act(g, "bid", 4, company="NYSH", price=280)
    p4 = player(g, 4)
    assert p4.cash == 600 - 100 - 280
    assert g.acting() == [p4] and g.actions_for(p4) == ["par"]
    assert choices(g, p4, "par")[-1]["share_price"] == "100,0,7"
    with pytest.raises(GameError):
        act(g, "pass", 1)
    act(g, "par", 4, corporation="NYH", share_price="100,0,7")
    nyh = g.corporations["NYH"]
    assert nyh.owner is player(g, 4) and not nyh.floated and player(g, 4).cash == 220
    assert [(s.id, s.percent) for s in player(g, 4).shares] == [("NYH_0", 30)]
    for pid in (1, 2, 3):
        act(g, "buy_shares", pid, shares=[g.corporations["NYH"].shares[0].id])
    assert nyh.floated and nyh.cash == 1000
    assert g.companies["NYSH"].closed


def test_sc07_sacramento_omaha_revenue_drops_then_closes() -> None:
    g = new()
    sell_privates(g)
    soc = g.companies["SOC"]
    assert soc.revenue == 35 and soc.owner is player(g, 3)
    start(g, "CPR", 1, floated=False)
    g.float_corporation(g.corporations["CPR"])
    assert soc.revenue == 15 and not soc.closed
    start(g, "UP", 2, floated=False)
    g.float_corporation(g.corporations["UP"])
    assert soc.closed


def nyc_company(players: int = 4) -> G1862:
    """Privates sold (P2 bought FNY and holds NYC_1 and NYC_2 in a 4-player game); NYC floated at $100 with P1
    as president; a normal stock round starts with P1."""
    g = new(players)
    sell_privates(g)
    start(g, "NYC", 1)
    stock_round(g)
    return g


def test_sc08a_floated_sale_pays_the_price_before_the_drop_one_row_per_action() -> None:
    g = nyc_company()
    give(g, 2, "NYC_3", "NYC_5")
    give(g, 3, "NYC_4")
    act(g, "pass", 1)
    cash = player(g, 2).cash
    act(g, "sell_shares", 2, shares=["NYC_1", "NYC_2", "NYC_3"], percent=30)
    assert player(g, 2).cash - cash == 300
    assert g.market.location["NYC"].coords == (1, 7)
    with pytest.raises(GameError):  # one selling action per company and turn
        act(g, "sell_shares", 2, shares=["NYC_5"], percent=10)
    act(g, "pass", 2)
    cash = player(g, 3).cash
    act(g, "sell_shares", 3, shares=["NYC_4"], percent=10)
    assert player(g, 3).cash - cash == 92
    assert g.market.location["NYC"].coords == (2, 7) and g.market.location["NYC"].price == 85


def test_sc08b_unfloated_sale_drops_first_and_pays_the_lower_price() -> None:
    g = nyc_company()
    start(g, "CP", 1, floated=False)
    give(g, 3, "CP_1")
    act(g, "pass", 1)
    act(g, "pass", 2)
    cash = player(g, 3).cash
    act(g, "sell_shares", 3, shares=["CP_1"], percent=10)
    assert player(g, 3).cash - cash == 92
    assert g.market.location["CP"].coords == (1, 7)


def test_sc09_sold_out_companies_rise_a_row_at_the_end_of_the_stock_round() -> None:
    g = nyc_company()
    g.market.place("NYC", g.market.cell(1, 8))
    give(g, 3, "NYC_3", "NYC_4", "NYC_5")
    give(g, 4, "NYC_6", "NYC_7")
    cp = start(g, "CP", 4, row=0, col=9)
    give(g, 3, *(f"CP_{i}" for i in range(1, 8)))
    assert not cp.shares
    for pid in (1, 2, 3, 4):
        act(g, "pass", pid)
    assert g.market.location["NYC"].coords == (0, 8) and g.market.location["NYC"].price == 110
    assert g.market.location["CP"].coords == (0, 9)


def test_sc10_pool_limit_is_five_certificates_before_and_after_redemption() -> None:
    g = nyc_company()
    to_pool(g, "NYC_3", "NYC_4", "NYC_5", "NYC_6", "NYC_7")
    act(g, "pass", 1)
    assert not [c for c in choices(g, player(g, 2), "sell_shares") if c["shares"][0].startswith("NYC")]
    with pytest.raises(GameError) as err:
        act(g, "sell_shares", 2, shares=["NYC_1"], percent=10)
    assert err.value.code is ErrorCode.ILLEGAL
    g.phase_index = 1  # green
    g.redeem(g.corporations["NYC"], "debt")
    assert [s.percent for s in g.pool.shares_of("NYC")] == [5] * 5
    assert [s.percent for s in shares_of(g, 2, "NYC")] == [5, 5]
    with pytest.raises(GameError):
        act(g, "sell_shares", 2, shares=[shares_of(g, 2, "NYC")[0].id], percent=5)


def test_sc11_holding_cap_60_or_70_percent_by_players_in_the_game() -> None:
    g = nyc_company()
    give(g, 1, "NYC_3", "NYC_4", "NYC_5")
    act(g, "buy_shares", 1, shares=["NYC_6"])  # 70% in a 4-player game
    assert player(g, 1).percent_of("NYC") == 70
    for pid in (2, 3, 4):
        act(g, "pass", pid)
    assert not [c for c in choices(g, player(g, 1), "buy_shares") if c["shares"] == ["NYC_7"]]
    with pytest.raises(GameError):
        act(g, "buy_shares", 1, shares=["NYC_7"])
    g5 = nyc_company(5)
    nyc = g5.corporations["NYC"]
    give(g5, 1, "NYC_3")  # P1 bought FNY in a 5-player game: 30% + 20% + 10%
    assert player(g5, 1).percent_of("NYC") == 60 and nyc.shares
    with pytest.raises(GameError):
        act(g5, "buy_shares", 1, shares=[nyc.shares[0].id])


def test_sc12_dividends_after_redemption_round_up_per_5_percent() -> None:
    g = nyc_company()
    give(g, 3, "NYC_3")
    to_pool(g, "NYC_4")
    nyc = g.corporations["NYC"]
    g.phase_index = 1
    g.redeem(nyc, "debt")
    before = {p.id: p.cash for p in g.players}
    treasury, bank = nyc.cash, g.bank.cash
    g.pay_dividend(nyc, 150, "payout")
    gained = {p.id: p.cash - before[p.id] for p in g.players}
    assert gained == {1: 16 + 8, 2: 16, 3: 8, 4: 0}  # P1: 10% president + 5%; P2: two 5%; P3: one 5%
    assert nyc.cash - treasury == 70
    # Initial-offering (three 5%) and pool (one 5%) units earn for the bank: it pays only the rest.
    assert bank - g.bank.cash == 150 - 4 * 8


@pytest.mark.parametrize(("phase", "face", "cash", "surplus"), [(1, 900, 540, 40), (3, 700, 560, 60),
                                                                 (5, 600, 540, 40)])
def test_sc13_redemption_arithmetic_of_the_rules_example(phase: int, face: int, cash: int, surplus: int) -> None:
    g = nyc_company()
    give(g, 1, "NYC_3")
    give(g, 3, "NYC_4")
    to_pool(g, "NYC_5", "NYC_6")
    nyc = g.corporations["NYC"]
    assert [s.id for s in nyc.shares] == ["NYC_7"]
    g.phase_index = phase
    before = {p.id: p.cash for p in g.players}
    bank = g.bank.cash
    assert g.redemption_payment(nyc) == 500
    g.redeem(nyc, "debt")
    assert nyc.debt == face and nyc.cash == surplus
    assert bank - g.bank.cash == cash - 150  # the bank lends the cash and receives $150 for its 15%
    assert {p.id: p.cash - before[p.id] for p in g.players} == {1: 200, 2: 100, 3: 50, 4: 0}
    assert sorted((s.percent, s.president) for s in shares_of(g, 1, "NYC")) == [(5, False), (5, False), (10, True)]
    assert [s.percent for s in shares_of(g, 2, "NYC")] == [5, 5]
    assert [s.percent for s in shares_of(g, 3, "NYC")] == [5]
    assert [s.percent for s in nyc.shares] == [5]
    assert [s.percent for s in g.pool.shares_of("NYC")] == [5, 5]
    assert [s.percent for s in nyc.treasury.shares] == [50]
    assert g.market.location["NYC"].price == 100
    assert nyc.owner is player(g, 1)
