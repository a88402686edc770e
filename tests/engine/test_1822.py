"""1822: recorded games replay to their results, and the title's own rules (bid boxes, minors taken over by
majors, privates' powers, London) behave as on 18xx.games."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from engine.core import actions as act
from engine.core.entities import Company, Corporation
from engine.core.errors import GameError
from engine.core.play_track import TrackPart
from engine.core.tiles import TokenKind
from engine.importer import read_game_file
from engine.titles import title_class
from engine.titles.g1822.bidboxes import bank_companies, bidbox_concessions, bidbox_minors, bidbox_privates
from engine.titles.g1822.destinations import add_route_bonuses, place_destination_token, remove_extra_tokens
from engine.titles.g1822.game import G1822
from engine.titles.g1822.majors import event_full_capitalisation
from engine.titles.g1822.private_choices import make_company_choice, move_card_choices
from engine.titles.g1822.routes import trace_1822_route
from engine.titles.g1822.share_issues import redeem_shares
from engine.titles.g1822.stations import free_token_hexes, offers_city, p5_holds_token_step, remove_minor_station
from engine.titles.g1822.steps import Token1822
from engine.titles.g1822.track import lay_rotations, map_extras
from engine.titles.g1822.track_powers import track_power, track_power_allows
from engine.titles.g1822.trains import discardable_trains
from tests.conftest import recorded_games

GAMES = recorded_games("1822")
PLUS_GAME = next((p for p in GAMES if p.stem == "33845"), None)


def plus_game_until(action_id: int) -> G1822:
    """The recorded 1822+ game with every standing action before ``action_id`` applied."""
    if PLUS_GAME is None:
        pytest.skip("the recorded 1822+ game is absent")
    gf = read_game_file(PLUS_GAME)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    for action in act.filter_undo(gf.actions):
        if int(action["id"]) >= action_id:
            break
        game._apply(action)
    assert isinstance(game, G1822)
    return game


def bid(game: G1822, player: Any, company: str, price: int) -> None:
    game.process({"type": "bid", "entity": player.id, "entity_type": "player", "company": company, "price": price})


def pass_(game: G1822, entity: Any) -> None:
    ref = act.entity_ref(entity)
    game.process({"type": "pass", "entity": ref[1], "entity_type": ref[0]})


def new_game(players: int = 3, seed: int = 11, rules: list[str] | None = None) -> G1822:
    game = G1822([(i + 1, f"P{i + 1}") for i in range(players)], seed, {"optional_rules": rules or []})
    return game


def test_setup_puts_the_first_items_in_the_bid_boxes() -> None:
    game = new_game()
    assert next(c.sym for c in bidbox_minors(game)) == "M24"
    assert bidbox_concessions(game)[0].sym == "C1"
    assert bidbox_privates(game)[0].sym == "P1"
    assert len(bidbox_minors(game)) == 4 and len(bidbox_concessions(game)) == 3
    # 1822+ has 30 minors and 21 privates, of which three are removed at setup.
    plus = new_game(rules=["plus_expansion"])
    assert "30" in plus.corporations and "30" not in game.corporations
    assert sum(1 for c in plus.companies if c.startswith("P")) == 18
    assert [c.sym in box for c, box in zip(bidbox_privates(plus), plus.bidding["plus_boxes"], strict=True)] == \
        [True, True, True]


def test_bids_resolve_at_the_end_of_the_stock_round() -> None:
    game = new_game()
    p1, p2, p3 = game.players
    bid(game, p1, "M24", 100)
    bid(game, p1, "C1", 100)
    bid(game, p1, "P1", 0)   # the third bid ends the turn
    bid(game, p2, "M24", 120)
    with pytest.raises(GameError, match="minimum bid"):
        bid(game, p2, "C1", 100)
    # A refused action restores the state as it was: look the players up again.
    p1, p2, p3 = (game.player_by_id(i) for i in (1, 2, 3))
    pass_(game, p2)  # after a bid this is no pass: the round goes on until everybody passes in a row
    pass_(game, p3)
    pass_(game, p1)
    assert game.round.kind == "stock"
    pass_(game, p2)
    assert game.round.kind != "stock"
    minor = game.corporations["24"]
    assert minor.floated and minor.owner is p2
    assert minor.cash == 100  # phase 1: twice the £50 par
    assert p2.cash == 700 - 120
    assert game.companies["C1"].owner is p1 and game.companies["P1"].owner is p1
    # The operating round has begun: C1 and P1 have paid their owner £10 and £5.
    assert game.round.kind == "operating"
    assert p1.cash == 700 - 100 + 10 + 5
    # The three other minors in the boxes had no bids: three L trains leave the depot.
    assert next(t.id for t in game.trains.available_depot_trains()) == "L-3"


def test_a_first_stock_round_without_bids_ends_the_game() -> None:
    game = new_game()
    for _ in range(3):
        for p in game.players:
            if game.round.kind == "stock" and p in game.acting():
                pass_(game, p)
    # Nobody bid at all: 18xx.games ends the game when nothing was bought in the first stock round.
    assert game.finished and game.game_end_reason == "dnf"


def test_minor_acquisition_pays_in_shares_and_moves_the_minors_assets() -> None:
    game = plus_game_until(577)  # CR is about to take over minor 6
    cr, minor = game.corporations["CR"], game.corporations["6"]
    owner = minor.owner
    assert owner is not None
    cash_before, trains = cr.cash + minor.cash, list(minor.trains)
    owner_cash, owner_cr = owner.cash, owner.percent_of("CR")
    game.process({"type": "merge", "entity": "CR", "entity_type": "corporation", "corporation": "6"})
    game.process({"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "two_shares"})
    game.process({"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "exchange"})
    assert minor.closed and "6" not in [c for c in game.corporations if game.corporations[c].floated
                                        and not game.corporations[c].closed]
    assert owner.percent_of("CR") == owner_cr + 20
    difference = game.market.location["6"].price * 2 - game.market.location["CR"].price * 2 \
        if "6" in game.market.location else None
    assert difference is None  # the minor has left the market
    assert all(t.owner is cr for t in trains)
    assert cr.cash + (owner.cash - owner_cash) == cash_before
    assert game.exchange_tokens["CR"] == 2


def test_p12_lays_two_extra_yellow_tiles_and_closes() -> None:
    game = plus_game_until(569)  # CR owns P12 after its two own lays
    p12 = game.companies["P12"]
    assert p12.owner is game.corporations["CR"]
    game.process({"type": "lay_tile", "entity": "P12", "entity_type": "company", "hex": "H11", "tile": "7-2",
                  "rotation": 1})
    # Once begun, P12's lays are made together: P12 acts next, not CR.
    assert game.acting() == [p12]
    game.process({"type": "lay_tile", "entity": "P12", "entity_type": "company", "hex": "F5", "tile": "58-4",
                  "rotation": 5})
    assert p12.closed
    assert game.board.hexes["H11"].tile.name == "7" and game.board.hexes["F5"].tile.name == "58"


def test_london_stations_are_separate_and_an_l_train_runs_locally() -> None:
    game = plus_game_until(124)  # minor 15 runs its L train from its London station
    corp, train = game.corporations["15"], game.all_trains["L-0"]
    local = trace_1822_route(game, corp, train, {"train": "L-0", "connections": [["local", "M38"]]})
    assert local.revenue == 40 and len(local.stops) == 1
    # No route may run between two of London's stations.
    with pytest.raises(GameError):
        trace_1822_route(game, corp, train, {"train": "L-0", "connections": [["local", "N37"]]})


def test_destination_bonus_doubles_the_destination_once() -> None:
    game = plus_game_until(555)  # LBSCR has just placed its destination token in Brighton
    corp = game.corporations["LBSCR"]
    data = {"train": "L-18", "connections": [["M38", "M40", "M42"]]}
    route = trace_1822_route(game, corp, game.all_trains["L-18"], data)
    assert route.revenue == 60
    add_route_bonuses(game, corp, [route])
    assert route.revenue == 80


def test_only_p2_replaces_a_town_tile_by_plain_track() -> None:
    game = new_game()
    hx = game.board["G34"]
    town = game.track.tile_from_supply("3-0")
    town.rotation = 1
    hx.tile = town
    corp = game.corporations["21"]
    plain = game.track.tile_from_supply("80-0").tdef
    # A company's own lay must keep the town's paths, which plain track cannot.
    assert game.tile_rotations(corp, hx, plain, None) == []
    game.laying_private = game.companies["P2"]
    try:
        assert game.tile_rotations(corp, hx, plain, None) != []
    finally:
        game.laying_private = None


def test_another_companys_train_is_paid_from_the_treasury_alone() -> None:
    game = new_game()
    buyer = game.corporations["21"]
    buyer.cash = 20
    train = game.all_trains["L-0"]
    assert game.other_train_price_range(buyer, train) == (1, 20)
    assert game.other_train_price_range(buyer, train, last_sale_price=50) == (1, 20)


def test_emergency_sales_wait_for_the_company_to_have_operated() -> None:
    game = new_game()
    player = game.players[0]
    buyer, lnwr = game.corporations["21"], game.corporations["LNWR"]
    share = game.share_by_id("LNWR_1")
    # LNWR has not operated: its shares cannot be sold, for any company's train.
    assert not game.emergency_bundle_legal(player, buyer, [share], 10)
    # The company buying the train must have finished a turn before the current one.
    game.history["LNWR"] = 1
    assert not game.emergency_bundle_legal(player, lnwr, [share], 10)


def test_p17_moves_a_card_under_the_bid_boxes_or_to_the_bottom() -> None:
    game = new_game()
    p17, corp = game.companies["P17"], game.corporations["LNWR"]
    p17.owner = corp
    corp.companies.append(p17)
    concessions = [c.sym for c in bank_companies(game, "C")]
    boxed = [c.sym for c in bidbox_concessions(game)]
    choices = move_card_choices(game, p17)
    # Nothing in a bid box may move.
    assert not any(c.startswith(f"{sym}_") for sym in boxed for c in choices)
    last = concessions[-1]
    make_company_choice(game, p17, f"{last}_top", "issue")
    assert [c.sym for c in bank_companies(game, "C")] == [*boxed, last, *concessions[len(boxed):-1]]
    assert p17.closed


def test_a_company_owning_p17_stops_at_the_issue_step() -> None:
    game = new_game()
    corp = game.corporations["LNWR"]
    from engine.titles.g1822.steps import IssueShares
    step = IssueShares.__new__(IssueShares)
    step.game, step.round = game, type("R", (), {"entity": lambda self: corp})()
    assert step.actions(corp) == []
    p17 = game.companies["P17"]
    p17.owner = corp
    corp.companies.append(p17)
    assert "pass" in step.actions(corp)
    assert step.actions(p17) == ["choose_ability"]


def test_london_approach_stubs_bind_every_first_lay() -> None:
    game = new_game()
    hx = game.board["M36"]
    stubs = map_extras(game, "M36")["stubs"]
    corp = game.corporations["21"]
    plain = game.track.tile_from_supply("58-0").tdef
    game.companies["C1"].owner = game.players[0]
    game.corporations["LNWR"].owner = game.players[0]
    # Neither C1's holder nor LNWR's director lays there freely.
    bound = game.tile_rotations(corp, hx, plain, None)
    assert bound and all(all(e in {(x + r) % 6 for x in plain.edges()} for e in stubs) for r in bound)
    assert len(bound) < len(lay_rotations(game, corp, hx, plain, None))


def test_a_player_repays_a_loan_in_a_stock_turn_then_may_bid() -> None:
    game = new_game()
    p1 = game.players[0]
    p1.debt = 30
    assert "bid" not in game.actions_for(p1)
    assert {"payoff_player_debt", "payoff_player_debt_partial"} <= set(game.actions_for(p1))
    cash = p1.cash
    game.process({"type": "payoff_player_debt_partial", "entity": 1, "entity_type": "player", "amount": 10})
    p1 = game.player_by_id(1)
    assert (p1.cash, p1.debt) == (cash - 10, 20)
    game.process({"type": "payoff_player_debt", "entity": 1, "entity_type": "player"})
    p1 = game.player_by_id(1)
    assert (p1.cash, p1.debt) == (cash - 30, 0)
    assert "bid" in game.actions_for(p1) and game.acting() == [p1]


def test_a_privates_train_is_never_sold_to_another_company() -> None:
    from engine.titles.g1822.steps import BuyTrain1822
    game = new_game()
    step = BuyTrain1822.__new__(BuyTrain1822)
    step.game = game
    pullman, local = game.all_trains["2P-0"], game.all_trains["L-0"]
    pullman.owner = local.owner = game.corporations["LYR"]
    assert not step.tradeable(pullman) and step.tradeable(local)


def own(corp: Corporation, company: Company) -> None:
    company.owner = corp
    corp.companies.append(company)


def token_step_of(game: G1822, corp: Corporation) -> Token1822:
    """The token step of ``corp``'s operating turn, without the rest of the round."""
    step = Token1822.__new__(Token1822)
    step.game, step.round = game, type("R", (), {"entity": lambda self: corp})()
    return step


