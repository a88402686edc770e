"""1822 rules checked against 18xx.games' behaviour: the bank's end, the tax haven (P16)."""

from __future__ import annotations

import copy
import functools
import pickle
from typing import Any

import pytest

from engine.core import actions as act
from engine.core import query
from engine.core.entities import Player
from engine.core.errors import ErrorCode, GameError
from engine.importer import read_game_file
from engine.titles import title_class
from engine.titles.g1822.game import G1822
from engine.titles.g1822.privates import purchasable_companies
from engine.titles.g1822.share_issues import redeem_shares
from engine.titles.g1822.stations import remove_station
from engine.titles.g1822.tax_haven import tax_haven_choices, tax_haven_spender, tax_haven_value
from tests.conftest import recorded_games

PLUS_GAME = next((p for p in recorded_games("1822") if p.stem == "33845"), None)


@functools.cache
def _pickled_until(action_id: int) -> tuple[bytes, int]:
    assert PLUS_GAME is not None
    gf = read_game_file(PLUS_GAME)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    standing = act.filter_undo(gf.actions)
    done = 0
    for action in standing:
        if int(action["id"]) >= action_id:
            break
        game._apply(action)
        done += 1
    return pickle.dumps(game), done


def recorded_until(action_id: int) -> tuple[G1822, list[dict[str, Any]]]:
    """The recorded 1822+ game with its standing actions before ``action_id`` applied, and the rest (a fresh
    copy each time: tests change it)."""
    if PLUS_GAME is None:
        pytest.skip("the recorded 1822+ game is absent")
    data, done = _pickled_until(action_id)
    game = pickle.loads(data)
    assert isinstance(game, G1822)
    return game, act.filter_undo(read_game_file(PLUS_GAME).actions)[done:]


def play_on(game: G1822, rest: list[dict[str, Any]], until_id: int | None = None) -> int:
    """Apply (and take off ``rest``) the recorded actions until the game ends or ``until_id`` is next; the
    last id applied."""
    last = 0
    while rest and not game.finished and (until_id is None or int(rest[0]["id"]) < until_id):
        action = rest.pop(0)
        game._apply(action)
        last = int(action["id"])
    return last


# ---------------------------------------------------------------------------------------------- the bank's end
# OR 10.1 of the recorded game runs from action 1577 to NER's pass after its dividend (1642); OR 10.2 ends
# with NER's pass at 1691.

def test_a_bank_paid_down_to_nothing_is_not_broken() -> None:
    game, rest = recorded_until(1582)  # LNWR's payout, the first dividend of OR 10.1
    before = game.bank.cash
    play_on(game, rest, 1583)
    paid = before - game.bank.cash
    assert paid > 0

    game, rest = recorded_until(1582)
    game.bank.cash = paid
    play_on(game, rest, 1583)
    assert game.bank.cash == 0 and not game.bank.broken
    assert game.game_end_timing() is None


def test_a_bank_broken_in_an_operating_round_pays_in_full_and_ends_after_the_set() -> None:
    game, rest = recorded_until(1582)
    game.bank.cash = 10
    lnwr = game.corporation("LNWR")
    holders_before = sum(p.cash for p in game.players) + lnwr.cash
    play_on(game, rest, 1583)
    assert game.bank.broken and game.bank.cash < 0
    assert sum(p.cash for p in game.players) + lnwr.cash - holders_before == 10 - game.bank.cash
    last = play_on(game, rest, 1643)
    assert last == 1642 and not game.finished  # OR 10.1 is over; the set has OR 10.2 still to run
    assert (game.round.kind, game.round.number) == ("operating", 2)
    assert play_on(game, rest) == 1691
    assert game.finished and game.game_end_reason == "bank"


def test_the_bank_and_the_market_end_met_in_one_payout_end_the_game_by_the_bank_after_the_set() -> None:
    game, rest = recorded_until(1582)
    game.bank.cash = 10
    game.market.end_reached = True  # a price reached an end cell in this payout too
    play_on(game, rest, 1583)
    assert game.end_latch.first is not None and game.end_latch.first.reason == "bank"
    assert play_on(game, rest, 1643) == 1642 and not game.finished  # the set goes on
    assert play_on(game, rest) == 1691 and game.game_end_reason == "bank"


