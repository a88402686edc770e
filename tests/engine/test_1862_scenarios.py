"""1862 USA & Canada: the spec's scenario checks (/work/shared/rules/1862-reconstruction.md §13), one test
each, named after them, played through Game.process where the spec plays moves."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import ErrorCode, GameError
from engine.core.tiles import TokenKind
from engine.titles.g1862 import certificates, debt, redemption, shares
from engine.titles.g1862.game import G1862

from .g1862_helpers import (
    act,
    choices,
    corp_act,
    give,
    lay,
    new,
    only_a_pool_three,
    operating_round,
    own_trains,
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


def test_sc07_played_soc_pays_15_after_the_first_float_and_nothing_after_the_second() -> None:
    """SC-07 through play: CPR floats by a purchase in a stock round, the next OR pays SOC $15; UP floats the same
    way, SOC closes and the next OR pays it nothing."""
    g = new()
    sell_privates(g)  # P3 holds SOC (with CPR_1 and UP_1) and B&O
    for sym, pid in (("NYH", 4), ("NYC", 1), ("CP", 2)):  # group 1 sold out: group 2 is on sale
        corp = g.corporations[sym]
        if corp.owner is None:
            start(g, sym, pid)
        for share in list(corp.shares):
            g.shares.transfer_share(share, player(g, pid))
    start(g, "CPR", 1, floated=False)
    give(g, 1, "CPR_2", "CPR_3")  # 20% + P3's 10% + 20%: one more share floats CPR
    start(g, "UP", 2, floated=False)
    give(g, 2, "UP_2", "UP_3")
    soc, bo = g.companies["SOC"], g.companies["B&O"]
    cash = player(g, 3).cash
    operating_round(g)  # before either float: SOC pays its $35
    assert player(g, 3).cash - cash == 35 + bo.revenue
    stock_round(g)
    act(g, "buy_shares", 1, shares=["CPR_4"])
    assert g.corporations["CPR"].floated and soc.revenue == 15 and not soc.closed
    for pid in (2, 3, 4, 1):
        act(g, "pass", pid)
    assert g.round.kind == "operating"
    cash = player(g, 3).cash
    operating_round(g)
    assert player(g, 3).cash - cash == 15 + bo.revenue
    stock_round(g)
    while g.acting() != [player(g, 2)]:
        act(g, "pass", g.acting()[0].id)
    act(g, "buy_shares", 2, shares=["UP_4"])
    assert g.corporations["UP"].floated and soc.closed
    cash = player(g, 3).cash
    operating_round(g)
    assert player(g, 3).cash - cash == bo.revenue


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
    redemption.redeem(g, g.corporations["NYC"], "debt")
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
    redemption.redeem(g, nyc, "debt")
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
    assert redemption.payment(g, nyc) == 500
    redemption.redeem(g, nyc, "debt")
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






def city(g: G1862, hex_id: str) -> str:
    hx = g.board.hexes[hex_id]
    return f"{hx.tile.id}-{hx.tile.tdef.cities[0]}"


def test_sc14_played_the_third_marker_in_columbus_costs_100_in_a_later_round() -> None:
    """SC-14: after Ottawa's marker in an earlier operating round, NYC's 3rd marker in Columbus G26 costs $100."""
    g = new()
    sell_privates(g)
    nyc = start(g, "NYC", 1, cash=800)
    lay(g, "NYC", "F31", "X4", 0)
    lay(g, "NYC", "F29", "8", 4)  # F31 to G28
    lay(g, "NYC", "G28", "8", 1)  # F29 to Columbus
    lay(g, "NYC", "G26", "57", 1)
    lay(g, "NYC", "D29", "57", 5)
    g.track.place_home_token(nyc)
    g.track.place_token(nyc, nyc.tokens[1], g.board.hexes["D29"], 0, free=True)  # Ottawa, an earlier round
    operating_round(g, 1)
    assert g.round.entity() is nyc
    corp_act(g, "pass", "NYC")  # no track
    cash = nyc.cash
    corp_act(g, "place_token", "NYC", city=city(g, "G26"))
    assert cash - nyc.cash == 100 and nyc.tokens[2].hex == "G26"
    assert "place_token" not in g.actions_for(g.corporations["NYC"])


def test_sc14_station_marker_costs_the_border_and_one_per_operating_round() -> None:
    g = new()
    sell_privates(g)
    nyc = start(g, "NYC", 1, cash=500)
    lay(g, "NYC", "F31", "X4", 0)
    lay(g, "NYC", "F29", "7", 3)
    lay(g, "NYC", "E30", "8", 0)
    lay(g, "NYC", "D29", "57", 5)
    operating_round(g)
    assert g.round.entity() is nyc and nyc.tokens[0].hex == "F31"
    corp_act(g, "pass", "NYC")  # no more track
    cash = nyc.cash
    corp_act(g, "place_token", "NYC", city=city(g, "D29"))
    assert cash - nyc.cash == 60  # Ottawa is across the border: 1.5 x $40
    assert "place_token" not in g.actions_for(g.corporations["NYC"])  # one marker per operating round
    with pytest.raises(GameError):
        corp_act(g, "place_token", "NYC", city=city(g, "G26"))


def test_sc14_played_cp_pays_40_in_quebec_then_150_in_baltimore_once_a_green_tile_adds_a_slot() -> None:
    g = new()
    sell_privates(g)
    g.phase_index = 3  # brown: Montreal's tiles below are given; the green Baltimore tile is laid in play
    cp = start(g, "CP", 2, cash=1000, col=8)
    # Montreal D31 (W, NW, NE, E) - D33 - Quebec C32; Montreal - Ottawa D29 - E30 - F29 - Baltimore G30's NW edge.
    for hex_id, tile, rotation in (("D31", "X5", 0), ("D31", "X10", 0), ("D31", "X16", 0), ("D33", "7", 1),
                                   ("C32", "57", 2), ("D29", "57", 2), ("D29", "14", 1), ("E30", "8", 0),
                                   ("F29", "8", 3), ("G30", "57", 0)):
        lay(g, "CP", hex_id, tile, rotation)
    g.track.place_home_token(cp)
    assert g.board.hexes["G30"].tile.tokens == {0: ["B&O"]}  # the B&O private's marker fills the one slot
    operating_round(g, 1)
    corp_act(g, "pass", "CP")
    cash = g.corporations["CP"].cash
    corp_act(g, "place_token", "CP", city=city(g, "C32"))
    assert cash - g.corporations["CP"].cash == 40  # Quebec is in Canada, as Montreal is
    operating_round(g, 2)
    corp_act(g, "pass", "CP")
    with pytest.raises(GameError, match="G30 is not connected to CP's network"):
        corp_act(g, "place_token", "CP", city=city(g, "G30"))
    assert all(c["city"] != city(g, "G30") for c in choices(g, g.corporations["CP"], "place_token"))
    corp_act(g, "pass", "CP")
    operating_round(g, 3)
    corp_act(g, "lay_tile", "CP", hex="G30", tile="15-0", rotation=0)  # green: a second slot, and the NW exit
    assert g.board.hexes["G30"].tile.tokens == {0: ["B&O", None]}
    cash = g.corporations["CP"].cash
    corp_act(g, "place_token", "CP", city=city(g, "G30"))
    cp = g.corporations["CP"]
    assert cash - cp.cash == 150  # the third marker, $100, across the border: x 1.5
    assert g.board.hexes["G30"].tile.tokens == {0: ["B&O", "CP"]}
    assert [t.hex for t in cp.tokens[:3]] == ["D31", "C32", "G30"]


def test_sc14_played_cn_pays_60_in_minneapolis_and_has_no_third_marker() -> None:
    g = new()
    sell_privates(g)
    g.phase_index = 3
    cn = start(g, "CN", 2, cash=1000, col=8)
    # Regina B13 - B15 - Winnipeg B17 - C18 - Minneapolis D19 (green: NP's home keeps one of its two slots).
    for hex_id, tile, rotation in (("B17", "57", 2), ("B17", "14", 1), ("B15", "9", 1), ("B13", "57", 1),
                                   ("C18", "9", 2), ("D19", "X3", 5), ("D19", "X8", 5)):
        lay(g, "CN", hex_id, tile, rotation)
    g.track.place_home_token(cn)
    operating_round(g, 1)
    corp_act(g, "pass", "CN")
    assert {c["city"] for c in choices(g, cn, "place_token")} == {city(g, "B13"), city(g, "D19")}
    cash = cn.cash
    corp_act(g, "place_token", "CN", city=city(g, "D19"))
    cn = g.corporations["CN"]
    assert cash - cn.cash == 60 and [t.hex for t in cn.tokens] == ["B17", "D19"]  # Minneapolis: US, x 1.5
    operating_round(g, 2)
    corp_act(g, "pass", "CN")
    assert g.actions_for(g.corporations["CN"]) == ["buy_train"]  # Regina is free and connected: no marker left
    with pytest.raises(GameError, match="CN cannot place token now"):
        corp_act(g, "place_token", "CN", city=city(g, "B13"))


def test_sc15_phase_4_scraps_the_2s_and_e_trains_never_hold_back_a_series() -> None:
    g = new()
    sell_privates(g)
    x = start(g, "NYC", 1, cash=2000)
    y = start(g, "CP", 2, cash=3000, col=8)
    g.phase_index = 1  # the first 3 was bought
    own_trains(g, "NYC", "2")
    own_trains(g, "CP", "3", "3", "3", "3")
    own_trains(g, "NYC", "3", "3")
    for t in [t for t in g.depot if t.name == "2"]:
        g.depot.remove(t)
    assert [t.name for t in g.trains.available_depot_trains()] == ["4"]
    g.trains.buy_train_action(x, g.trains.available_depot_trains()[0], 300, exchange=None, must_buy=False)
    assert g.phase["name"] == "4" and g.train_limit(x) == 3
    assert [t.name for t in x.trains] == ["3", "3", "4"]
    assert g.crowded_corporations() == [y]
    g.discard_train(y, y.trains[0])
    assert [t.name for t in g.pool_trains] == ["3"]
    own_trains(g, "SP", "4", "4", "4", "4")  # the other 4s were sold
    assert [t.name for t in g.trains.available_depot_trains()] == ["5"]
    buyer = g.corporations["CPR"]
    start(g, "CPR", 3, cash=5000, col=9)
    g.trains.buy_train_action(buyer, g.trains.available_depot_trains()[0], 550, exchange=None, must_buy=False)
    assert g.phase["name"] == "5" and [t.name for t in g.trains.available_depot_trains()] == ["5", "5E"]
    assert g.operating_rounds_in_set() == 3 and g.phase_colour() == "brown"
    assert g.board.node_revenue(g.board.hexes["A32"], 0, g.phase_colour()) == 40
    for sym in ("NYH", "ATS", "UP"):
        start(g, sym, 4, cash=2000, col=10, floated=True)
        five = next(t for t in g.trains.available_depot_trains() if t.name == "5")
        g.trains.buy_train_action(g.corporations[sym], five, 550, exchange=None, must_buy=False)
    assert sorted(t.name for t in g.trains.available_depot_trains()) == ["5E", "6"]


def test_sc16_e_trains_count_their_best_stops_bonus_included() -> None:
    g = new()
    five_e = next(t for t in g.depot if t.name == "5E")
    five = next(t for t in g.depot if t.name == "5")
    spec = g.autoroute_train_spec(five_e)
    assert spec.express and spec.limit == 5 and not g.autoroute_train_spec(five).express
    g.phase_index = 3  # phase 5: bonus $30, right off-board values
    omaha = g.board.hexes["F17"]
    lay(g, "UP", "F17", "57", 1)
    assert g.board.node_revenue(omaha, 0, g.phase_colour()) == 20 + 30
    stops = [("town", 10, False), ("city", 50, False), ("city", 30, False), ("city", 30, False),
             ("city", 40, False), ("city", 20, False), ("offboard", 80, False)]
    assert spec.earnings(stops) == 230
    without_omaha = [s for s in stops if s[1] != 50]
    assert spec.earnings(without_omaha) == 200


# SC-16's route in phase 5: Mexico K14 - Austin K18 ($20) - Houston K20 (town $10) - Dallas J19 ($40, TP's home)
# - Oklahoma City I18 ($30) - Kansas City G20 ($30) - Omaha F17 (#57, $20 + the $30 bonus): seven stations.
SC16_TRACK = (("K16", "9", 1), ("K18", "57", 1), ("K20", "3", 1), ("J19", "57", 2), ("J19", "14", 1),
              ("J19", "611", 1), ("I18", "57", 2), ("I18", "14", 1), ("H17", "8", 3), ("G18", "8", 4),
              ("G20", "57", 1), ("G20", "14", 1), ("F19", "8", 5), ("F17", "57", 1))
SC16_ROUTE: dict[str, Any] = {"train": "5E-0",
              "connections": [["F17", "F19", "G20"], ["G20", "G18", "H17", "I18"], ["I18", "J19"], ["J19", "K20"],
                              ["K20", "K18"], ["K18", "K16", "K14"]],
              "nodes": ["F17-0", "G20-0", "I18-0", "J19-0", "K20-0", "K18-0", "K14-0"]}


def sc16_position(*trains: str) -> G1862:
    """TP (home Dallas) at its turn to run, in phase 5, owning ``trains``, on SC-16's track."""
    g = new()
    sell_privates(g)
    g.phase_index = 3  # phase 5: brown, the $30 bonus
    tp = start(g, "TP", 1, cash=2000)
    for hex_id, tile, rotation in SC16_TRACK:
        lay(g, "TP", hex_id, tile, rotation)
    g.track.place_home_token(tp)
    own_trains(g, "TP", *trains)
    operating_round(g)
    corp_act(g, "pass", "TP")  # no track
    corp_act(g, "pass", "TP")  # no station
    assert g.round.entity() is tp and g.actions_for(tp) == ["run_routes"]
    return g