def test_secr_stops_at_the_token_step_until_its_free_channel_station_is_used() -> None:
    game = new_game()
    secr = game.corporations["SECR"]
    step = token_step_of(game, secr)
    assert free_token_hexes(game, secr) == ["P43"] and free_token_hexes(game, game.corporations["LNWR"]) == []
    assert step.actions(secr) == ["place_token", "pass"]
    game.free_tokens_used.add("SECR")
    assert step.actions(secr) == []


def test_a_station_power_stops_holding_the_token_step_once_the_company_has_a_station_there() -> None:
    """18xx.games counts a station power unusable once its company stands in the hex (say after P5 put SECR in
    the English Channel): neither SECR's free station nor P5 then holds the token step."""
    game = new_game()
    secr = game.corporations["SECR"]
    own(secr, game.companies["P5"])
    game.exchange_tokens["SECR"] = 0
    step = token_step_of(game, secr)
    assert step.actions(secr) == ["place_token", "pass"]
    channel = game.board.hexes["P43"]
    token = next(t for t in secr.unused_tokens() if t is not secr.tokens[0])
    game.track.place_token(secr, token, channel, next(iter(channel.tile.tokens)), free=True)
    assert free_token_hexes(game, secr) == [] and not p5_holds_token_step(game, secr)
    assert step.actions(secr) == []


