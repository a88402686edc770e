"""The core's refusals (a tile lay, a station, a train purchase, a bid, a share purchase or par), each with the message
a player reads, and the state left as it was (1882's board and rounds)."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.core.entities import Corporation, Player, Train
from engine.core.errors import ErrorCode, GameError
from engine.core.game import Game
from engine.titles.g1882.game import G1882

from .test_1882_scenarios import finish_auction


def game() -> G1882:
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=1)
    assert isinstance(g, G1882)
    return g


def floated(g: G1882, sym: str, cash: int) -> Corporation:
    corp = g.corporations[sym]
    corp.floated = True
    g.bank.spend(cash, corp)
    g.track.place_home_token(corp)
    return corp


def owned(g: G1882, corp: Corporation, train: Train) -> None:
    g.depot.remove(train)
    train.owner = corp
    corp.trains.append(train)


def test_a_tile_lay_is_refused_off_the_network_in_the_wrong_colour_rotation_or_beyond_the_treasury() -> None:
    g = game()
    cnr = floated(g, "CNR", 0)
    home = cnr.tokens[0].hex
    assert home is not None
    with pytest.raises(GameError, match="is not connected to CNR's network"):
        g.track.lay_tile(cnr, {"hex": "C3", "tile": "57-0", "rotation": 0})
    with pytest.raises(GameError, match="green tiles are not available in phase 2"):
        g.track.lay_tile(cnr, {"hex": home, "tile": "14-0", "rotation": 0})
    with pytest.raises(GameError, match=f"tile 9 cannot be laid on {home}"):
        g.track.lay_tile(cnr, {"hex": home, "tile": "9-0", "rotation": 0}, check_connection=False)
    # B4 lies on the map's edge: a gentle curve fits it one way only, and any other way is named with that one.
    with pytest.raises(GameError, match="tile 8 cannot be laid on B4 at rotation 0; legal rotations: 5"):
        g.track.lay_tile(cnr, {"hex": "B4", "tile": "8-0", "rotation": 0}, check_connection=False)
    mountain = g.board["M3"]  # a town in the mountains: $40 for its first tile
    old = mountain.tile
    rotation = g.tile_rotations(cnr, mountain, g.track.tile_from_supply("58-0").tdef, None)[0]
    with pytest.raises(GameError, match="CNR cannot afford this tile lay: treasury \\$0, cost \\$40"):
        g.track.lay_tile(cnr, {"hex": "M3", "tile": "58-0", "rotation": rotation}, check_connection=False)
    assert mountain.tile is old and g.board["B4"].tile.tdef.name == "B4"


def test_a_hex_blocked_by_a_private_takes_no_tile_while_a_player_owns_it() -> None:
    g = game()
    cnr = floated(g, "CNR", 100)
    hb = g.companies["HB"]
    hb.owner = g.players[0]
    g.players[0].companies.append(hb)
    blocked = next(h for h in g.board.hexes.values() if g.track.blocked_hex(h) is hb)
    with pytest.raises(GameError, match=f"{blocked.id} is blocked by HB while a player owns it"):
        g.track.lay_tile(cnr, {"hex": blocked.id, "tile": "9-0", "rotation": 0}, check_connection=False)


def test_a_station_is_refused_in_a_full_city_and_beyond_the_treasury() -> None:
    g = game()
    cnr = floated(g, "CNR", 0)
    hbr = floated(g, "HBR", 0)
    full = g.board[hbr.tokens[0].hex or ""]
    with pytest.raises(GameError, match=f"no free token space in {full.id}"):
        g.track.place_token(cnr, cnr.tokens[1], full, hbr.tokens[0].node)
    free = g.board["C3"]
    with pytest.raises(GameError, match="CNR cannot afford a token: treasury \\$0, price \\$40"):
        g.track.place_token(cnr, cnr.tokens[1], free, 0)
    assert free.tile.tokens == {0: [None]} and not cnr.tokens[1].used


def test_a_train_purchase_is_refused_when_the_rules_forbid_it() -> None:
    g = game()
    cnr = floated(g, "CNR", 100)
    hbr = floated(g, "HBR", 500)
    first, second, three = g.depot[0], g.depot[1], next(t for t in g.depot if t.name == "3")
    owned(g, cnr, first)
    with pytest.raises(GameError, match=f"CNR already owns {first.id}"):
        g.trains.buy_train_action(cnr, first, 80, exchange=None, must_buy=False)
    with pytest.raises(GameError, match=f"{three.id} is not for sale; the depot sells: 2"):
        g.trains.buy_train_action(cnr, three, 180, exchange=None, must_buy=False)
    with pytest.raises(GameError, match="the 2 train costs \\$80, not \\$70"):
        g.trains.buy_train_action(cnr, second, 70, exchange=None, must_buy=False)
    with pytest.raises(GameError, match=f"HBR does not own {first.id}"):
        g.trains.buy_train_action(hbr, second, 80, exchange=first, must_buy=False)
    g.pool_trains.append(second)
    g.depot.remove(second)
    second.owner = g.pool
    with pytest.raises(GameError, match="the 2 train from the pool costs \\$80"):
        g.trains.buy_train_action(hbr, second, 60, exchange=None, must_buy=False)
    with pytest.raises(GameError, match="HBR may spend \\$1 to \\$"):
        g.trains.buy_train_action(hbr, first, 0, exchange=None, must_buy=False)
    cnr.cash, g.bank.cash = 0, g.bank.cash + cnr.cash
    with pytest.raises(GameError, match="CNR cannot afford the 2 train: treasury \\$0, price \\$80"):
        g.trains.buy_train_action(cnr, g.depot[0], 80, exchange=None, must_buy=False)
    assert [t.id for t in cnr.trains] == [first.id] and hbr.trains == []


def test_a_finished_game_takes_no_action_and_a_game_needs_its_player_count() -> None:
    g = game()
    g.end_game("manually_ended")
    with pytest.raises(GameError) as err:
        g.process({"type": "pass", "entity": 1, "entity_type": "player"})
    assert err.value.code is ErrorCode.GAME_OVER and err.value.message == "the game is over"
    with pytest.raises(GameError, match="1882 is for 2 to 6 players, not 1"):
        new_game("1882", [(1, "Ann")], seed=1)



def test_a_stored_log_replays_when_the_game_is_built_and_nothing_follows_its_end() -> None:
    g = game()
    ann = g.acting()[0]
    g.process({"type": "pass", "entity": ann.id, "entity_type": "player"})
    again = G1882(g.player_specs, g.seed, g.options, actions=g.raw_actions)
    assert [p.name for p in again.acting()] == ["Bob"] and again.raw_actions == g.raw_actions
    end = {"type": "end_game", "entity": ann.id, "entity_type": "player", "id": 2}
    ended = G1882(g.player_specs, g.seed, g.options, actions=[*g.raw_actions, end])
    assert ended.finished and ended.game_end_reason == "manually_ended"
    assert ended.acting() == [] and ended.actions_for(ended.players[1]) == []
    late = {"type": "pass", "entity": 2, "entity_type": "player", "id": 3}
    with pytest.raises(GameError) as err:  # a stored log with a move after the end does not load
        G1882(g.player_specs, g.seed, g.options, actions=[*g.raw_actions, end, late])
    assert err.value.code is ErrorCode.GAME_OVER

def act(g: Game, kind: str, pid: int, **fields: object) -> None:
    g._checkpoint = None  # positions below are partly set up by hand: a refusal restores this state
    g.process({"type": kind, "entity": pid, "entity_type": "player", **fields})


def test_bids_are_refused_below_the_minimum_off_the_steps_beyond_the_cash_and_for_another_private() -> None:
    g = game()
    ann = g.acting()[0]
    with pytest.raises(GameError, match="HB costs at least \\$20"):
        act(g, "bid", ann.id, company="HB", price=1)  # the cheapest private is bought outright
    with pytest.raises(GameError, match="the minimum bid for SC is \\$55"):
        act(g, "bid", ann.id, company="SC", price=41)
    with pytest.raises(GameError, match="bids go up in multiples of \\$5"):
        act(g, "bid", ann.id, company="SC", price=57)
    with pytest.raises(GameError, match=f"{ann.name} has \\$\\d+ available and cannot bid \\$1000"):
        act(g, "bid", ann.id, company="SC", price=1000)
    act(g, "bid", ann.id, company="HB", price=20)
    assert g.companies["HB"].owner is g.player_by_id(ann.id)
    with pytest.raises(GameError, match="HB is not for sale"):
        act(g, "bid", g.acting()[0].id, company="HB", price=25)


def stock_round_one() -> tuple[G1882, Player]:
    g = game()
    finish_auction(g)
    assert g.round.name() == "Stock Round 1"
    return g, g.acting()[0]


def test_share_purchases_are_refused_when_the_stock_rules_forbid_them() -> None:
    g, p = stock_round_one()
    assert g.corporations["CPR"].ipoed and not g.corporations["CNR"].ipoed
    with pytest.raises(GameError, match="the president's certificate is bought by setting a par price"):
        act(g, "buy_shares", p.id, shares=["CNR_0"], percent=20)
    with pytest.raises(GameError, match="CPR_0 is not for sale"):  # a player holds it
        act(g, "buy_shares", p.id, shares=["CPR_0"], percent=20)
    with pytest.raises(GameError, match="only one certificate at a time unless CPR is in the brown zone"):
        act(g, "buy_shares", p.id, shares=["CPR_1", "CPR_2"], percent=20)
    with pytest.raises(GameError, match="CPR already has a par price"):
        act(g, "par", p.id, corporation="CPR", share_price="100,0,6")
    with pytest.raises(GameError, match=f"{p.name} cannot start CN now"):  # not before a neutral station
        act(g, "par", p.id, corporation="CN", share_price="100,0,6")
    p = g.player_by_id(p.id)  # each refusal restored the state in new objects
    cheapest = min(g.market.par_cells(), key=lambda c: c.price)
    g.shares.set_par(g.corporations["CNR"], cheapest)  # a cheaper share for sale: the step itself is asked
    cash, short = p.cash, cheapest.price
    assert short < g.market.location["CPR"].price
    g.bank.cash += cash - short
    p.cash = short
    with pytest.raises(GameError, match=f"{p.name} cannot afford CPR: cash \\${short}, price \\$"):
        act(g, "buy_shares", p.id, shares=["CPR_1"], percent=10)
    p = g.player_by_id(p.id)
    p.cash, g.bank.cash = cash, g.bank.cash - cash + short
    act(g, "buy_shares", p.id, shares=["CPR_1"], percent=10)
    assert [s.id for s in g.player_by_id(p.id).shares_of("CPR")] == ["CPR_1"]


def test_a_purchase_over_the_holding_limit_is_refused() -> None:
    g, p = stock_round_one()
    cpr = g.corporations["CPR"]
    for share in [s for s in cpr.shares if not s.president][:6]:
        g.shares.transfer_share(share, p)
    nxt = next(s for s in cpr.shares if not s.president)
    g.shares.set_par(g.corporations["CNR"], g.market.par_cells()[0])  # something else is for sale: the step is asked
    with pytest.raises(GameError, match=f"{p.name} would exceed the certificate limit or the 60% holding limit"):
        act(g, "buy_shares", p.id, shares=[nxt.id], percent=10)


def test_train_purchases_beyond_the_limit_trade_ins_and_the_presidents_money_are_refused() -> None:
    g = game()
    cnr = floated(g, "CNR", 100)
    hbr = floated(g, "HBR", 0)
    cnr.owner = g.players[0]
    hbr.owner = g.players[0]
    for train in g.depot[:4]:
        owned(g, cnr, train)
    assert g.train_limit(cnr) == 4
    with pytest.raises(GameError, match="CNR is at its train limit of 4"):
        g.trains.buy_train_action(cnr, g.depot[0], 80, exchange=None, must_buy=False)
    two = cnr.trains[0]
    with pytest.raises(GameError, match="a 2 train cannot be traded in for a 2"):
        g.trains.buy_train_action(cnr, g.depot[0], 80, exchange=two, must_buy=False)
    stray = g.depot[1]
    stray.owner = g.players[1]
    with pytest.raises(GameError, match=f"{stray.id} is not for sale"):
        g.trains.buy_train_action(hbr, stray, 80, exchange=None, must_buy=True)
    with pytest.raises(GameError, match="the president cannot contribute towards a trade-in"):
        g.trains.buy_train_action(hbr, two, 50, exchange=g.depot[2], must_buy=True)  # from CNR, with HBR's $0
    three = next(t for t in g.depot if t.name == "3")
    g.depot.remove(three)
    three.owner = g.pool
    g.pool_trains.append(three)
    with pytest.raises(GameError, match="with its president's money HBR must buy the cheapest train on sale \\(2\\)"):
        g.trains.buy_train_action(hbr, three, 180, exchange=None, must_buy=True)
    with pytest.raises(GameError, match=f"{three.id} was bought as a 3 train; only new trains choose a variant"):
        g.trains.buy_train_action(hbr, three, 180, exchange=None, must_buy=True, variant="4")
    president = g.players[0]
    g.bank.cash += president.cash - 30
    president.cash = 30
    with pytest.raises(GameError, match=f"{president.name} must raise \\$50 more by selling shares"):
        g.trains.buy_train_action(hbr, g.depot[0], 80, exchange=None, must_buy=True)
    assert hbr.trains == [] and hbr.cash == 0 and president.cash == 30


def test_a_company_buys_a_private_only_from_phase_3_from_a_player_in_its_price_range_and_means() -> None:
    g = game()
    cnr = floated(g, "CNR", 50)
    sc, hb = g.companies["SC"], g.companies["HB"]
    for company in (sc, hb):
        company.owner = g.players[0]
        g.players[0].companies.append(company)
    with pytest.raises(GameError, match="companies cannot buy privates in phase 2"):
        g.runs.corporation_buys_company(cnr, sc, 50)
    g.phase_index = next(i for i, p in enumerate(g.phases) if p.get("can_buy_companies"))
    hb.closed = True
    with pytest.raises(GameError, match="HB is not owned by a player"):
        g.runs.corporation_buys_company(cnr, hb, 20)
    with pytest.raises(GameError, match="SC may be bought for \\$25 to \\$100"):
        g.runs.corporation_buys_company(cnr, sc, 101)
    with pytest.raises(GameError, match="CNR cannot pay \\$60: treasury \\$50"):
        g.runs.corporation_buys_company(cnr, sc, 60)
    g.runs.corporation_buys_company(cnr, sc, 50)
    assert sc.owner is cnr and cnr.cash == 0