def test_sc16_played_a_5e_runs_the_seven_station_route_counting_its_best_five() -> None:
    g = sc16_position("5E", "5")
    stops = [g.board.node_revenue(g.board.hexes[str(n).split("-")[0]], 0, g.phase_colour())
             for n in SC16_ROUTE["nodes"]]
    assert stops == [20 + 30, 30, 30, 40, 10, 20, 80]  # Omaha with its bonus, ..., Mexico
    with pytest.raises(GameError, match="a 5 train counts at most 5 stops; this route has 7"):
        corp_act(g, "run_routes", "TP", routes=[dict(SC16_ROUTE, train="5-0")])
    # The president may count any five stops; the engine pays the best count: Omaha with its bonus, not Austin.
    spec = g.autoroute_train_spec(g.all_trains["5E-0"])
    assert spec.earnings([("city", v, False) for v in stops if v != 50]) == 200
    with pytest.raises(GameError, match=r"the 5E train's route earns \$230, not \$200"):
        corp_act(g, "run_routes", "TP", routes=[dict(SC16_ROUTE, revenue=200)])
    corp_act(g, "run_routes", "TP", routes=[SC16_ROUTE])
    assert [(r["train"], r["revenue"]) for r in g.last_routes] == [("5E-0", 80 + 50 + 40 + 30 + 30)]
    assert g.last_routes[0]["hexes"][0] == "F17" and g.last_routes[0]["hexes"][-1] == "K14"
    assert g.actions_for(g.corporations["TP"]) == ["dividend"]  # a refused run restored a copy: look it up