def test_a_second_permanent_private_train_must_be_discarded() -> None:
    game = new_game()
    lyr = game.corporations["LYR"]
    first, second, local = game.all_trains["2P-0"], game.all_trains["2P-1"], game.all_trains["L-0"]
    for train in (first, local):
        train.owner = lyr
        lyr.trains.append(train)
    assert lyr not in game.crowded_corporations()
    second.owner = lyr
    lyr.trains.append(second)
    assert game.crowded_corporations() == [lyr]
    assert discardable_trains(game, lyr) == [first, second]


def test_p11_lays_the_next_colour_over_plain_or_town_track_of_the_newest() -> None:
    game = new_game()
    p11, corp = game.companies["P11"], game.corporations["LNWR"]
    assert game.phase["tiles"] == ["yellow"]
    game.laying_private = p11
    try:
        assert game.phase["tiles"] == ["green"]
    finally:
        game.laying_private = None
    power = track_power(game, p11)
    # An empty hex is no upgrade of plain or town track.
    assert not track_power_allows(game, p11, corp, power, {"hex": "G34", "tile": "80-0", "rotation": 0})


def test_a_major_floating_in_phase_6_is_fully_capitalised() -> None:
    game = new_game()
    game.phase_index = next(i for i, ph in enumerate(game.phases) if ph["name"] == "6")
    event_full_capitalisation(game)
    corp = game.corporations["MR"]
    cell = next(c for c in game.market.par_cells() if c.price == 100)
    game.shares.set_par(corp, cell)
    corp.cash = 200  # what its first shares paid, incrementally
    bank = game.bank.cash
    unsold = sum(s.percent for s in corp.shares)
    game.float_corporation(corp)
    assert corp.cash == 1000 and game.bank.cash == bank + 200 - 1000
    assert corp.shares == [] and game.pool.percent_of("MR") == unsold