def test_a_bank_broken_in_a_stock_round_ends_the_game_after_the_next_operating_round() -> None:
    game, rest = recorded_until(1571)  # the stock round of turn 10
    assert game.round.kind == "stock"
    game.bank.withdraw(game.bank.cash + 1)
    assert game.bank.broken
    assert play_on(game, rest) == 1642  # the end of OR 10.1, not of the set
    assert game.finished and game.game_end_reason == "bank"


# ---------------------------------------------------------------------------------------------- P16, the tax haven
# In the recorded game Player 2 (id 4767) owns P16 from the third stock round on and never uses it. At 1030, in
# stock round 7, they buy MR_8 from MR's treasury; at 1159, in stock round 8, CR_6.
P16_OWNER = 4767


def p16_buy(game: G1822, choice: str) -> None:
    game.process({"type": "choose_ability", "entity": "P16", "entity_type": "company", "choice": choice})


def test_the_tax_haven_buys_a_share_for_its_owner_instead_of_a_stock_action() -> None:
    game, _ = recorded_until(1030)
    p16 = game.companies["P16"]
    owner = game.player_by_id(P16_OWNER)
    assert p16.owner is owner and game.round.entity() is owner
    choices = [a["choice"] for a in game.round.choices_for(p16, "choose_ability")]
    assert "MR_ipo" in choices and all(c.endswith(("_ipo", "_market")) for c in choices)
    mr = game.corporation("MR")
    price = game.market.location["MR"].price
    cash, mr_cash, percent, certs = owner.cash, mr.cash, owner.percent_of("MR"), game.num_certs(owner)
    value = game.player_value(owner)

    p16_buy(game, "MR_ipo")
    assert [s.id for s in game.tax_haven.shares] == ["MR_8"]
    assert owner.cash == cash - price and mr.cash == mr_cash + price
    # Not the owner's share: no holding, certificate or directorship counts it; their worth includes it.
    assert owner.percent_of("MR") == percent and game.num_certs(owner) == certs
    assert game.player_value(owner) == value
    assert game.round.entity() is not owner and not owner.passed  # it ended the turn like a purchase


def test_the_tax_haven_buys_one_share_in_the_game_and_is_offered_only_in_its_owners_turn() -> None:
    game, rest = recorded_until(1030)
    p16 = game.companies["P16"]
    p16_buy(game, "MR_ipo")
    with pytest.raises(GameError) as refused:
        p16_buy(game, "LBSCR_ipo")
    assert refused.value.code is ErrorCode.NOT_YOUR_TURN
    play_on(game, rest[1:], 1159)  # the owner's turn in the next stock round
    assert game.round.entity() is game.player_by_id(P16_OWNER)
    assert game.actions_for(p16) == []
    with pytest.raises(GameError) as refused:
        p16_buy(game, "CR_ipo")
    assert refused.value.code is ErrorCode.ILLEGAL and "P16" in refused.value.message


def test_oracle_playouts_leave_out_the_tax_haven_buying_lnwr_which_players_may_still_do() -> None:
    # LNWR's director's certificate is one share: 18xx.games cannot go on once such a director must sell it to
    # the tax haven's benefit (docs/conformance.md), so the oracle's playouts do not make this purchase.
    game, _ = recorded_until(1030)
    p16 = game.companies["P16"]
    share = next(s for p in game.players for s in p.shares if s.corp == "LNWR" and not s.president)
    game.shares.transfer_share(share, game.pool)
    game.bank.spend(300, game.player_by_id(P16_OWNER))  # enough for LNWR at £200
    offered = [a["choice"] for a in game.round.choices_for(p16, "choose_ability")]
    assert "LNWR_market" in offered and "MR_ipo" in offered
    assert [a["choice"] for a in query.reference_choices(game, p16)] == [c for c in offered if c != "LNWR_market"]
    p16_buy(game, "LNWR_market")
    assert [s.corp for s in game.tax_haven.shares] == ["LNWR"]


def test_dividends_on_the_tax_havens_share_go_onto_its_charter() -> None:
    plain, plain_rest = recorded_until(1030)
    game, rest = recorded_until(1030)
    p16_buy(game, "MR_ipo")
    rest.pop(0)
    plain._apply(plain_rest.pop(0))  # the owner buys MR_8 themselves
    owner, plain_owner = game.player_by_id(P16_OWNER), plain.player_by_id(P16_OWNER)
    mr_payouts = [a["id"] for a in rest if a["type"] == "dividend" and a["entity"] == "MR"]
    until = mr_payouts[0] + 1
    play_on(game, rest, until)
    play_on(plain, plain_rest, until)
    assert game.tax_haven.cash > 0
    assert plain_owner.cash - owner.cash == game.tax_haven.cash
    # Its worth is the owner's: with the share at its price, as if they held it.
    assert game.player_value(owner) == plain.player_value(plain_owner)
    assert tax_haven_value(game) == game.tax_haven.cash + game.market.location["MR"].price