def test_sc16_the_route_finder_gives_the_5e_the_whole_route() -> None:
    g = sc16_position("5E")
    assert g.best_routes(g.corporations["TP"]) == [SC16_ROUTE]


def test_sc16_a_full_city_mid_route_blocks_the_5e_even_when_it_would_omit_that_city() -> None:
    g = sc16_position("5E")
    for sym in ("ATS", "UP"):  # Kansas City's green tile has two slots: both taken by other companies
        corp = g.corporations[sym]
        g.track.place_token(corp, corp.tokens[1], g.board.hexes["G20"], 0, free=True)
    with pytest.raises(GameError, match="G20 is full of other companies' stations: routes cannot pass through it"):
        corp_act(g, "run_routes", "TP", routes=[SC16_ROUTE])
    ending_there = g.best_routes(g.corporations["TP"])
    assert ending_there[0]["nodes"][0] == "G20-0" and "F17-0" not in ending_there[0]["nodes"]
    corp_act(g, "run_routes", "TP", routes=ending_there)  # a full city may still end the route
    assert [r["revenue"] for r in g.last_routes] == [80 + 40 + 30 + 30 + 20]


def test_sc17_the_erie_tile_out_of_turn_in_a_stock_round() -> None:
    g = new()
    sell_privates(g)
    stock_round(g)
    d29 = g.board.hexes["D29"]
    assert 0 in d29.sealed  # SW of Ottawa faces Erie's trackless side
    erie = {"type": "lay_tile", "entity": "ERIE", "entity_type": "company", "tile": "ERIE", "rotation": 0}
    assert g.acting() == [player(g, 1)] and g.companies["ERIE"].owner is player(g, 2)
    with pytest.raises(GameError):
        g.process({**erie, "hex": "D29"})
    g.process({**erie, "hex": "E28"})
    tile = g.board.hexes["E28"].tile
    assert tile.name == "ERIE" and tile.exits() == frozenset({1, 3, 5}) and tile.tdef.nodes[0].revenue == 30
    assert g.companies["ERIE"].closed and g.companies["ERIE"] not in player(g, 2).companies
    assert 0 not in g.board.hexes["D29"].sealed