def test_p8s_discount_is_off_listed_hills_and_mountains() -> None:
    game = new_game()
    corp, p8 = game.corporations["23"], game.companies["P8"]
    p8.owner = corp
    corp.companies.append(p8)
    game.egr_choice["P8"] = "discount"
    tile = game.track.tile_from_supply("9-0")
    assert game.upgrade_cost(corp, game.board["C40"], tile) == 40  # a listed £60 hill
    assert game.upgrade_cost(corp, game.board["I14"], tile) == 60  # an £80 mountain
    assert game.upgrade_cost(corp, game.board["D39"], tile) == 40  # £40 rough ground: no discount


def test_shares_of_a_fully_capitalised_major_pay_the_bank_until_it_floats() -> None:
    game = new_game()
    event_full_capitalisation(game)
    corp, player = game.corporations["MR"], game.players[0]
    game.shares.set_par(corp, next(c for c in game.market.par_cells() if c.price == 100))
    bank, share = game.bank.cash, next(s for s in corp.shares if not s.president)
    game.shares.buy_shares(player, [share], 100)
    assert corp.cash == 0 and game.bank.cash == bank + 100


def test_a_redemption_settles_a_directorship_left_open_by_a_merger() -> None:
    game = new_game()
    corp = game.corporations["LNWR"]
    p1, p2 = game.players[0], game.players[1]
    game.shares.set_par(corp, next(c for c in game.market.par_cells() if c.price == 100))
    pres, *rest = corp.shares
    game.shares.transfer_share(pres, p1)
    corp.owner = p1
    for share in rest[:2]:
        game.shares.transfer_share(share, p2)  # as a minor's owner is paid in shares, with no change of director
    game.shares.transfer_share(rest[2], game.pool)
    corp.cash = 500
    redeem_shares(game, corp, [rest[2]])
    assert corp.owner is p2


