"""1882 rules through Game.process: auction, errors with stable codes, undo/redo, stock rules."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.core import query
from engine.core.errors import ErrorCode, GameError
from engine.core.game import Game


def player_action(kind: str, pid: int, **fields: object) -> dict[str, object]:
    return {"type": kind, "entity": pid, "entity_type": "player", **fields}


def three_players() -> Game:
    return new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)


def test_waterfall_auction_buys_cheapest_and_resolves_bids() -> None:
    g = three_players()
    g.process(player_action("bid", 1, company="SC", price=55))  # bid on a non-cheapest private
    g.process(player_action("bid", 2, company="HB", price=20))  # cheapest: bought at once
    assert g.companies["HB"].owner is g.players[1]
    # SC had a single bid, so it is resolved as soon as it became the cheapest.
    assert g.companies["SC"].owner is g.players[0]
    assert g.players[0].cash == 600 - 55 and g.players[1].cash == 600 - 20


def test_bid_errors_have_stable_codes_and_leave_state_unchanged() -> None:
    g = three_players()
    cash = [p.cash for p in g.players]
    with pytest.raises(GameError) as err:
        g.process(player_action("bid", 2, company="HB", price=20))
    assert err.value.code is ErrorCode.NOT_YOUR_TURN
    assert "Ann" in err.value.message
    with pytest.raises(GameError) as err:
        g.process(player_action("bid", 1, company="TB", price=141))
    assert err.value.code is ErrorCode.ILLEGAL
    with pytest.raises(GameError) as err:
        g.process(player_action("bid", 1, company="CP", price=700))
    assert err.value.code is ErrorCode.INSUFFICIENT_FUNDS
    with pytest.raises(GameError) as err:
        g.process(player_action("bid", 1, company="XX", price=10))
    assert err.value.code is ErrorCode.MALFORMED
    with pytest.raises(GameError) as err:
        g.process({"type": "fly", "entity": 1})
    assert err.value.code is ErrorCode.MALFORMED
    assert [p.cash for p in g.players] == cash
    assert g.raw_actions == []


def test_everyone_passing_lowers_the_cheapest_private() -> None:
    g = three_players()
    for pid in (1, 2, 3):
        g.process(player_action("pass", pid))
    assert g.companies["HB"].min_bid == 15


def test_undo_and_redo_are_log_entries() -> None:
    g = three_players()
    g.process(player_action("bid", 1, company="HB", price=20))
    assert g.companies["HB"].owner is not None
    g.process(player_action("undo", 2))
    assert g.companies["HB"].owner is None and len(g.raw_actions) == 2
    g.process(player_action("redo", 2))
    assert g.companies["HB"].owner is g.players[0]
    with pytest.raises(GameError) as err:
        g.process(player_action("redo", 2))
    assert err.value.code is ErrorCode.NOTHING_TO_UNDO


def finish_auction(g: Game) -> None:
    """Buy every private at its price in seat order, setting CPR's par when asked."""
    while g.round.kind == "auction":
        ent = g.acting()[0]
        acts = g.actions_for(ent)
        if "par" in acts:
            g.process(query.choices(g, ent, "par")[-1])
            continue
        bids = [c for c in query.choices(g, ent, "bid") if c["company"] == g.round.steps[1].companies[0].sym]
        g.process(bids[0] if bids else query.choices(g, ent, "pass")[0])


def test_cp_brings_the_cpr_presidency_and_tb_a_share() -> None:
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Di")], seed=5585)
    finish_auction(g)
    cp_owner = g.companies["CP"].owner
    assert g.corporations["CPR"].owner is cp_owner
    assert cp_owner.percent_of("CPR") == 20
    tb_owner = g.companies["TB"].owner
    assert any(s.id.endswith("_1") and not s.president for s in tb_owner.shares)
    assert g.round.kind == "stock"


def test_first_stock_round_forbids_selling_and_checks_par_prices() -> None:
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Di")], seed=5585)
    finish_auction(g)
    ent = g.acting()[0]
    assert "sell_shares" not in g.actions_for(ent)
    with pytest.raises(GameError) as err:
        g.process(player_action("par", ent.id, corporation="GT", share_price="112,0,4"))
    assert err.value.code is ErrorCode.ILLEGAL
    assert "par" in err.value.message
    pars = query.choices(g, ent, "par")
    assert {p["share_price"].split(",")[0] for p in pars} <= {"67", "71", "76", "82", "90", "100"}