def test_sc18_omaha_takes_a_yellow_tile_before_any_upgrade() -> None:
    g = new()
    sell_privates(g)
    up = start(g, "UP", 1, cash=500)
    operating_round(g)
    corp_act(g, "lay_tile", "UP", hex="F17", tile="57-0", rotation=1)
    assert g.board.hexes["F17"].tile.name == "57"
    g2 = new()
    sell_privates(g2)
    up = start(g2, "UP", 1, cash=500)
    g2.phase_index = 1
    operating_round(g2)
    with pytest.raises(GameError):
        corp_act(g2, "lay_tile", "UP", hex="F17", tile="14-0", rotation=1)
    corp_act(g2, "lay_tile", "UP", hex="F17", tile="6-0", rotation=1)
    cash = g2.corporations["UP"].cash
    corp_act(g2, "lay_tile", "UP", hex="E18", tile="9-0", rotation=0)
    assert g2.board.hexes["E18"].tile.name == "9" and cash - g2.corporations["UP"].cash == 80
    assert up.sym == "UP"


def test_sc19_share_price_above_379_ends_after_the_current_set() -> None:
    from engine.core.game_end import EndTiming
    g = new()
    sell_privates(g)
    corp = start(g, "NYC", 1, col=20)
    assert g.game_end_timing() is None
    g.pay_dividend(corp, 100, "payout")
    assert g.market.location["NYC"].price == 400
    trigger = g.game_end_timing()
    assert trigger is not None and trigger.reason == "stock_market" and trigger.timing is EndTiming.FULL_OR
    # The bank cannot pay a seller in full: he is paid from the reserve, and the end waits for a full OR set.
    g2 = nyc_company()
    g2.bank.cash = 50
    cash = player(g2, 2).cash
    act(g2, "pass", 1)
    act(g2, "sell_shares", 2, shares=["NYC_1"], percent=10)
    assert player(g2, 2).cash - cash == 100 and g2.bank.broken
    trigger = g2.game_end_timing()
    assert trigger is not None and trigger.reason == "bank" and trigger.timing is EndTiming.FULL_OR
    assert g2.round.kind == "stock" and not g2.finished
    # The round goes on to its end, one full set of operating rounds follows (one OR in phase 2), then the end.
    assert play_to_the_end(g2) == ["Stock Round 1", "Operating Round 1.1"]
    assert g2.finished and g2.game_end_reason == "bank"


def play_to_the_end(g: G1862) -> list[str]:
    """Play on with the first legal choice of whoever acts (runs and payouts first), to the game's end; the rounds
    met on the way, by name."""
    from engine.core import query
    seen = [g.round.name()]
    for _ in range(400):
        if g.finished:
            return seen
        options = [o for e in query.deciding_entities(g) for o in query.all_choices(g, e)]
        assert options, f"no legal action in {g.round.name()}"
        order = ("run_routes", "dividend", "pass")
        best = min(options, key=lambda o: (order.index(o["type"]) if o["type"] in order else len(order),
                                           o.get("kind") != "payout"))
        g._checkpoint = None
        g.process(best)
        if g.round.name() != seen[-1]:
            seen.append(g.round.name())
    raise AssertionError(f"no end: {seen}")


def three_or_set_with_nyc(price_col: int) -> G1862:
    """Phase 5 (three ORs a set), OR 1 starting: NYC (P1) with a 5-train, its home and a route, at (0, price_col);
    NYC owes a $300 debt certificate and holds $100."""
    g = new()
    sell_privates(g)
    g.phase_index = 3
    g.operating_rounds = 3
    nyc = start(g, "NYC", 1, col=price_col, cash=220)  # $100 after the F29 lay
    own_trains(g, "NYC", "5")
    g.track.place_home_token(nyc)
    lay(g, "NYC", "F29", "7", 3)
    nyc.debt = 300
    operating_round(g, 1)
    return g