def test_the_tax_haven_is_worth_nothing_to_a_player_who_does_not_own_p16() -> None:
    game, _ = recorded_until(1030)
    p16_buy(game, "MR_ipo")
    owner = game.player_by_id(P16_OWNER)
    other = next(p for p in game.players if p is not owner)
    with_it = game.player_value(owner)
    game.companies["P16"].owner = other
    assert game.player_value(owner) == with_it - tax_haven_value(game)
    assert game.result()[str(other.id)] == game.player_value(other)


def test_p16_cannot_be_acquired_by_a_company() -> None:
    game, _ = recorded_until(1030)
    assert all(c.sym != "P16" for corp in game.corporations.values() for c in purchasable_companies(game, corp))


def test_a_share_in_the_tax_haven_counts_for_a_sold_out_company() -> None:
    game, _ = recorded_until(1030)
    mr = game.corporation("MR")
    owner = game.player_by_id(P16_OWNER)
    p16_buy(game, "MR_ipo")
    for share in [*mr.shares_of("MR"), *game.pool.shares_of("MR")]:
        game.shares.transfer_share(share, owner)
    assert sum(p.percent_of("MR") for p in game.players) == 90
    before = game.market.location["MR"]
    game.finish_stock_round()
    assert game.market.location["MR"] is not before


def test_under_the_variant_the_tax_haven_buys_a_share_a_round_with_its_own_cash() -> None:
    if PLUS_GAME is None:
        pytest.skip("the recorded 1822+ game is absent")
    gf = read_game_file(PLUS_GAME)
    game = title_class(gf.title)(gf.players, gf.seed, {"optional_rules": [*gf.options["optional_rules"],
                                                                            "tax_haven_multiple"]})
    assert isinstance(game, G1822)
    rest = act.filter_undo(gf.actions)
    play_on(game, rest, 1030)
    rest.pop(0)
    p16_buy(game, "MR_ipo")
    play_on(game, rest, 1159)
    owner = game.player_by_id(P16_OWNER)
    assert tax_haven_spender(game) is game.tax_haven
    p16 = game.companies["P16"]
    affordable = {c for c in tax_haven_choices(game, 10_000)
                  if game.market.location[c.rpartition("_")[0]].price <= game.tax_haven.cash}
    assert {a["choice"] for a in game.round.choices_for(p16, "choose_ability")} == affordable
    game.bank.spend(200, game.tax_haven)  # enough for one more share
    choices = [a["choice"] for a in game.round.choices_for(p16, "choose_ability")]
    assert choices and not any(c.startswith("MR_") for c in choices)  # one share of a company at most
    cash, haven = owner.cash, game.tax_haven.cash
    corp = choices[0].rpartition("_")[0]
    p16_buy(game, choices[0])
    assert owner.cash == cash and game.tax_haven.cash == haven - game.market.location[corp].price
    assert sorted(s.corp for s in game.tax_haven.shares) == sorted(["MR", corp])


def lnwr_president_of_one_share(in_tax_haven: bool) -> tuple[G1822, dict[str, Any]]:
    """Stock round 7 in the recorded game, P16's owner (in turn) LNWR's president with its 10% certificate
    alone, Player 4 holding 10%, and the tax haven 10% or nothing; and the sale of the president's certificate."""
    game, _ = recorded_until(1030)
    seller, other = game.player_by_id(P16_OWNER), game.player_by_id(1739)
    lnwr = game.corporation("LNWR")
    for holder in game.players:
        for share in holder.shares_of("LNWR"):
            game.shares.transfer_share(share, lnwr)
    game.shares.transfer_share(game.share_by_id("LNWR_0"), seller)
    game.shares.transfer_share(game.share_by_id("LNWR_2"), other)
    if in_tax_haven:
        game.shares.transfer_share(game.share_by_id("LNWR_3"), game.tax_haven)
    lnwr.owner = seller
    return game, {"type": "sell_shares", "entity": P16_OWNER, "entity_type": "player", "shares": ["LNWR_0"],
                  "percent": 10}