def second_stock_round(holdings: dict[int, int], pool: int, corp: str = "GT") -> Game:
    """Ann's turn in a stock round in which selling is allowed, with ``corp`` at $100 held as given.

    ``holdings`` maps player id to percent; the first listed is the president. ``pool`` is the pool's percent.
    """
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)
    finish_auction(g)
    g.turn = 2
    c = g.corporations[corp]
    g.shares.set_par(c, g.market.cell(0, 3))
    c.floated = True
    plain = [s for s in c.shares if not s.president]
    for n, (pid, percent) in enumerate(holdings.items()):
        player = g.player_by_id(pid)
        if n == 0:
            g.shares.transfer_share(c.shares[0], player)
            c.owner = player
            percent -= 20
        for _ in range(percent // 10):
            g.shares.transfer_share(plain.pop(0), player)
    for _ in range(pool // 10):
        g.shares.transfer_share(plain.pop(0), g.pool)
    g.round.entity_index = g.round.entities.index(g.player_by_id(1))  # Ann's turn
    for step in g.round.steps:
        step.passed = False
        step.setup()
    g._checkpoint = None  # a refused action must restore this state, not the one before the edits
    return g


def test_part_of_the_presidents_certificate_can_be_sold_when_the_whole_would_overfill_the_pool() -> None:
    g = second_stock_round({1: 20, 2: 20}, pool=40)
    ann, bob = g.player_by_id(1), g.player_by_id(2)
    assert g.acting() == [ann]
    sales = [c for c in query.choices(g, ann, "sell_shares") if c["shares"][0].startswith("GT")]
    assert [(c["shares"], c["percent"]) for c in sales] == [(["GT_0"], 10)]  # 20% would make the pool 60%
    cash = ann.cash
    g.process(sales[0])
    gt = g.corporations["GT"]
    assert gt.owner is bob and any(s.president for s in bob.shares_of("GT"))
    assert bob.percent_of("GT") == 20
    assert ann.percent_of("GT") == 10 and not any(s.president for s in ann.shares)
    assert g.pool.percent_of("GT") == 50
    assert ann.cash == cash + 100
    assert g.market.location["GT"].price == 90  # one row down: one share's worth sold


def test_a_player_may_sell_a_company_again_in_the_same_turn() -> None:
    # As in a recorded game: ordinary shares first, then half of the president's certificate.
    g = second_stock_round({1: 30, 2: 20}, pool=20)
    ann, bob = g.player_by_id(1), g.player_by_id(2)
    g.process(player_action("sell_shares", 1, shares=["GT_1"], percent=10))
    assert g.acting() == [ann]
    later = [(c["shares"], c["percent"]) for c in query.choices(g, ann, "sell_shares")]
    assert (["GT_0"], 10) in later and (["GT_0"], 20) in later
    g.process(player_action("sell_shares", 1, shares=["GT_0"], percent=10))
    assert g.corporations["GT"].owner is bob
    assert ann.percent_of("GT") == 10 and g.pool.percent_of("GT") == 40


def test_a_sale_of_the_presidents_certificate_must_take_every_certificate_with_it() -> None:
    g = second_stock_round({1: 30, 2: 20}, pool=0)
    with pytest.raises(GameError) as err:  # keeping an ordinary share back while selling into the president's
        g.process(player_action("sell_shares", 1, shares=["GT_0"], percent=10))
    assert err.value.code is ErrorCode.ILLEGAL
    with pytest.raises(GameError):  # more kept back than the president's certificate holds
        g.process(player_action("sell_shares", 1, shares=["GT_0", "GT_1"], percent=10))
    g.process(player_action("sell_shares", 1, shares=["GT_1", "GT_0"], percent=20))
    ann, bob = g.player_by_id(1), g.player_by_id(2)
    assert g.corporations["GT"].owner is bob
    assert ann.percent_of("GT") == 10 and bob.percent_of("GT") == 20 and g.pool.percent_of("GT") == 20


def test_over_the_certificate_limit_with_nothing_sellable_the_player_is_not_held_to_selling() -> None:
    g = second_stock_round({1: 20}, pool=0)
    g.turn = 1  # no sales in the first stock round
    ann = g.player_by_id(1)
    g.cert_limit = 0
    # Not a forced sale with no sale to choose (a stall): nothing to do, so the turn is skipped.
    assert g.actions_for(ann) == []


def test_the_stock_market_end_is_latched_when_reached() -> None:
    g = second_stock_round({1: 20}, pool=0)
    g.market.place("GT", g.market.cell(0, 15))
    g.market.down("GT")
    assert not g.market.location["GT"].end
    assert g.game_end_timing() == ("stock_market", "current_round")