def test_sc19_played_the_set_is_completed_debts_repaid_no_stock_round() -> None:
    g = three_or_set_with_nyc(20)
    nyc = g.corporations["NYC"]
    assert g.market.location["NYC"].price == 370
    g.pay_dividend(nyc, 100, "payout")  # NYC's payout in OR 1 takes it to $400
    assert g.market.location["NYC"].price == 400
    seen = play_to_the_end(g)
    assert g.finished and g.game_end_reason == "stock_market"
    assert seen == ["Operating Round 1.1", "Operating Round 1.2", "Operating Round 1.3"], seen
    p1 = player(g, 1)
    assert nyc.debt == 0  # repaid from the treasury, the president covering what it lacks (§9.6)
    held = sum(certificates.cert_price(g, nyc, s) for s in p1.shares_of("NYC"))
    assert g.player_value(p1) == p1.cash - p1.debt + held
    assert g.result()[str(p1.id)] == g.player_value(p1)


def test_sc19_played_a_payout_to_400_in_or_1_ends_the_game_after_or_3() -> None:
    """SC-19 with the payout played: TP at $370 runs its 5E for $230 in OR 1 of 3 and pays out, moving to $400."""
    g = new()
    sell_privates(g)
    g.phase_index = 3
    g.operating_rounds = 3
    tp = start(g, "TP", 1, cash=2000, col=20)
    for hex_id, tile, rotation in SC16_TRACK:
        lay(g, "TP", hex_id, tile, rotation)
    g.track.place_home_token(tp)
    own_trains(g, "TP", "5E")
    tp.debt = 300
    operating_round(g, 1)
    assert g.market.location["TP"].price == 370
    seen = play_to_the_end(g)
    assert seen == ["Operating Round 1.1", "Operating Round 1.2", "Operating Round 1.3"], seen
    assert g.finished and g.game_end_reason == "stock_market"
    assert g.log_lines.count("TP pays out $230") == 3 and g.market.location["TP"].price == 400
    assert tp.debt == 0 and "TP repays its debt" in g.log_lines  # §9.6, from the treasury
    p1 = player(g, 1)
    assert g.result()[str(p1.id)] == g.player_value(p1)


def test_sc24_played_second_bankruptcy_ends_after_the_set_without_a_stock_round() -> None:
    g = new()
    sell_privates(g)
    g.phase_index = 3
    g.operating_rounds = 3
    g.players[3].bankrupt = True
    g.fixed_scores[4] = 0
    certificates.update_cert_limit(g)
    ats = start(g, "ATS", 3, cash=100, col=10)
    lay(g, "ATS", "G22", "4", 0)
    p3 = player(g, 3)
    for c in list(p3.companies):
        g.shares.close_company(c)
    for share in [s for s in p3.shares if s.corp != "ATS"]:
        g.shares.transfer_share(share, g.corporations[share.corp])
    g.bank.cash += p3.cash
    p3.cash = 0
    nyc = start(g, "NYC", 1, col=9, cash=220)
    own_trains(g, "NYC", "5")
    g.track.place_home_token(nyc)
    lay(g, "NYC", "F29", "7", 3)
    nyc.debt = 300  # $100 in the treasury after the lay: P1 makes up the rest at the end (§9.6)
    operating_round(g, 1)
    assert ats.cash == 0 or ats.cash < 550
    p1 = player(g, 1)
    seen = play_to_the_end(g)
    assert p3.bankrupt and g.game_end_reason == "players_out" and certificates.players_in_game(g) == 2
    assert seen == ["Operating Round 1.1", "Operating Round 1.2", "Operating Round 1.3"], seen  # no stock round
    assert nyc.debt == 0 and "NYC repays its debt" in g.log_lines
    assert any(line.startswith("P1 pays $") and "of NYC's debt" in line for line in g.log_lines)
    assert g.result()[str(p1.id)] == g.player_value(p1) and g.result()[str(p3.id)] == g.fixed_scores[3]


def presiding(g: G1862, pid: int, *syms: str) -> None:
    for sym in syms:
        start(g, sym, pid)


def test_sc20_certificate_limit_after_a_bankruptcy() -> None:
    g = new(5)
    assert g.cert_limit == 18
    presiding(g, 1, "NYC", "CP", "CPR")
    give(g, 2, "CP_1")
    g.track.place_home_token(g.corporations["NYC"])
    g.bank.cash += player(g, 1).cash
    player(g, 1).cash = 0
    cash = player(g, 2).cash
    g.go_bankrupt(g.corporations["NYC"])
    assert all(g.corporations[s].closed for s in ("NYC", "CP", "CPR"))
    assert g.board.hexes["F31"].tile.kinds[0][0] is TokenKind.BLOCKING
    assert player(g, 2).cash - cash == 100  # CP 10% at $100
    assert g.cert_limit == 16 and certificates.players_in_game(g) == 4
    assert g.player_value(player(g, 1)) == -100  # the 2-train the company could not buy