def test_no_sale_passes_a_presidency_while_the_tax_haven_ties_for_the_largest_holding() -> None:
    # 18xx.games counts the tax haven among the holders a presidency may pass to, then fails on its seat: the
    # sale does not exist there. LNWR's president's certificate is one share, so the tax haven's 10% can tie.
    game, sale = lnwr_president_of_one_share(in_tax_haven=True)
    seller = game.player_by_id(P16_OWNER)
    assert not any(a["shares"] == ["LNWR_0"] for a in game.round.choices_for(seller, "sell_shares"))
    with pytest.raises(GameError) as refused:
        game.process(sale)
    assert refused.value.code is ErrorCode.ILLEGAL

    game, sale = lnwr_president_of_one_share(in_tax_haven=False)  # then the presidency passes to Player 4
    seller = game.player_by_id(P16_OWNER)
    assert any(a["shares"] == ["LNWR_0"] for a in game.round.choices_for(seller, "sell_shares"))
    game.process(sale)
    assert game.corporation("LNWR").owner is game.player_by_id(1739)


def test_p16_shows_what_its_tax_haven_holds() -> None:
    from engine.core.statusbuild import status_view

    game, _ = recorded_until(1030)
    p16_buy(game, "MR_ipo")
    shown = next(c for c in status_view(game).companies if c.sym == "P16")
    assert shown.value == game.market.location["MR"].price == tax_haven_value(game)


# ---------------------------------------------------------------------------------------------- minor 14
def test_minor_14_from_a_bid_box_leaves_a_london_station_only_to_a_major_that_can_pay_for_it() -> None:
    # Bought from a bid box (£200), minor 14 leaves the major a station in a London city its track reaches, for
    # £20 more; 18xx.games takes "replace" without the £20 and then waits for a station that cannot be paid.
    from engine.titles.g1822.steps import MinorAcquisition

    game, _ = recorded_until(1582)  # LNWR's turn; its track reaches London's other cities
    lnwr = game.corporation("LNWR")
    step = next(s for s in game.round.steps if isinstance(s, MinorAcquisition))
    step.minor = game.corporation("14")
    step.minor.floated = False  # as if still in its bid box
    assert step.london_city_free(lnwr) and game.exchange_tokens["LNWR"] > 0
    lnwr.cash = 219
    assert step.token_choices(lnwr) == ["exchange"]
    lnwr.cash = 220
    assert step.token_choices(lnwr) == ["replace", "exchange"]


# ---------------------------------------------------------------------------------------------- trains
def test_with_its_presidents_money_a_company_buys_the_next_new_train_not_a_pool_train_of_its_price() -> None:
    # 18xx.games: the cheapest train on sale is the first of the lowest price, new trains listed before the
    # pool's; with the president's money only that type may be bought (here the 5, not a discarded 5P).
    game, _ = recorded_until(1100)  # phase 5: the depot sells 5-1 for £500, the pool two 3 trains for £200
    assert game.trains.emergency_train_names() == {"3"}
    for train in game.pool_trains:
        train.owner = None  # out of the game, for this test
    p5 = game.all_trains["5P-0"]
    p5.owner = game.pool
    game.pool_trains[:] = [p5]
    assert p5.price == game.all_trains["5-1"].price == 500
    assert game.trains.emergency_train_names() == {"5"}
    cr = game.corporation("CR")
    assert cr.cash < 500 and cr.trains_in_limit() < game.train_limit(cr)
    with pytest.raises(GameError) as refused:
        game.trains.buy_train_action(cr, p5, 500, exchange=None, must_buy=True)
    assert refused.value.code is ErrorCode.ILLEGAL and "5" in refused.value.message
    game.trains.buy_train_action(cr, game.all_trains["5-1"], 500, exchange=None, must_buy=True)
    assert game.all_trains["5-1"].owner is cr


def test_a_station_replacing_a_bid_box_minor_takes_its_reserved_space() -> None:
    # CR buys minor 10 from its bid box (phase 5) and replaces it: I30's only free space is the one minor 10's
    # home held, and CR's station goes there, without an extra space (18xx.games releases the reservation first).
    game, rest = recorded_until(1236)
    assert game.board.hexes["I30"].tile.tokens[0] == [None, "MR", "NBR", "LNWR"]
    assert play_on(game, rest, 1239) == 1238  # merge 10, pay in money, replace
    assert game.board.hexes["I30"].tile.tokens[0] == ["CR", "MR", "NBR", "LNWR"]