def test_only_the_first_discarded_train_of_a_type_is_for_sale() -> None:
    from engine.titles.g1822.steps import BuyTrain1822
    game = new_game()
    step = BuyTrain1822.__new__(BuyTrain1822)
    step.game = game
    first, second = game.all_trains["3-3"], game.all_trains["3-2"]
    game.pool_trains.extend([first, second])
    assert step.offered_from_pool(first) and not step.offered_from_pool(second)


def test_an_emergency_sale_sorts_the_companies_still_to_operate(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.core.steps.trains import BuyTrain
    from engine.titles.g1822.steps import BuyTrain1822
    game = new_game()
    a, b, c = (game.corporations[s] for s in ("LNWR", "GWR", "MR"))
    monkeypatch.setattr(BuyTrain, "process_sell_shares", lambda self, action, entity: None)
    monkeypatch.setattr(G1822, "operating_order", lambda self: [a, c, b])
    step = BuyTrain1822.__new__(BuyTrain1822)
    step.game = game
    step.round = type("R", (), {"entities": [a, b, c], "entity_index": 0})()
    step.process_sell_shares({}, game.players[0])
    assert step.round.entities == [a, c, b]


def test_a_company_that_once_had_a_route_still_runs_when_it_has_none() -> None:
    from engine.titles.g1822.steps import Route1822
    game = new_game()
    corp, train = game.corporations["LNWR"], game.all_trains["3-0"]
    train.owner = corp
    corp.trains.append(train)
    step = Route1822.__new__(Route1822)
    step.game, step.round = game, type("R", (), {"entity": lambda self: corp})()
    step.pullman = None
    assert step.actions(corp) == []
    game.routes_seen.add("LNWR")
    assert step.actions(corp) == ["run_routes"]


def test_a_company_owns_one_e_train_at_most() -> None:
    from engine.titles.g1822.steps import BuyTrain1822
    game = new_game()
    corp, owned = game.corporations["LBSCR"], game.all_trains["7-0"]
    owned.choose_variant("E")
    owned.owner = corp
    corp.trains.append(owned)
    step = BuyTrain1822.__new__(BuyTrain1822)
    step.game = game
    with pytest.raises(GameError, match="one E train"):
        step.process_buy_train({"type": "buy_train", "train": "7-1", "price": 1000, "variant": "E"}, corp)


def test_no_second_station_is_offered_in_a_hex_where_the_company_has_one() -> None:
    game = new_game()
    corp = game.corporations["LNWR"]
    london = game.board["M38"]
    nodes = list(london.tile.tokens)
    london.tile.tokens[nodes[0]][0] = corp.sym
    # London's cities are separate stations, but 18xx.games offers none of them to a company already there.
    assert not any(offers_city(game, corp, london, n) for n in nodes)


def test_a_discarded_train_can_be_the_cheapest_a_director_must_raise_money_for() -> None:
    game = new_game()
    cheapest_new = game.min_depot_price()
    assert cheapest_new is not None
    used = game.all_trains["3-0"]
    game.depot.remove(used)
    used.price = cheapest_new - 10  # as a discarded train cheaper than every new one
    game.pool_trains.append(used)
    assert game.min_depot_price() == cheapest_new - 10


def test_a_seven_bought_as_an_e_train_starts_phase_7() -> None:
    game = new_game()
    game.phase_index = next(i for i, ph in enumerate(game.phases) if ph["name"] == "6")
    corp, train = game.corporations["NBR"], game.all_trains["7-0"]
    train.choose_variant("E")
    game.depot.remove(train)
    train.owner = corp
    corp.trains.append(train)
    game.on_new_train(corp, train)
    assert game.phase["name"] == "7" and train.name == "E"


def test_a_minor_with_only_an_e_train_does_not_run() -> None:
    from engine.titles.g1822.steps import Route1822
    game = new_game()
    minor, train = game.corporations["5"], game.all_trains["7-0"]
    train.choose_variant("E")
    train.owner = minor
    minor.trains.append(train)
    game.routes_seen.add("5")
    step = Route1822.__new__(Route1822)
    step.game, step.round = game, type("R", (), {"entity": lambda self: minor})()
    step.pullman = None
    assert step.actions(minor) == []


def test_a_majors_replacement_station_goes_only_where_its_track_reaches() -> None:
    from engine.titles.g1822.steps import PendingToken
    game = new_game()
    step = PendingToken.__new__(PendingToken)
    step.game = game
    london = game.board["M38"]
    node = next(iter(london.tile.tokens))
    assert step.reaches(game.corporations["14"], london, node)  # minor 14's home: any city of London
    assert not step.reaches(game.corporations["SECR"], london, node)  # SECR has no track yet


def test_a_free_private_lay_pays_no_estuary_crossing(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.titles.g1822.steps import SpecialTrack
    game = new_game(rules=["plus_expansion", "plus_expansion_no_removals"])
    corp, p21 = game.corporations["9"], game.companies["P21"]
    p21.owner = corp
    corp.companies.append(p21)
    seen: dict[str, int] = {}
    monkeypatch.setattr(TrackPart, "lay_tile", lambda self, c, a, **kw: seen.update(kw))
    monkeypatch.setattr("engine.titles.g1822.steps.track.track_power_allows", lambda *a: True)
    monkeypatch.setattr(G1822, "crossing_estimate", lambda self, c, hx, exits: 40)
    step = SpecialTrack.__new__(SpecialTrack)
    step.game, step.company = game, None
    step.round = type("R", (), {"entity": lambda self: corp, "steps": []})()
    monkeypatch.setattr(SpecialTrack, "lay_left", lambda self, power, action: True)
    with contextlib.suppress(StopIteration):  # no track step in this bare round: the lay is what is checked
        step.process_lay_tile({"hex": "N21", "tile": "6-0", "rotation": 0}, p21)
    assert seen["extra_cost"] == -(game.upgrade_cost(corp, game.board["N21"], game.track.tile_from_supply("6-0")) + 40)


def test_the_destination_check_walks_from_the_home_station_alone() -> None:
    from engine.core.graph import company_network
    game = new_game()
    hx = game.board["H5"]
    node = next(iter(hx.tile.tokens))
    hx.tile.tokens[node][0] = "LYR"  # another company's station is no start for NBR's walk
    net = company_network(game.board, "NBR", starts=frozenset({("H1", 0)}))
    assert net.token_nodes == {("H1", 0)} and ("H5", node) not in net.token_nodes


def test_p12_begun_after_one_own_lay_takes_the_second(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.titles.g1822.steps import SpecialTrack, Track1822
    game = new_game()
    corp, p12 = game.corporations["SECR"], game.companies["P12"]
    p12.owner = corp
    corp.companies.append(p12)
    monkeypatch.setattr(TrackPart, "lay_tile", lambda self, c, a, **kw: None)
    monkeypatch.setattr("engine.titles.g1822.steps.track.track_power_allows", lambda *a: True)
    track = Track1822.__new__(Track1822)
    track.lays, track.upgraded = 1, False
    step = SpecialTrack.__new__(SpecialTrack)
    step.game, step.company = game, None
    step.round = type("R", (), {"entity": lambda self: corp, "steps": [track]})()
    step.process_lay_tile({"hex": "N39", "tile": "8-0", "rotation": 2}, p12)
    assert track.lays == 2


def test_only_an_exchange_token_keeps_the_token_step_open_for_p18() -> None:
    game = new_game()
    nbr = game.corporations["NBR"]
    own(nbr, game.companies["P18"])
    step = token_step_of(game, nbr)
    game.exchange_tokens["NBR"] = 0
    assert step.actions(nbr) == []  # P18 could only move a station to the exchange area: no stop
    game.exchange_tokens["NBR"] = 1
    assert step.actions(nbr) == ["choose_ability", "pass"]


def test_an_unused_p5_holds_the_token_step_open_from_edition_2() -> None:
    """18xx.games stops at the token step of a company owning P5 (LC&DR) while the private's English Channel
    station power is unused, even with nowhere to place a station; games begun under edition 1 did not stop."""
    for edition, expected in ((2, ["place_token", "pass"]), (1, [])):
        game = G1822([(1, "P1"), (2, "P2"), (3, "P3")], 11, {"rules_edition": edition})
        nbr, p5 = game.corporations["NBR"], game.companies["P5"]
        own(nbr, p5)
        game.exchange_tokens["NBR"] = 0
        step = token_step_of(game, nbr)
        assert step.actions(nbr) == expected
        p5.closed = True
        assert step.actions(nbr) == []


def test_p5_places_an_exchange_token_in_the_english_channel_unreached_and_closes() -> None:
    game = new_game()
    nbr, p5 = game.corporations["NBR"], game.companies["P5"]
    own(nbr, p5)
    step = token_step_of(game, nbr)
    game.exchange_tokens["NBR"] = 0
    assert step.actions(p5) == []  # no exchange token left to place
    game.exchange_tokens["NBR"] = 2
    assert step.actions(p5) == ["place_token", "choose_ability"]
    (offer,) = step.choices(p5, "place_token")
    hx, node = game.track.city_by_id(offer["city"])
    assert hx.id == "P43" and ("P43", node) not in game.track.network(nbr).nodes
    left = len(nbr.unused_tokens())
    step.process_place_token(offer, p5)
    assert "NBR" in hx.tile.tokens[node] and game.exchange_tokens["NBR"] == 1
    assert len(nbr.unused_tokens()) == left and p5.closed  # an exchange token, not one of its own
    with pytest.raises(GameError):
        step.process_place_token(offer, p5)


def test_a_destination_station_sends_the_companys_other_station_in_that_city_home_from_edition_2() -> None:
    for edition, stations in ((2, ["destination"]), (1, ["normal", "destination"])):
        game = G1822([(1, "P1"), (2, "P2"), (3, "P3")], 11, {"rules_edition": edition})
        nbr = game.corporations["NBR"]
        hx = game.board.hexes[nbr.data["destination"]]
        node = next(iter(hx.tile.tokens))
        token = next(t for t in nbr.unused_tokens() if t.kind is TokenKind.NORMAL and t is not nbr.tokens[0])
        game.track.place_token(nbr, token, hx, node, free=True)
        place_destination_token(game, nbr)
        remove_extra_tokens(game, hx)
        held = [t.kind.value for t in nbr.tokens if t.used and t.hex == hx.id]
        assert sorted(held) == sorted(stations)
        assert hx.tile.tokens[node].count("NBR") == len(stations)
        assert len(hx.tile.tokens[node]) == hx.tile.tdef.nodes[node].slots or edition == 1
        if edition == 2:
            assert not token.used and token.price == 100


def test_a_station_in_an_added_space_takes_a_free_printed_space_on_upgrade() -> None:
    game = new_game()
    hx = game.board["L19"]
    tile = game.track.tile_from_supply("14-0")
    tile.tokens[0] = [None, None, "MR"]
    tile.kinds[0].append(tile.kinds[0][0])
    hx.tile = tile
    game.after_tile_laid(game.corporations["MR"], hx, tile, 0)
    assert tile.tokens[0][:2].count("MR") == 1 and len(tile.tokens[0]) == 2


def test_p21s_lays_cross_the_humber_estuary_from_edition_3() -> None:
    """18xx.games refuses a P21 (Humber bridge) lay that crosses no estuary crossing still unbuilt; games begun
    under edition 2 keep the lays they could make."""
    for edition in (2, 3):
        game = G1822([(i + 1, f"P{i + 1}") for i in range(3)], 11,
                     {"optional_rules": ["plus_expansion"], "rules_edition": edition})
        corp, p21 = game.corporations["9"], game.companies["P21"]
        grimsby = game.board["N23"]
        game.track.place_token(corp, corp.tokens[0], grimsby, next(iter(grimsby.tile.tokens)), free=True)
        (water,) = [e for e, b in grimsby.borders.items() if b.kind == "water"]
        power = track_power(game, p21)
        for rotation in range(6):
            lay = {"hex": "N23", "tile": "5-0", "rotation": rotation}
            crosses = water in {(e + rotation) % 6 for e in game.track.tile_from_supply("5-0").tdef.edges()}
            assert track_power_allows(game, p21, corp, power, lay) == (crosses or edition == 2)


def test_an_exchanged_minor_station_takes_the_added_space_with_it_from_edition_3() -> None:
    """A destination station in a full city gets a space of its own; when the minor filling the city is acquired
    and its station exchanged, 18xx.games removes that space with the minor's station, so the city is full again
    (and blocks other companies' routes)."""
    for edition, after in ((3, ["CR"]), (2, [None, "CR"])):
        game = G1822([(1, "P1"), (2, "P2"), (3, "P3")], 11, {"rules_edition": edition})
        cr = game.corporations["CR"]
        hx = game.board.hexes[cr.data["destination"]]  # G12: a city of one space
        node = next(iter(hx.tile.tokens))
        assert len(hx.tile.tokens[node]) == 1
        minor = next(c for c in game.corporations.values() if c.kind.value == "minor" and c.home != hx.id)
        game.track.place_token(minor, minor.tokens[0], hx, node, free=True)
        place_destination_token(game, cr)
        assert hx.tile.tokens[node] == [minor.sym, "CR"]
        remove_minor_station(game, minor, minor.tokens[0])  # what a floated minor's acquisition does with it
        assert hx.tile.tokens[node] == after and not minor.tokens[0].used
        (dest,) = [t for t in cr.tokens if t.used and t.hex == hx.id]
        assert hx.tile.tokens[node][dest.slot] == "CR"


def test_minor_14_not_yet_started_holds_londons_last_unreserved_space_from_edition_3() -> None:
    for edition in (3, 2):
        game = G1822([(1, "P1"), (2, "P2"), (3, "P3")], 11, {"rules_edition": edition})
        london = game.board.hexes[game.rules["london"]]
        nbr = game.corporations["NBR"]
        game.corporations["16"].closed = True  # its London city is no longer reserved: the one unreserved space
        open_cities = [node for node, slots in london.tile.tokens.items()
                       if any(s is None and i not in game.reserved_slots(london, node) for i, s in enumerate(slots))]
        assert len(open_cities) == 1
        assert game.can_token_city(nbr, london, open_cities[0]) == (edition < 3)
        game.corporations["14"].closed = True  # no longer waiting for its London station
        assert game.can_token_city(nbr, london, open_cities[0])