def test_sc21_redemption_at_an_odd_price_tie_transfer_and_dividends() -> None:
    g = nyc_company()
    z = start(g, "CPR", 1, row=2)
    assert g.market.location["CPR"].price == 85
    give(g, 1, "CPR_3")
    give(g, 2, "CPR_4", "CPR_5", "CPR_6")
    give(g, 3, "CPR_2")  # P3 got CPR_1 with SOC
    to_pool(g, "CPR_7", "CPR_8")
    g.phase_index = 3
    before = {p.id: p.cash for p in g.players}
    assert redemption.payment(g, z) == 429
    redemption.redeem(g, z, "debt")
    assert {p.id: p.cash - before[p.id] for p in g.players} == {1: 128, 2: 129, 3: 86, 4: 0}
    assert z.debt == 600 and z.cash == 480 - 429 == 51
    assert g.market.location["CPR"].price == 85 and z.owner is player(g, 1)
    assert player(g, 1).percent_of("CPR") == player(g, 2).percent_of("CPR") == 15
    act(g, "pass", 1)
    cash = player(g, 2).cash
    act(g, "buy_shares", 2, shares=[g.pool.shares_of("CPR")[0].id])
    assert cash - player(g, 2).cash == 43
    assert z.owner is player(g, 2)
    assert sorted(s.percent for s in shares_of(g, 1, "CPR")) == [5, 5, 5]
    assert sorted((s.percent, s.president) for s in shares_of(g, 2, "CPR")) == [(5, False), (5, False), (10, True)]
    assert [s.percent for s in g.pool.shares_of("CPR")] == [5]
    before = {p.id: p.cash for p in g.players}
    treasury = z.cash
    g.pay_dividend(z, 130, "payout")
    assert {p.id: p.cash - before[p.id] for p in g.players} == {1: 21, 2: 28, 3: 14, 4: 0}
    assert z.cash - treasury == 60


def test_sc22_debt_repayment_at_game_end() -> None:
    g = nyc_company()
    give(g, 1, "NYC_3")
    nyc = g.corporations["NYC"]
    g.phase_index = 1
    redemption.redeem(g, nyc, "debt")
    nyc.debt = 600
    g.bank.cash += nyc.cash - 250
    nyc.cash = 250
    g.market.place("NYC", g.market.cell(0, 0))  # $60
    start(g, "CP", 2, col=7)
    give(g, 1, "CP_1", "CP_2", "CP_3")
    p1 = player(g, 1)
    for company in list(p1.companies):
        g.shares.close_company(company)
    for s in [s for s in p1.shares if s.corp not in ("NYC", "CP")]:
        g.shares.transfer_share(s, g.corporations[s.corp])
    g.bank.cash += p1.cash - 200
    p1.cash = 200
    debt.repay_debts(g)
    assert nyc.cash == 0 and nyc.debt == 0 and p1.cash == 0 and p1.debt == 150
    assert g.player_value(p1) == 270
    assert g.market.location["NYC"].price == 60


def test_sc23_bankruptcy_that_continues_the_game() -> None:
    g = new(5)
    p3 = player(g, 3)
    erie = g.companies["ERIE"]
    erie.owner = p3
    p3.companies.append(erie)
    g.phase_index = 2
    g.depot = [t for t in g.depot if t.name not in ("2", "3")]
    z = start(g, "CPR", 3, row=5, col=7, cash=40)
    give(g, 1, "CPR_1", "CPR_2", "CPR_3")
    y = start(g, "CP", 2)
    to_pool(g, "CP_1", "CP_2", "CP_3", "CP_4", "CP_5")
    give(g, 3, "CP_6", "CP_7")
    start(g, "UP", 4, row=2, col=8)
    give(g, 3, "UP_2")
    g.bank.cash += p3.cash - 100
    p3.cash = 100
    cash = player(g, 1).cash
    bank = g.bank.cash
    g.go_bankrupt(z)
    assert p3.bankrupt and z.closed and erie.closed and g.board.hexes["E28"].tile.name == "ERIE"
    assert g.market.location["UP"].price == 85  # P3 sold W (UP) for $92, one row down
    assert player(g, 1).cash - cash == 210
    assert len(g.pool.shares_of("CP")) == 7 and g.market.location["CP"].price == 100
    assert g.cert_limit == 20 and certificates.players_in_game(g) == 4
    assert g.player_value(p3) == 2 * 100 - 68 == 132
    # His cash (the $92 of the sale included) and Z's treasury go to the bank; the compensation comes out of it.
    assert g.bank.cash - bank == 100 + 40 - 210
    assert y.owner is player(g, 2)


def test_sc24_fewer_than_three_players_ends_after_the_current_set() -> None:
    from engine.core.game_end import EndTiming
    g = new()
    g.players[3].bankrupt = True
    g.fixed_scores[4] = 0
    certificates.update_cert_limit(g)
    assert g.game_end_timing() is None
    start(g, "NYC", 3)
    g.go_bankrupt(g.corporations["NYC"])
    trigger = g.game_end_timing()
    assert trigger is not None and trigger.reason == "players_out" and trigger.timing is EndTiming.FULL_OR


def test_sc25_unsold_privates_across_two_initial_stock_rounds() -> None:
    g = new()
    act(g, "bid", 1, company="BOM", price=20)
    act(g, "bid", 2, company="B&O", price=75)
    for pid in (3, 4, 1, 2):
        act(g, "pass", pid)
    assert g.round.kind == "initial" and g.acting() == [player(g, 3)]
    assert player(g, 1).cash == 600 - 20 + 5
    assert player(g, 2).cash == 600  # the bid stands, earmarked
    act(g, "bid", 3, company="ERIE", price=40)
    assert g.companies["B&O"].owner is player(g, 2) and player(g, 2).cash == 525
    assert g.board.hexes["G30"].tile.tokens[0] == ["B&O"]
    assert g.acting() == [player(g, 4)]
    assert [c["price"] for c in choices(g, player(g, 4), "bid") if c["company"] == "RMC"] == [100]