def test_a_private_laying_its_tiles_together_holds_the_rest_of_the_turn() -> None:
    # P21's two bridge lays (and P12's) are made together once begun. 18xx.games skips none of the company's
    # later steps meanwhile: a minor without a train withholds (and its price falls) only once the private is done.
    from engine.titles.g1822.steps import SpecialTrack, Track1822

    def minor_between_lays(laying: bool) -> int:
        game, _ = recorded_until(196)  # minor 21's track step, in OR 2.1
        minor = game.corporation("21")
        for train in list(minor.trains):
            minor.trains.remove(train)
            train.owner = None  # for this test, a minor without a train
        steps = game.round.steps
        next(s for s in steps if isinstance(s, Track1822)).pass_()  # its own lay is used
        if laying:
            next(s for s in steps if isinstance(s, SpecialTrack)).company = game.companies["P21"]
        game.round.skip_steps()
        return game.market.location["21"].price

    assert minor_between_lays(laying=True) == 50  # no dividend yet
    assert minor_between_lays(laying=False) < 50  # without the private it withholds at once


def test_a_company_whose_own_lay_joins_two_stops_is_remembered_to_have_a_route_even_without_a_train() -> None:
    # 18xx.games walks a company's track as it lays, and remembers for good that it joined two stops: once it
    # has a train it must run (nothing, if that track is gone by then) and its price falls.
    game, rest = recorded_until(200)  # minor 23's lay in OR 2.1 joins its home to a second stop
    minor = game.corporation("23")
    for train in list(minor.trains):
        minor.trains.remove(train)
        train.owner = None  # for this test, a minor without a train
    assert not game.track.network(minor).route_possible and "23" not in game.routes_seen
    play_on(game, rest, 201)
    assert "23" in game.routes_seen


def p16_owner_with_only_the_lnwr_tie(*, cash: int, debt: int) -> tuple[G1822, Player]:
    """P16's owner holding nothing but LNWR's one-share presidency, tied with the tax haven, and P16 itself."""
    game, _ = lnwr_president_of_one_share(in_tax_haven=True)
    seller = game.player_by_id(P16_OWNER)
    for share in list(seller.shares):
        if share.corp != "LNWR":
            game.shares.transfer_share(share, game.pool)
    seller.companies[:] = [c for c in seller.companies if c.sym == "P16"]
    seller.cash, seller.debt = cash, debt
    return game, seller


def test_a_player_whose_only_sale_is_that_one_is_left_a_pass_as_on_18xx_games() -> None:
    # 18xx.games lists that sale (then fails on it), so the turn of a player with nothing else to do stays open
    # for a pass instead of being skipped.
    game, seller = p16_owner_with_only_the_lnwr_tie(cash=0, debt=100)  # no buying, bidding or repaying
    assert game.actions_for(seller) == ["pass"]


# ---------------------------------------------------------------------------------------------- player loans
def test_a_repayment_is_an_action_within_the_turn_not_a_turn_of_its_own() -> None:
    # 18xx.games (G1822 BuySellParShares#process_payoff_player_debt) neither passes nor ends the turn: the
    # repayment is one of the turn's actions, so the player acts on while anything is listed, and a pass after
    # it does not count as a pass (the turn had an action). With nothing left to do, the turn moves on and the
    # player is not marked passed; their next turn is then skipped, which passes them.
    game = G1822([(1, "P1"), (2, "P2"), (3, "P3")], 11, {"optional_rules": []})
    p1, p2 = game.players[:2]
    p1.debt = 30
    game.process({"type": "payoff_player_debt", "entity": 1, "entity_type": "player"})
    assert p1.debt == 0 and game.acting() == [p1] and "bid" in game.actions_for(p1)
    game.process({"type": "pass", "entity": 1, "entity_type": "player"})
    assert game.acting() == [p2] and not p1.passed

    game = G1822([(1, "P1"), (2, "P2"), (3, "P3")], 11, {"optional_rules": []})
    p1, p2, p3 = game.players
    p1.cash, p1.debt = 20, 30  # all the cash repays part of the loan: no sale, bid or repayment is left
    game.process({"type": "payoff_player_debt", "entity": 1, "entity_type": "player"})
    assert (p1.cash, p1.debt) == (0, 10)
    assert game.acting() == [p2] and not p1.passed
    bid = game.round.choices_for(p2, "bid")[0]
    game.process(bid)  # so that the stock round is not the first with nothing sold
    game.process({"type": "pass", "entity": 2, "entity_type": "player"})
    game.process({"type": "pass", "entity": 3, "entity_type": "player"})
    assert game.acting() == [p2] and p1.passed and p3.passed  # P1's turn was skipped, and that passed them


