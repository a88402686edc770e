"""1882 emergency money, trains from other companies and bankruptcy, as 18xx.games plays them.

Each scenario starts from a real game: GT floats in the first stock round, track links its home L8 to the
empty city J8 so that it must buy a train, and the test then sets cash and certificates directly.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import new_game
from engine.core import query
from engine.core.entities import Corporation, Player, Train
from engine.core.errors import GameError
from engine.core.game import Game
from engine.core.graph import company_network
from engine.core.steps.trains import BuyTrain

from .test_1882_scenarios import finish_auction


def connect(g: Game, corp: Corporation, a: str, b: str) -> None:
    """Lay a straight city tile on two adjacent hexes so that their cities are joined."""
    ha, hb = g.board[a], g.board[b]
    edge = next(e for e, n in ha.neighbors.items() if n == hb.id)
    for hx, side in ((ha, edge), (hb, (edge + 3) % 6)):
        tile = next(t for t in g.tile_supply.values() if t.name == "57")
        rotation = next(r for r in range(6) if side in {(e + r) % 6 for e in tile.tdef.edges()})
        g.track.lay_tile(corp, {"hex": hx.id, "tile": tile.id, "rotation": rotation}, check_connection=False)


def corp_action(kind: str, sym: str, **fields: object) -> dict[str, Any]:
    return {"type": kind, "entity": sym, "entity_type": "corporation", **fields}


def gt_operating(options: dict[str, Any] | None = None) -> Game:
    """Three players, seed 7: GT parred at 100 in the first stock round with four more shares sold, and now in its
    first operating turn."""
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7, options=options)
    finish_auction(g)
    par = next(c for c in query.choices(g, g.acting()[0], "par")
               if c["corporation"] == "GT" and c["share_price"].startswith("100,"))
    g.process(par)
    for _ in range(4):
        g.process(next(c for c in query.choices(g, g.acting()[0], "buy_shares") if c["shares"][0].startswith("GT")))
    while g.round.kind == "stock":
        g.process(query.choices(g, g.acting()[0], "pass")[0])
    return g


def gt_must_buy(*, to_train_step: bool = True) -> tuple[Game, Corporation, Player]:
    """GT in its first operating turn (at its train step unless told otherwise), with no train and a route:
    Cy is its president (GT_0 only), Ann and Bob hold 20% each. Bob is the president of CPR, which has a
    market price but has not floated."""
    g = gt_operating()
    gt = g.corporations["GT"]
    cy = player(g, "Cy")
    assert g.round.entity() is gt and gt.owner is cy
    g.shares.transfer_share(next(s for s in cy.shares if not s.president), player(g, "Bob"))
    connect(g, gt, "L8", "J8")
    assert g.must_buy_train(gt)
    edited(g)
    while to_train_step and not isinstance(g.round.active_step(), BuyTrain):
        g.process(corp_action("pass", "GT"))
    return g, gt, cy


def edited(g: Game) -> None:
    """The test changed the state by hand: a refused action must restore this state, not replay the log."""
    g._checkpoint = None


def give(g: Game, player: Player, sym: str, count: int) -> None:
    for share in [s for s in g.corporations[sym].shares if not s.president][:count]:
        g.shares.transfer_share(share, player)


def player(g: Game, name: str) -> Player:
    return next(p for p in g.players if p.name == name)


def make_president(g: Game, sym: str, new: Player) -> None:
    corp = g.corporations[sym]
    pres = next(s for h in g._holders() for s in h.shares if s.corp == sym and s.president)
    g.shares.transfer_share(pres, new)
    corp.owner = new


def sell(who: Player, shares: list[str], percent: int) -> dict[str, Any]:
    return {"type": "sell_shares", "entity": who.id, "entity_type": "player", "shares": shares, "percent": percent}


def test_two_token_cities_joined_by_track_make_a_route() -> None:
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)
    gt = g.corporations["GT"]
    connect(g, gt, "L8", "J8")
    g.board["L8"].tile.tokens[0][0] = "XX"
    g.board["J8"].tile.tokens[0][0] = "XX"
    net = company_network(g.board, "XX")
    # Both stops are the company's own stations; 18xx.games counts that as a route.
    assert net.nodes == net.token_nodes and net.route_possible


def test_a_lone_token_city_is_no_route() -> None:
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)
    g.board["L8"].tile.tokens[0][0] = "XX"
    g.board["C3"].tile.tokens[0][0] = "XX"
    assert not company_network(g.board, "XX").route_possible


def test_emergency_sale_may_not_raise_more_than_needed() -> None:
    g, gt, cy = gt_must_buy()
    give(g, cy, "CPR", 2)
    gt.cash, cy.cash = 0, 75  # the 2 train costs $80: $5 short
    edited(g)
    offered = query.choices(g, cy, "sell_shares")
    assert [(c["shares"], c["percent"]) for c in offered] == [(["CPR_1"], 10)]
    with pytest.raises(GameError, match="more than is needed"):
        g.process(sell(cy, ["CPR_1", "CPR_2"], 20))
    gt, cy = g.corporations["GT"], player(g, "Cy")  # a refused action restores the state as new objects
    g.process(sell(cy, ["CPR_1"], 10))
    assert cy.cash == 75 + 100
    # Now the money is there: no more sales, and the train is bought with Cy's contribution.
    assert "sell_shares" not in g.actions_for(cy)
    g.process(corp_action("buy_train", "GT", train=g.trains.available_depot_trains()[0].id, price=80))
    assert gt.trains and cy.cash == 175 - 80


def test_emergency_may_dump_another_presidency_so_no_bankruptcy_yet() -> None:
    g, gt, cy = gt_must_buy()
    ann = player(g, "Ann")
    make_president(g, "CPR", cy)
    give(g, ann, "CPR", 2)  # Ann could take over CPR
    gt.cash, cy.cash = 0, 0
    edited(g)
    assert "bankrupt" not in g.actions_for(gt)
    offered = {(tuple(c["shares"]), c["percent"]) for c in query.choices(g, cy, "sell_shares")}
    assert offered == {(("CPR_0",), 20), (("CPR_0",), 10)}
    g.process(sell(cy, ["CPR_0"], 10))
    assert g.corporations["CPR"].owner is ann and cy.percent_of("CPR") == 10 and cy.cash == 100


def test_bankrupt_president_sells_what_is_allowed_and_pays_the_bank() -> None:
    g, gt, cy = gt_must_buy()
    ann = player(g, "Ann")
    make_president(g, "CPR", cy)
    give(g, ann, "CPR", 2)
    g.market.place("CPR", min((c for row in g.market.rows for c in row if c is not None), key=lambda c: c.price))
    price = g.market.location["CPR"].price
    gt.cash, cy.cash = 10, 20
    edited(g)
    assert 10 + 20 + 2 * price < 80
    assert "bankrupt" in g.actions_for(gt)
    bank = g.bank.cash
    g.process(corp_action("bankrupt", "GT"))
    # The CPR presidency was dumped on Ann; all Cy's cash went to the bank and GT kept its treasury.
    assert g.finished and g.game_end_reason == "bankrupt"
    assert cy.bankrupt and cy.cash == 0 and cy.percent_of("CPR") == 0
    assert g.corporations["CPR"].owner is ann
    assert gt.cash == 10
    assert g.bank.cash == bank + 20  # it paid Cy for the CPR shares and got that back with Cy's $20


def test_bankruptcy_only_from_the_train_step() -> None:
    # 18xx.games sells a bankrupt president's shares only from the train step, so it is declared there.
    g, gt, cy = gt_must_buy(to_train_step=False)
    gt.cash, cy.cash = 0, 0
    edited(g)
    assert "lay_tile" in g.actions_for(gt) and "bankrupt" not in g.actions_for(gt)
    while not isinstance(g.round.active_step(), BuyTrain):
        g.process(corp_action("pass", "GT"))
    assert "bankrupt" in g.actions_for(gt)


def cy_sold_for_a_train_cpr_owns() -> tuple[Game, Corporation, Player, Train]:
    """GT must buy a train; its president Cy, also CPR's president, has sold a CPR share to pay for one.
    CPR owns an $80 train; before the sale GT and Cy had $70."""
    g, gt, cy = gt_must_buy()
    make_president(g, "CPR", cy)
    give(g, cy, "CPR", 1)
    cpr = g.corporations["CPR"]
    train: Train = g.trains.available_depot_trains()[0]
    g.depot.remove(train)
    train.owner = cpr
    cpr.trains.append(train)
    gt.cash, cy.cash = 10, 60  # $10 short of the $80 depot train
    edited(g)
    g.process(sell(cy, ["CPR_1"], 10))
    return g, g.corporations["GT"], player(g, "Cy"), g.all_trains[train.id]


def test_train_from_another_company_after_a_sale_must_need_that_sale() -> None:
    g, gt, cy, train = cy_sold_for_a_train_cpr_owns()
    assert cy.cash == 160
    # Before the sale GT and Cy had $70, so the price must be above $70, and at most the face value $80.
    offered = [c for c in query.choices(g, gt, "buy_train") if c["train"] == train.id]
    assert [c["price"] for c in offered] == [80]
    with pytest.raises(GameError, match=r"\$71 to \$80"):
        g.process(corp_action("buy_train", "GT", train=train.id, price=70))
    gt, cy, cpr, train = g.corporations["GT"], player(g, "Cy"), g.corporations["CPR"], g.all_trains[train.id]
    g.process(corp_action("buy_train", "GT", train=train.id, price=75))
    assert train.owner is gt and gt.cash == 0 and cy.cash == 160 - 65 and cpr.cash == 75


def test_full_train_limit_without_an_affordable_trade_in_skips_the_train_step() -> None:
    g, gt, _ = gt_must_buy()
    g.phase_index = next(i for i, p in enumerate(g.phases) if p["name"] == "6")
    g.depot = [t for t in g.depot if t.name in ("6", "D")]
    for name in ("5", "6"):
        train = next(t for t in g.all_trains.values() if t.name == name and t.owner is None and not t.rusted
                     and t not in g.depot)
        train.owner = gt
        gt.trains.append(train)
    gt.cash = 700  # a 6 costs $630 but there is no room; trading in for a D costs $800
    step = next(s for s in g.round.steps if isinstance(s, BuyTrain))
    assert not step.can_buy(gt)
    gt.cash = 800
    assert step.can_buy(gt)
    assert query.choices(g, gt, "buy_train")


def test_the_walk_never_turns_back_at_a_hex_edge() -> None:
    # From oracle game 1882-p4-random-s2002: CPR's track leaves I5 into the X tile 43 on J6 and loops back
    # to J6 through K5. Coming back in by J6's edge 1, a route cannot turn onto J6's other path there
    # towards H6: that is the way it left. 18xx.games' walk stops there, so H6 is not connected.
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)
    for hex_id, name, rotation in (("I5", "57", 2), ("J6", "43", 0), ("K5", "7", 4), ("H6", "7", 5)):
        tile = next(t for t in g.tile_supply.values() if t.name == name)
        del g.tile_supply[tile.id]
        tile.rotation = rotation
        g.board[hex_id].tile = tile
    g.board["I5"].tile.tokens[0][0] = "XX"
    net = company_network(g.board, "XX")
    assert "H6" not in net.hex_edges and not net.route_possible
    assert net.hex_edges["K5"] == {4, 5} and net.hex_edges["J6"] == {0, 1, 2}