def test_sc26_company_groups_open_in_turn() -> None:
    g = nyc_company()
    start(g, "NYH", 4, floated=False)
    start(g, "CP", 3, floated=False)
    give(g, 1, "NYC_3", "NYC_4", "NYC_5")
    give(g, 3, "NYC_6", "NYC_7", "NYH_1", "NYH_2", "NYH_3", "NYH_4", "NYH_5", "NYH_6", "NYH_7")
    give(g, 4, "CP_1", "CP_2", "CP_3", "CP_4", "CP_5", "CP_6")
    assert [s.id for s in g.corporations["CP"].shares] == ["CP_7"]
    assert not [c for c in choices(g, player(g, 1), "par") if c["corporation"] == "CPR"]
    with pytest.raises(GameError):
        act(g, "par", 1, corporation="CPR", share_price="100,0,7")
    act(g, "pass", 1)
    act(g, "buy_shares", 2, shares=["CP_7"])
    assert shares.group_open(g, 2) and not shares.group_open(g, 3)
    act(g, "par", 3, corporation="CPR", share_price="100,0,7")
    assert not g.corporations["CPR"].floated  # P3: 20% + SOC's 10%
    give(g, 1, "CPR_2", "CPR_3")
    act(g, "pass", 4)
    act(g, "buy_shares", 1, shares=["CPR_4"])  # 20 + 10 + 3 x 10 = 60%
    assert g.corporations["CPR"].floated
    for sym in ("UP", "ATS"):
        start(g, sym, 2)
    start(g, "SP", 2, floated=False)
    give(g, 1, "SP_1", "SP_2", "SP_3", "SP_4")
    assert not shares.group_open(g, 3)
    assert "WP_1" in [s.id for s in player(g, 1).shares]  # PSC's WP share cannot be sold before WP has a par
    assert not [c for c in choices(g, player(g, 2), "sell_shares") if c["shares"][0].startswith("WP")]
    act(g, "pass", 2)
    act(g, "pass", 3)
    act(g, "buy_shares", 4, shares=["SP_5"])
    assert g.corporations["SP"].floated and shares.group_open(g, 3)


def test_sc27_forced_train_purchase() -> None:
    g = new()
    sell_privates(g)
    only_a_pool_three(g)
    x = start(g, "ATS", 1, cash=200, col=10)
    start(g, "SP", 1, cash=0, col=8)
    own_trains(g, "SP", "4", "4")
    lay(g, "ATS", "G22", "4", 0)  # St. Louis: river, $80
    assert x.cash == 120
    operating_round(g)
    assert g.round.entity() is x
    while g.round.active_step().name != "Buy trains":  # type: ignore[union-attr]
        corp_act(g, "pass", "ATS")
    x = g.corporations["ATS"]
    offered = choices(g, x, "buy_train")
    assert {(c["train"], c["price"]) for c in offered if c["train"] == "3-5"} == {("3-5", 200)}
    assert not [c for c in offered if c["train"].startswith("4") and g.all_trains[c["train"]].owner is None]
    assert [c for c in offered if g.all_trains[c["train"]].owner is g.corporations["SP"]]
    assert "pass" not in g.actions_for(x)
    with pytest.raises(GameError):
        corp_act(g, "buy_train", "ATS", train=g.trains.available_depot_trains()[0].id, price=300)
    cash = player(g, 1).cash
    corp_act(g, "buy_train", "ATS", train="3-5", price=200)
    assert player(g, 1).cash == cash - 80 and g.corporations["ATS"].cash == 0


def test_sc27_a_train_from_the_presidents_other_company_at_any_price_from_1() -> None:
    """SC-27: X may buy a train from Y (same president) at any price of at least $1; P1 adds only what X's $120
    does not cover."""
    g = new()
    sell_privates(g)
    only_a_pool_three(g)
    start(g, "ATS", 1, cash=200, col=10)
    start(g, "SP", 1, cash=0, col=8)
    own_trains(g, "SP", "4", "4")
    lay(g, "ATS", "G22", "4", 0)
    operating_round(g)
    while g.round.active_step().name != "Buy trains":  # type: ignore[union-attr]
        corp_act(g, "pass", "ATS")
    ats, sp = g.corporations["ATS"], g.corporations["SP"]
    four = sp.trains[0]
    offer = next(c for c in choices(g, ats, "buy_train") if c["train"] == four.id)
    price_range = g.round.price_range_for(ats, offer)
    assert price_range is not None and price_range[0] == 1 and price_range[1] > 120
    with pytest.raises(GameError):
        corp_act(g, "buy_train", "ATS", train=four.id, price=0)
    cash = player(g, 1).cash
    corp_act(g, "buy_train", "ATS", train=four.id, price=150)
    ats, sp = g.corporations["ATS"], g.corporations["SP"]
    assert player(g, 1).cash == cash - 30 and ats.cash == 0 and sp.cash == 150
    assert [t.id for t in ats.trains] == [four.id] and four.id not in [t.id for t in sp.trains]