def test_a_repayment_of_all_the_cash_leaves_the_turn_open_when_only_the_tax_haven_tie_is_listed() -> None:
    # Oracle 1822 random s87039 (five players), action 798, and s87050 (four players), action 1535, before the
    # tie's pass: P16's owner repays with all their cash, and 18xx.games still lists their LNWR sale, so the turn
    # waits for their pass.
    game, seller = p16_owner_with_only_the_lnwr_tie(cash=30, debt=100)
    game.process({"type": "payoff_player_debt", "entity": P16_OWNER, "entity_type": "player"})
    seller = game.player_by_id(P16_OWNER)
    assert (seller.cash, seller.debt) == (0, 70)
    assert game.acting() == [seller] and game.actions_for(seller) == ["pass"]


def test_p21_needs_a_station_in_hull_or_grimsby_and_comes_before_the_companys_own_lays() -> None:
    game, rest = recorded_until(1125)  # MR's track step; MR owns P21 and has no station in N21 or N23
    mr, p21 = game.corporation("MR"), game.companies["P21"]
    assert p21.owner is mr and type(game.round.active_step()).__name__ == "Track1822"
    assert game.actions_for(p21) == []
    token = next(t for t in mr.tokens if not t.used)
    game.board.hexes["N23"].tile.tokens[0][0] = "MR"  # for this test, a station in Grimsby
    token.used, token.hex, token.node, token.slot = True, "N23", 0, 0
    game.track.board_changed()
    assert game.actions_for(p21) == ["lay_tile"]
    play_on(game, rest, 1126)  # MR lays its own first tile
    assert type(game.round.active_step()).__name__ == "Track1822" and game.actions_for(p21) == []


def test_a_seller_who_still_holds_the_most_becomes_president_without_the_certificate() -> None:
    # Reached on 18xx.games when shares change hands without a presidency check (a minor's acquisition paid in
    # shares): Player 2 holds 30% of LNWR, Player 4 is president with its 10% certificate. Player 2 sells 10% and
    # becomes president, but 18xx.games has nobody to swap the certificate with: Player 4 keeps it.
    game, _ = recorded_until(1030)  # Player 2's stock turn
    seller, president = game.player_by_id(P16_OWNER), game.player_by_id(1739)
    lnwr = game.corporation("LNWR")
    for holder in game.players:
        for share in holder.shares_of("LNWR"):
            game.shares.transfer_share(share, lnwr)
    game.shares.transfer_share(game.share_by_id("LNWR_0"), president)
    for sid in ("LNWR_1", "LNWR_2", "LNWR_3"):
        game.shares.transfer_share(game.share_by_id(sid), seller)
    lnwr.owner = president
    game.process({"type": "sell_shares", "entity": P16_OWNER, "entity_type": "player", "shares": ["LNWR_1"],
                  "percent": 10})
    seller, president = game.player_by_id(P16_OWNER), game.player_by_id(1739)
    assert game.corporation("LNWR").owner is seller
    assert [s.id for s in president.shares_of("LNWR")] == ["LNWR_0"]
    assert sorted(s.id for s in seller.shares_of("LNWR")) == ["LNWR_2", "LNWR_3"]


def test_half_a_directors_certificate_held_without_the_directorship_sells_as_usual_but_not_in_playouts() -> None:
    # As above, a player may hold a director's certificate without directing the company. Selling half of it,
    # they get the other share back from the market as for any director's certificate sold in part; 18xx.games
    # moves the whole certificate and pays for one share (docs/conformance.md), so playouts leave the sale out.
    game, _ = recorded_until(1030)  # Player 2's stock turn
    seller, director = game.player_by_id(P16_OWNER), game.player_by_id(1739)
    mr = game.corporation("MR")
    for holder in [*game.players, game.pool]:
        for share in holder.shares_of("MR"):
            game.shares.transfer_share(share, mr)
    game.shares.transfer_share(game.share_by_id("MR_0"), seller)
    for sid in ("MR_1", "MR_2", "MR_3"):
        game.shares.transfer_share(game.share_by_id(sid), director)
    game.shares.transfer_share(game.share_by_id("MR_4"), game.pool)
    mr.owner = director
    half = {"type": "sell_shares", "entity": P16_OWNER, "entity_type": "player", "shares": ["MR_0"], "percent": 10}
    whole = {**half, "percent": 20}
    offered = [{k: a[k] for k in half} for a in game.round.choices_for(seller, "sell_shares")]
    assert half in offered and whole in offered
    reference = [{k: a[k] for k in half} for a in query.reference_choices(game, seller) if a["type"] == "sell_shares"]
    assert whole in reference and half not in reference
    cash, price = seller.cash, game.market.location["MR"].price
    game.process(half)
    seller = game.player_by_id(P16_OWNER)
    assert game.corporation("MR").owner is game.player_by_id(1739)
    assert [s.id for s in seller.shares_of("MR")] == ["MR_4"]
    assert sorted(s.id for s in game.pool.shares_of("MR")) == ["MR_0"]
    assert seller.cash - cash == price  # one share's worth


