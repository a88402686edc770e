"""1862 forced train purchases and bankruptcy against the spec (§8.7.4, §10.1) with trains in the bank pool, the
Rocky Mountain Company's timing (D-08) and forced-sale proceeds of unfloated companies; review 1862-rules-turn3
B1-B6. Rules edition 1 keeps the old behaviour for stored games."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.core.errors import GameError
from engine.core.invariants import forced_purchase_problems, liveness_problems
from engine.titles.g1862 import forced_purchase
from engine.titles.g1862.game import G1862

from .g1862_helpers import (
    choices,
    corp_act,
    lay,
    new,
    only_a_pool_three,
    operating_round,
    own_trains,
    player,
    sell_privates,
    start,
)


def _edition(edition: int) -> G1862:
    game = new_game("1862", [(i, f"P{i}") for i in range(1, 5)], seed=1, options={"rules_edition": edition})
    assert isinstance(game, G1862)
    return game


def _strip(g: G1862, pid: int, cash: int, keep: str = "ATS") -> None:
    """Leave player ``pid`` with ``cash`` and only the shares of ``keep``."""
    p = player(g, pid)
    for c in list(p.companies):
        g.shares.close_company(c)
    for s in [s for s in p.shares if s.corp != keep]:
        g.shares.transfer_share(s, g.corporations[s.corp])
    g.bank.cash += p.cash - cash
    p.cash = cash


def _to_buy_step(g: G1862, sym: str = "ATS") -> None:
    operating_round(g)
    while g.round.active_step().name != "Buy trains":  # type: ignore[union-attr]
        corp_act(g, "pass", sym)


def _pool_three_position(edition: int = 2, cash: int = 200) -> G1862:
    """Phase 4: the bank sells 4s at $300, the pool a 3 at $200; ATS has $20 and no train; P1 holds ``cash``."""
    g = new() if edition == 2 else _edition(edition)
    sell_privates(g)
    only_a_pool_three(g)
    start(g, "ATS", 1, cash=100, col=10)
    lay(g, "ATS", "G22", "4", 0)  # St. Louis: river, $80
    _strip(g, 1, cash)
    _to_buy_step(g)
    return g


def test_b1_no_bankruptcy_while_the_pool_train_is_affordable() -> None:
    g = _pool_three_position()
    ats = g.corporations["ATS"]
    assert ats.cash == 20
    assert "bankrupt" not in g.actions_for(ats)
    assert not g.can_go_bankrupt(ats)
    with pytest.raises(GameError):
        corp_act(g, "bankrupt", "ATS")
    ats = g.corporations["ATS"]  # a refused action restores the state in new objects
    assert [(c["train"], c["price"]) for c in choices(g, ats, "buy_train")] == [("3-5", 200)]
    corp_act(g, "buy_train", "ATS", train="3-5", price=200)
    assert player(g, 1).cash == 20 and not player(g, 1).bankrupt


def test_b1_unpaid_rest_is_measured_from_the_pool_train() -> None:
    g = _pool_three_position(cash=100)  # $20 + $100 < $200: bankrupt
    assert g.can_go_bankrupt(g.corporations["ATS"])
    corp_act(g, "bankrupt", "ATS")
    assert g.fixed_scores[1] == -(200 - 20 - 100)


def test_b1_edition_1_still_measures_the_bank_train_only() -> None:
    g = _pool_three_position(edition=1)
    assert "bankrupt" in g.actions_for(g.corporations["ATS"])
    corp_act(g, "bankrupt", "ATS")
    assert g.fixed_scores[1] == -(300 - 20 - 200)


def test_the_playout_invariant_measures_a_bankruptcy_against_the_pool_train_too() -> None:
    """Issue 28: the check made after every playout action (engine.playout, engine.replay) refuses a bankruptcy
    offered while treasury, president and forced sales pay for the pool's 3 ($20 + $200 >= $200), as edition 1
    offered it, and finds nothing wrong with the same position today or with a real shortfall."""
    assert forced_purchase_problems(_pool_three_position()) == []
    assert forced_purchase_problems(_pool_three_position(cash=100)) == []
    old = forced_purchase_problems(_pool_three_position(edition=1))
    assert len(old) == 1 and "ATS may go bankrupt though $220" in old[0] and "(3, $200)" in old[0]


def test_b2_bank_empty_and_pool_unaffordable_leaves_bankruptcy_as_the_way_out() -> None:
    g = new()
    sell_privates(g)
    g.phase_index = 6
    ten = next(t for t in g.depot if t.name == "10")
    g.depot = []
    ten.owner = g.pool
    g.pool_trains.append(ten)
    start(g, "ATS", 1, cash=100, col=10)
    lay(g, "ATS", "G22", "4", 0)
    _strip(g, 1, 0)
    _to_buy_step(g)
    ats = g.corporations["ATS"]
    assert g.must_buy_train(ats)
    assert "bankrupt" in g.actions_for(ats)
    assert liveness_problems(g) == []
    corp_act(g, "bankrupt", "ATS")
    assert player(g, 1).bankrupt and ats.closed
    assert g.fixed_scores[1] == -(1100 - 20)


def test_b3_treasury_alone_pays_when_it_covers_a_pool_train() -> None:
    g = new()
    sell_privates(g)
    only_a_pool_three(g)
    start(g, "ATS", 1, cash=330, col=10)
    start(g, "SP", 1, cash=0, col=8)
    own_trains(g, "SP", "4", "4")
    lay(g, "ATS", "G22", "4", 0)
    _to_buy_step(g)
    ats = g.corporations["ATS"]
    assert ats.cash == 250
    sp_four = g.corporations["SP"].trains[0]
    assert g.round.price_range_for(ats, {"type": "buy_train", "entity": "ATS", "entity_type": "corporation",
                                          "train": sp_four.id, "price": 250}) == (1, 250)
    cash = player(g, 1).cash
    with pytest.raises(GameError):
        corp_act(g, "buy_train", "ATS", train=sp_four.id, price=300)
    ats = g.corporations["ATS"]  # a refused action restores the state in new objects
    assert player(g, 1).cash == cash
    assert not [c for c in choices(g, ats, "buy_train") if c["price"] > 250]
    corp_act(g, "buy_train", "ATS", train="3-5", price=200)
    assert player(g, 1).cash == cash and ats.cash == 50


def test_b4_rocky_mountain_tile_only_before_the_trains_run() -> None:
    g = new()
    sell_privates(g)  # P4 owns RMC and presides NYH (NYSH)
    nyh = g.corporations["NYH"]
    nyh.floated = True
    g.bank.spend(1000, nyh)
    own_trains(g, "NYH", "2")
    lay(g, "NYH", "F31", "X4", 0)
    operating_round(g)
    rmc = g.companies["RMC"]
    while g.round.active_step().name != "Run routes":  # type: ignore[union-attr]
        assert g.actions_for(rmc) == ["lay_tile"]
        corp_act(g, "pass", "NYH")
    assert g.actions_for(rmc) == ["lay_tile"]  # the trains have not run yet
    corp_act(g, "run_routes", "NYH", routes=g.best_routes(nyh))
    assert g.actions_for(rmc) == []
    if g.round.active_step().name == "Pay or withhold dividends":  # type: ignore[union-attr]
        g._checkpoint = None
        g.process({"type": "dividend", "entity": "NYH", "entity_type": "corporation", "kind": "payout"})
    assert g.round.active_step().name == "Buy trains"  # type: ignore[union-attr]
    assert g.actions_for(rmc) == []
    with pytest.raises(GameError):
        g._checkpoint = None
        g.process({"type": "lay_tile", "entity": "RMC", "entity_type": "company", "hex": "G30",
                   "tile": "6-0", "rotation": 0})


def test_b6_unfloated_sale_counts_at_the_price_after_the_drop() -> None:
    g = new()
    sell_privates(g)
    np_ = start(g, "NP", 2, floated=False, col=7)
    cell = g.market.location["NP"]
    share = g.corporations["NP"].shares[0]
    g.shares.transfer_share(share, player(g, 1))
    below = g.market.below("NP")
    assert below.price < cell.price
    assert forced_purchase.sale_proceeds(g, np_, [share]) == below.price
    ats = start(g, "ATS", 1, cash=0, col=10)
    assert g.emergency_liquidity(player(g, 1), ats) >= below.price
    paid = g.sell_shares(player(g, 1), [share], share.percent)
    assert paid == below.price


def test_b6_edition_1_counts_the_price_before_the_drop() -> None:
    g = _edition(1)
    sell_privates(g)
    np_ = start(g, "NP", 2, floated=False, col=7)
    share = g.corporations["NP"].shares[0]
    assert forced_purchase.sale_proceeds(g, np_, [share]) == g.market.location["NP"].price


def test_b1_seven_player_seed_3_has_no_avoidable_bankruptcy() -> None:
    """The review's game (7 players, seed 3, random): bankruptcy at action 429 was offered with a pool 3 at $200
    affordable; now every bankruptcy the playout offers is checked against the cheapest bank or pool train."""
    from engine.playout import random_playout
    result = random_playout("1862", 7, 3, max_actions=440, policy="random")
    assert result.problems == [], result.problems
    game = result.game
    assert isinstance(game, G1862)
    assert game.rules_edition >= 2  # the edition that measures against bank and pool, or later