def test_sc27_with_30_dollars_the_president_sells_only_what_covers_the_shortfall() -> None:
    """SC-27: with $30 cash P1 must sell shares for $50, stopping once covered, never a president's certificate
    or a sale that changes a presidency."""
    g = new()
    sell_privates(g)
    only_a_pool_three(g)
    start(g, "ATS", 1, cash=200, col=10)
    start(g, "SP", 1, cash=0, col=8)
    start(g, "CP", 2, row=7, col=1)  # $30 a share
    give(g, 1, "CP_1", "CP_2", "CP_3")  # as much as P2's 30%: a sale changes no presidency
    give(g, 1, "SP_2")
    give(g, 2, "SP_1", "SP_3", "SP_4")  # selling SP_2 would hand SP's presidency to P2 (30% against 20%)
    lay(g, "ATS", "G22", "4", 0)
    operating_round(g)
    while g.round.active_step().name != "Buy trains":  # type: ignore[union-attr]
        corp_act(g, "pass", "ATS")
    p1 = player(g, 1)
    g.bank.cash += p1.cash - 30  # after the privates' revenue
    p1.cash = 30
    ats = g.corporations["ATS"]
    assert ats.cash == 120 and g.runs.emergency_need(ats) == 50
    assert g.actions_for(ats) == ["buy_train"]
    sales = choices(g, p1, "sell_shares")
    sold = {(c["shares"][0].split("_")[0], c["percent"]) for c in sales}
    # $30 short after one share, covered by two; three would sell more than needed; no president's certificate.
    assert ("CP", 10) in sold and ("CP", 20) in sold and ("CP", 30) not in sold
    assert not [c for c in sales if any(sid.endswith("_0") for sid in c["shares"])]
    assert not [c for c in sales if c["shares"][0].startswith("SP")]
    first = next(c for c in sales if c["shares"][0].startswith("CP") and c["percent"] == 10)
    act(g, "sell_shares", 1, shares=first["shares"], percent=10)
    assert player(g, 1).cash == 60 and g.market.location["CP"].price < 30  # floated: paid before the drop
    more = choices(g, player(g, 1), "sell_shares")
    assert more and all(c["percent"] == 10 for c in more)  # one more share covers the last $20
    act(g, "sell_shares", 1, shares=more[0]["shares"], percent=10)
    assert player(g, 1).cash >= 80
    assert choices(g, player(g, 1), "sell_shares") == []  # covered: no further sale
    assert "sell_shares" not in g.actions_for(player(g, 1))
    corp_act(g, "buy_train", "ATS", train="3-5", price=200)
    assert g.corporations["ATS"].trains and g.corporations["ATS"].cash == 0


def test_sc28_share_price_zero_closes_the_company() -> None:
    g = new()
    sell_privates(g)
    q = start(g, "NYC", 1, row=9, col=0, cash=77)
    own_trains(g, "NYC", "2")
    g.track.place_home_token(q)
    q.debt = 300
    bank = g.bank.cash
    g.pay_dividend(q, 0, "withhold")
    assert q.closed and "NYC" not in g.market.location
    assert not q.trains and q.cash == 0 and q.debt == 0 and g.bank.cash - bank == 77
    assert not shares_of(g, 1, "NYC") and not shares_of(g, 2, "NYC")
    assert g.board.hexes["F31"].tile.kinds[0][0] is TokenKind.BLOCKING
    assert g.cert_limit == 20
    g2 = nyc_company()
    g2.market.place("NYC", g2.market.cell(9, 1))
    act(g2, "pass", 1)
    act(g2, "sell_shares", 2, shares=["NYC_1"], percent=10)
    assert g2.market.location["NYC"].coords == (9, 1)
    act(g2, "pass", 2)
    g2.market.place("NYC", g2.market.cell(9, 0))
    give(g2, 3, "NYC_3")
    act(g2, "sell_shares", 3, shares=["NYC_3"], percent=10)
    assert g2.corporations["NYC"].closed


def test_sc29_over_the_certificate_limit_after_redemption() -> None:
    g = new(6)
    sell_privates(g)
    assert g.cert_limit == 15
    start(g, "NYC", 1)
    p1 = player(g, 1)
    give(g, 1, "NYC_1", "NYC_2", "NYC_3")
    for sym, ids in (("CP", range(1, 3)), ("CPR", range(2, 7))):
        start(g, sym, 2, col=8)
        give(g, 1, *(f"{sym}_{i}" for i in ids))
    assert g.num_certs(p1) == 15
    g.phase_index = 1
    redemption.redeem(g, g.corporations["NYC"], "debt")
    assert g.num_certs(p1) == 16
    stock_round(g)
    assert set(g.actions_for(player(g, 1))) == {"sell_shares", "close_company"}  # no buying, no passing
    with pytest.raises(GameError):
        act(g, "buy_shares", 1, shares=["CP_5"])
    act(g, "sell_shares", 1, shares=["CP_1"], percent=10)
    assert g.num_certs(player(g, 1)) == 15


def test_standing_private_bids_show_in_the_status_view_and_to_auto_actions() -> None:
    """A bid in 1862's private sale is what a player needs to see (who leads, at what price) between turns; the
    views and the bot's auto-actions read it from the engine (``query.high_bids``), not from a title's names."""
    from engine.core.query import high_bids
    from engine.core.statusbuild import status_view

    g = new(5)
    act(g, "pass", 1)
    act(g, "bid", 2, company="ERIE", price=45)
    act(g, "pass", 3)
    act(g, "bid", 4, company="ERIE", price=50)
    assert high_bids(g) == {"ERIE": (player(g, 4), 50)}
    erie = next(c for c in status_view(g).companies if c.sym == "ERIE")
    assert (erie.high_bid, erie.high_bidder) == (50, "P4")
    act(g, "choose", 2, choice="keep")
    act(g, "bid", 5, company="ERIE", price=55)
    view = status_view(g)
    erie = next(c for c in view.companies if c.sym == "ERIE")
    assert (erie.high_bid, erie.high_bidder) == (55, "P5")
    # Money in bids is earmarked (S2): each bidder's status says how much of his cash is in bids.
    assert {p.name: p.in_bids for p in view.players} == {"P1": 0, "P2": 45, "P3": 0, "P4": 50, "P5": 55}