def test_a_presidency_passes_without_the_certificate_when_the_company_holds_it() -> None:
    # LNWR's 10% certificate sits in its own treasury (it redeemed it from the market); when a redemption leaves
    # Player 4 the largest holder, the presidency passes to them and the certificate stays with LNWR.
    game, _ = recorded_until(1030)
    outgoing, holder = game.player_by_id(P16_OWNER), game.player_by_id(1739)
    lnwr = game.corporation("LNWR")
    for h in game.players:
        for share in h.shares_of("LNWR"):
            game.shares.transfer_share(share, lnwr)
    game.shares.transfer_share(game.share_by_id("LNWR_4"), holder)
    game.shares.transfer_share(game.share_by_id("LNWR_3"), game.pool)
    lnwr.owner = outgoing
    redeem_shares(game, lnwr, [game.share_by_id("LNWR_3")])
    assert lnwr.owner is holder
    assert game.share_by_id("LNWR_0").owner is lnwr and [s.id for s in holder.shares_of("LNWR")] == ["LNWR_4"]


# ------------------------------------------------------------------------- P5's English Channel upgrade
def nbr_with_p5_and_a_full_green_channel() -> tuple[G1822, Any, Any]:
    """NBR at the start of its track step in phase 5 (brown tiles out), owning P5, the English Channel green
    and its one space taken by another major."""
    game, _ = recorded_until(1071)
    nbr, p5 = game.corporations["NBR"], game.companies["P5"]
    p5.owner.companies.remove(p5)
    p5.owner = nbr
    nbr.companies.append(p5)
    channel = game.board.hexes["P43"]
    game.track.lay_tile(nbr, {"hex": "P43", "tile": "X4-0", "rotation": 0}, check_connection=False)
    other = next(c for c in game.corporations.values()
                 if c is not nbr and c.kind.value == "major" and c.unused_tokens())
    game.track.place_token(other, other.unused_tokens()[0], channel, 0, free=True)
    game._checkpoint = None  # a refused action goes back to this set-up, not to the recorded state before it
    return game, nbr, p5


def p5_lay(game: G1822, tile: str, rotation: int = 0) -> None:
    game.process({"type": "lay_tile", "entity": "P5", "entity_type": "company", "hex": "P43", "tile": tile,
                  "rotation": rotation})


def test_p5_upgrades_a_full_english_channel_as_the_companys_lay_then_places_its_station() -> None:
    game, nbr, p5 = nbr_with_p5_and_a_full_green_channel()
    channel = game.board.hexes["P43"]
    assert ("P43", 0) not in game.track.network(nbr).nodes  # unreached: the power needs no route
    assert [a["tile"] for a in query.reference_choices(game, p5)] == ["X9-0"]
    cash, exchange = nbr.cash, game.exchange_tokens["NBR"]
    p5_lay(game, "X9-0")
    assert channel.tile.name == "X9" and nbr.cash == cash - 100  # the usual upgrade cost
    assert game.acting() == [p5] and game.actions_for(p5) == ["place_token"]
    assert game.actions_for(nbr) == []
    (station,) = game.round.choices_for(p5, "place_token")
    game.process(station)
    assert channel.tile.tokens[0].count("NBR") == 1 and p5.closed
    assert game.exchange_tokens["NBR"] == exchange - 1
    # The upgrade was the company's lay for the turn; its own station placement is still to come.
    assert game.acting() == [nbr] and "place_token" in game.actions_for(nbr)


