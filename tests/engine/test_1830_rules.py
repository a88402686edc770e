"""1830 through Game.process: the waterfall auction, each private's power, the stock round's own rules, diesel
trade-ins, route groups and the ends, on built positions and on recorded 18xx.games games replayed to one action."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from engine import new_game
from engine.core import query
from engine.core.entities import Corporation, Player
from engine.core.errors import ErrorCode, GameError
from engine.core.game import Game
from engine.core.routes import Route
from engine.importer import read_game_file, replay
from engine.titles.g1830 import routes
from engine.titles.g1830.game import G1830
from tests.conftest import SHARED_FIXTURES

#: The reference engine's own 1830 games (tobymao/18xx public/fixtures/1830), where the oracle set it up.
TOBY_FIXTURES = Path(os.environ.get("TOBY_DIR", Path.home() / ".cache/roundhouse-oracle/18xx")) / "public/fixtures/1830"
BANK_GAME = TOBY_FIXTURES / "1830_game_end_bank.json"
GAME_29133 = TOBY_FIXTURES / "29133.json"
GAME_26855 = SHARED_FIXTURES / "1830" / "26855.json"
RECORDED = [GAME_26855, GAME_29133, BANK_GAME]


def player_action(kind: str, pid: int, **fields: object) -> dict[str, object]:
    return {"type": kind, "entity": pid, "entity_type": "player", **fields}


def company_action(kind: str, sym: str, **fields: object) -> dict[str, object]:
    return {"type": kind, "entity": sym, "entity_type": "company", **fields}


def three_players() -> Game:
    return new_game("1830", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)


def need_toby(path: Path) -> None:
    """Skips a test of one of tobymao/18xx's own games where the oracle's work tree was never set up.

    Those games are not in ../shared (whose games fail a test when missing): they come with the work tree that
    ../shared/oracle/setup.sh makes, which no install step can fetch; the oracle's ``--files`` run compares them.
    """
    if not path.is_relative_to(SHARED_FIXTURES) and not TOBY_FIXTURES.is_dir():
        pytest.skip(f"no tobymao/18xx work tree at {TOBY_FIXTURES.parents[1]} (../shared/oracle/setup.sh sets one up)")


def before(path: Path, action_id: int) -> tuple[Game, dict[str, Any]]:
    """The recorded game just before the action with ``action_id`` (which must stand), and that action."""
    need_toby(path)
    assert path.is_file(), f"{path} is missing"  # a recorded game that is absent fails the test, never skips it
    gf = read_game_file(path)
    game = G1830(gf.players, gf.seed, gf.options, actions=[a for a in gf.actions if int(a["id"]) < action_id])
    return game, next(a for a in gf.actions if int(a["id"]) == action_id)


def buy_cheapest_in_turn(g: Game) -> None:
    """Finish the auction with each player buying the cheapest private in turn (B&O's par at $100)."""
    while g.round.kind == "auction":
        ent = g.acting()[0]
        if "par" in g.actions_for(ent):
            g.process(next(c for c in query.choices(g, ent, "par") if c["share_price"].startswith("100")))
            continue
        auction = g.round.steps[1]
        cheapest = auction.companies[0]  # type: ignore[attr-defined]
        g.process(player_action("bid", ent.id, company=cheapest.sym, price=cheapest.min_bid))


# ---------------------------------------------------------------------------------------------- auction
def test_waterfall_auction_buys_the_cheapest_and_settles_a_bid_when_its_private_is_cheapest() -> None:
    g = three_players()
    g.process(player_action("bid", 1, company="CA", price=167))  # any amount $5 or more over the face value
    g.process(player_action("bid", 2, company="SV", price=20))  # the cheapest: bought at once
    g.process(player_action("bid", 3, company="CS", price=40))
    g.process(player_action("bid", 1, company="DH", price=70))
    assert g.companies["CA"].owner is None
    g.process(player_action("bid", 2, company="MH", price=110))
    # The C&A is now the cheapest, with one bid: Ann has it at her bid, and with it a PRR share.
    ann = g.players[0]
    assert g.companies["CA"].owner is ann
    assert ann.cash == 800 - 167 - 70
    assert ann.percent_of("PRR") == 10 and g.share_by_id("PRR_1").owner is ann


def test_bids_below_the_minimum_and_unaffordable_bids_are_refused() -> None:
    g = three_players()
    with pytest.raises(GameError) as err:
        g.process(player_action("bid", 1, company="CA", price=164))
    assert err.value.code is ErrorCode.ILLEGAL and "$165" in err.value.message
    with pytest.raises(GameError) as err:
        g.process(player_action("bid", 1, company="BO", price=900))
    assert err.value.code is ErrorCode.INSUFFICIENT_FUNDS
    assert g.raw_actions == []


def test_bo_brings_the_presidency_is_never_sold_to_a_company_and_closes_on_the_first_bo_train() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    bo = g.companies["BO"]
    owner = bo.owner
    assert isinstance(owner, Player)
    corp = g.corporations["B&O"]
    assert corp.owner is owner and owner.percent_of("B&O") == 20 and corp.par_price == 100
    assert not g.runs.company_for_sale(bo) and g.runs.company_for_sale(g.companies["CA"])
    g.close_on_train_bought(g.corporations["PRR"])
    assert not bo.closed
    g.close_on_train_bought(corp)
    assert bo.closed


def test_privates_block_their_hexes_only_while_a_player_owns_them() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    for sym, hexes in (("SV", ["G15"]), ("CS", ["B20"]), ("DH", ["F16"]), ("MH", ["D18"]), ("CA", ["H18"]),
                       ("BO", ["I13", "I15"])):
        for hex_id in hexes:
            assert g.track.blocked_hex(g.board[hex_id]) is g.companies[sym]
    give(g, "CS", g.corporations["PRR"])
    assert g.track.blocked_hex(g.board["B20"]) is None


# ---------------------------------------------------------------------------------------------- stock round
def test_mh_is_exchanged_for_an_nyc_share_and_closes() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    mh = g.companies["MH"]
    owner = mh.owner
    assert isinstance(owner, Player)
    offered = query.choices(g, mh, "buy_shares")
    assert [c["shares"] for c in offered] == [["NYC_1"]]  # from the IPO, NYC not yet started (18xx.games)
    cash = owner.cash
    g.process(offered[0])
    assert mh.closed and owner.percent_of("NYC") == 10 and owner.cash == cash


def test_mh_exchange_is_refused_at_sixty_percent() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    owner = g.companies["MH"].owner
    assert isinstance(owner, Player)
    nyc = g.corporations["NYC"]
    for share in [s for s in nyc.shares if not s.president][:6]:
        g.shares.transfer_share(share, owner)
    g._checkpoint = None  # a refused action must restore this state
    assert query.choices(g, g.companies["MH"], "buy_shares") == []
    with pytest.raises(GameError) as err:
        g.process(company_action("buy_shares", "MH", shares=["NYC_7"], percent=10))
    assert err.value.code is ErrorCode.ILLEGAL
    assert not g.companies["MH"].closed


def test_mh_exchange_from_the_recorded_game_takes_the_ipo_share() -> None:
    g, action = before(BANK_GAME, 193)
    owner = g.companies["MH"].owner
    assert isinstance(owner, Player)
    cash = owner.cash
    g.process(action)
    assert g.companies["MH"].closed
    assert g.share_by_id("NYC_1").owner is owner and owner.cash == cash


def test_a_player_buys_another_players_private_from_the_second_stock_round() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    ent = g.acting()[0]
    assert "buy_company" not in g.actions_for(ent)  # not in the first stock round
    g.turn = 2
    g._checkpoint = None
    offered = query.choices(g, ent, "buy_company")
    syms = {c["company"] for c in offered}
    assert "BO" not in syms and not syms & {c.sym for c in ent.companies}
    # The C&A cannot change hands while a player holds its PRR share (18xx.games refuses it).
    assert "CA" not in syms
    seller_cash = {p.id: p.cash for p in g.players}
    choice = offered[0]
    g.process({**choice, "price": 1})
    assert g.companies[str(choice["company"])].owner is ent
    seller = next(p for p in g.players if p.cash != seller_cash[p.id] and p is not ent)
    assert seller.cash == seller_cash[seller.id] + 1
    # That was the purchase of the turn: no shares and no other private now.
    assert "buy_shares" not in g.actions_for(ent) and "buy_company" not in g.actions_for(ent)


def test_brown_zone_shares_come_several_a_turn_from_the_market_only() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    g.turn = 2
    corp = g.corporations["PRR"]
    g.shares.set_par(corp, g.market.cell(0, 6))
    corp.floated = True
    g.market._move_to(corp.sym, g.market.cell(6, 0))  # $18: the brown zone
    plain = [s for s in corp.shares if not s.president]
    for share in plain[:3]:
        g.shares.transfer_share(share, g.pool)
    ent = g.acting()[0]
    g._checkpoint = None
    pool_share = next(s for s in g.pool.shares if s.corp == "PRR")
    g.process(player_action("buy_shares", ent.id, shares=[pool_share.id], percent=10))
    ipo = next(s for s in corp.shares if not s.president)
    with pytest.raises(GameError):
        g.process(player_action("buy_shares", ent.id, shares=[ipo.id], percent=10))
    again = next(s for s in g.pool.shares if s.corp == "PRR")
    g.process(player_action("buy_shares", ent.id, shares=[again.id], percent=10))
    assert ent.percent_of("PRR") >= 20


# ---------------------------------------------------------------------------------------------- operating
def give(g: Game, sym: str, corp: Corporation) -> None:
    company = g.companies[sym]
    old = company.owner
    if isinstance(old, Player | Corporation) and company in old.companies:
        old.companies.remove(company)
    company.owner = corp
    corp.companies.append(company)
    g._checkpoint = None


def test_cs_lays_in_burlington_off_its_network_beyond_its_own_lay_once() -> None:
    g, action = before(GAME_29133, 220)
    corp = g.companies["CS"].owner
    assert isinstance(corp, Corporation) and g.round.entity() is corp
    assert {(c["hex"], c["tile"].split("-")[0]) for c in query.choices(g, g.companies["CS"], "lay_tile")} <= {
        ("B20", "3"), ("B20", "4"), ("B20", "58")}
    own_lay = "lay_tile" in g.actions_for(corp)
    g.process(action)
    assert g.board["B20"].tile.name == "4"
    assert ("lay_tile" in g.actions_for(corp)) == own_lay  # its own lay is untouched
    assert g.actions_for(g.companies["CS"]) == []  # once only


def test_dh_lays_in_scranton_as_the_turns_lay_then_places_a_free_station() -> None:
    g, lay = before(BANK_GAME, 228)
    dh = g.companies["DH"]
    corp = dh.owner
    assert isinstance(corp, Corporation)
    cash = corp.cash
    g.process(lay)
    assert g.board["F16"].tile.name == "57" and corp.cash == cash - 120  # the mountain, nothing more
    assert g.acting() == [dh] and g.actions_for(dh) == ["place_token", "pass"]
    g2, token = before(BANK_GAME, 229)
    g2.process(token)
    assert "ERIE" in g2.board["F16"].tile.tokens[g2.board["F16"].tile.tdef.cities[0]]
    assert g2.corporations["ERIE"].cash == cash - 120  # the station costs nothing
    # It was the lay and the station of the turn, and the power is spent.
    assert "lay_tile" not in g2.actions_for(corp) and "place_token" not in g2.actions_for(corp)
    assert g2.actions_for(dh) == []


def test_dh_may_pass_its_station_and_the_company_keeps_its_own() -> None:
    g, lay = before(BANK_GAME, 228)
    g.process(lay)
    g.process(company_action("pass", "DH"))
    corp = g.corporations["ERIE"]
    assert g.acting() == [corp] and g.teleported is None  # type: ignore[attr-defined]
    assert not any("ERIE" in slots for slots in g.board["F16"].tile.tokens.values())


def test_diesel_trade_in_costs_800_and_the_four_goes_to_the_pool() -> None:
    g, action = before(GAME_29133, 439)
    erie = g.corporations["ERIE"]
    cash = erie.cash
    g.process(action)
    assert erie.cash == cash - 800
    assert any(t.name == "D" for t in erie.trains) and not any(t.id == "4-1" for t in erie.trains)
    four = g.all_trains["4-1"]
    assert four.rusted or four in g.pool_trains  # the first diesel rusts the fours, the traded one with them


def test_a_train_discarded_for_the_limit_goes_to_the_pool_for_sale() -> None:
    g = three_players()
    corp = g.corporations["PRR"]
    train = g.depot[0]
    g.depot.remove(train)
    train.owner = corp
    corp.trains.append(train)
    g.discard_train(corp, train)
    assert train in g.pool_trains and train not in corp.trains


def test_a_route_may_visit_one_offboard_of_canada_only() -> None:
    g = three_players()
    corp = g.corporations["PRR"]
    train = g.depot[0]
    both = Route(train, stops=[("A9", 0), ("B10", 0), ("A11", 0)])
    with pytest.raises(GameError) as err:
        g.route_revenue(corp, both)
    assert "Canada" in err.value.message
    assert routes.route_group(g.board, ["A9", "B10"]) is None
    assert routes.route_group(g.board, ["I1", "J2"]) is None  # only I1 is in the Gulf group


def test_the_optional_sixth_train_rule_adds_a_third_six() -> None:
    assert sum(t.name == "6" for t in three_players().depot) == 2
    extra = new_game("1830", [(1, "A"), (2, "B")], seed=1, options={"optional_rules": ["optional_6_train"]})
    assert sum(t.name == "6" for t in extra.depot) == 3


# ---------------------------------------------------------------------------------------------- ends
@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_recorded_games_replay_to_their_result(path: Path) -> None:
    need_toby(path)
    assert path.is_file(), f"{path} is missing"
    gf = read_game_file(path)
    game = replay(gf)
    raw = gf.raw
    assert game.result() == {str(k): v for k, v in raw["result"].items()}
    assert game.game_end_reason == raw["game_end_reason"]


def test_the_bank_breaking_ends_the_game_after_the_set_of_operating_rounds() -> None:
    need_toby(BANK_GAME)
    assert BANK_GAME.is_file(), f"{BANK_GAME} is missing"
    gf = read_game_file(BANK_GAME)
    broke: list[str] = []  # the round in which the bank first ran out

    def watch(_: int, __: dict[str, Any], game: Game) -> None:
        if game.bank.cash <= 0 and not broke:
            broke.append(game.round.name())

    game = replay(gf, on_applied=watch)
    assert broke and broke[0].startswith("Operating Round")
    assert game.finished and game.game_end_reason == "bank"
    # The set of operating rounds in progress when the bank broke is played out first.
    assert game.round.name() != broke[0] or game.operating_rounds == 1


def test_a_round_of_passes_after_the_schuylkill_valley_is_sold_pays_the_privates() -> None:
    g = new_game("1830", [(1, "Ann"), (2, "Bob")], seed=1)
    g.process(player_action("bid", 1, company="SV", price=20))
    g.process(player_action("bid", 2, company="CS", price=40))
    # The D&H is now the cheapest; everyone passes: no price falls, the privates pay their revenue (18xx.games).
    g.process(player_action("pass", 1))
    g.process(player_action("pass", 2))
    assert g.companies["DH"].min_bid == 70
    assert [p.cash for p in g.players] == [1200 - 20 + 5, 1200 - 40 + 10]


def test_a_round_of_passes_lowers_the_schuylkill_valley_while_it_is_unsold() -> None:
    g = new_game("1830", [(1, "Ann"), (2, "Bob")], seed=1)
    g.process(player_action("pass", 1))
    g.process(player_action("pass", 2))
    assert g.companies["SV"].min_bid == 15
    assert [p.cash for p in g.players] == [1200, 1200]


def test_an_emergency_counts_the_pool_trains_on_sale() -> None:
    g = three_players()
    corp = g.corporations["PRR"]
    cheapest = g.depot[0]
    g.depot.remove(cheapest)
    corp.trains.append(cheapest)
    g.discard_train(corp, cheapest)
    assert g.min_depot_price() == cheapest.price