def test_after_its_english_channel_upgrade_p5_must_place_its_station_there() -> None:
    # As 18xx.games: its teleport step offers the station alone, no pass.
    game, _, p5 = nbr_with_p5_and_a_full_green_channel()
    p5_lay(game, "X9-0")
    with pytest.raises(GameError) as refused:
        game.process({"type": "pass", "entity": "P5", "entity_type": "company"})
    assert refused.value.code is ErrorCode.ILLEGAL and "place_token" in refused.value.message
    p5 = game.companies["P5"]  # the state is restored from a snapshot: new objects
    assert game.acting() == [p5] and not p5.closed and game.board.hexes["P43"].tile.name == "X9"


def test_p5_upgrades_the_channel_only_when_it_is_full_and_the_upgrade_adds_a_space() -> None:
    game, _, p5 = nbr_with_p5_and_a_full_green_channel()
    game.exchange_tokens["NBR"] = 0
    assert game.actions_for(p5) == []  # no exchange token to place
    game.exchange_tokens["NBR"] = 1
    assert game.actions_for(p5) == ["lay_tile"]
    with pytest.raises(GameError) as refused:
        p5_lay(game, "X9-0", rotation=3)
    assert refused.value.code is ErrorCode.ILLEGAL and "rotation 0" in refused.value.message
    game, _, p5 = nbr_with_p5_and_a_full_green_channel()
    game.board.hexes["P43"].tile.tokens[0] = [None]
    assert game.actions_for(p5) == []  # a free space: P5 places its station in the token step instead


def test_p5_does_not_upgrade_the_channel_for_a_company_already_stationed_there() -> None:
    # The space made could take no station of its (18xx.games offers the lay and then cannot go on).
    game, nbr, p5 = nbr_with_p5_and_a_full_green_channel()
    channel = game.board.hexes["P43"]
    other = next(c for c in game.corporations.values() if c.sym in channel.tile.tokens[0])
    assert game.actions_for(p5) == ["lay_tile"]
    own_station = next(t for t in nbr.unused_tokens())
    remove_station(game, other, next(t for t in other.tokens if t.used and t.hex == "P43"))
    game.track.place_token(nbr, own_station, channel, 0, free=True)
    assert channel.tile.tokens[0] == ["NBR"] and game.exchange_tokens["NBR"] > 0
    assert game.actions_for(p5) == []


# ------------------------------------------------------------------ runs recorded on 18xx.games
def test_a_recorded_run_stands_as_recorded_and_a_run_made_here_is_checked() -> None:
    # 18xx.games loads a recorded run with its recorded revenue, unchecked (its E trains ran past their last
    # station until October 2025); so do we for the actions of an 18xx.games file. LNWR's 3 and 4 trains swap
    # routes here: the 3 train's four stops are one too many.
    game, rest = recorded_until(974)
    run = dict(rest[0], routes=[dict(r) for r in rest[0]["routes"]])
    assert run["type"] == "run_routes" and [r["train"] for r in run["routes"]][1:4:2] == ["3-0", "4-1"]
    run["routes"][1]["train"], run["routes"][3]["train"] = "4-1", "3-0"
    assert game.options["recorded_runs"] is True
    made_here = copy.deepcopy(game)
    recorded = sum(int(r["revenue"]) for r in run["routes"])
    game.process(run)
    assert game.round.revenue == recorded  # type: ignore[attr-defined]
    made_here.options.pop("recorded_runs")
    with pytest.raises(GameError, match="a 3 train counts at most 3 stops"):
        made_here.process(run)


def test_p2_lays_plain_track_on_an_undeveloped_hex_of_one_small_station() -> None:
    # P2's text: "place a plain yellow track tile directly on an undeveloped small station hex location"; a
    # company's own lay there must keep the town.
    game, _ = recorded_until(1030)
    p2 = game.companies["P2"]
    corp = next(c for c in game.corporations.values() if c.kind.value == "major" and c.floated)
    held: list[Any] = getattr(p2.owner, "companies", [])
    if p2 in held:
        held.remove(p2)
    p2.owner = corp
    corp.companies.append(p2)
    hexes = [h for h in game.board.hexes.values() if h.tile.colour == "white" and len(h.tile.tdef.towns) == 1
             and not h.tile.tdef.cities]
    assert hexes
    plain = game.track.tile_from_supply("9").tdef
    hx = hexes[0]
    game.laying_private = p2
    assert game.tile_rotations(corp, hx, plain, None)
    game.laying_private = None
    assert game.tile_rotations(corp, hx, plain, None) == []
