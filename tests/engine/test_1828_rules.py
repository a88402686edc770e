"""1828's own rules on states of the recorded games: a merger into a system and its shells, a merger that fails
and is recorded as failed, coal markers and the coalfields, and the C&P minor."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import actions as act
from engine.core import query
from engine.core.entities import CorporationKind
from engine.core.errors import GameError
from engine.core.transfer import BLOCKING_OWNER
from engine.importer import read_game_file
from engine.titles import title_class
from engine.titles.g1828 import coal, merger_exchange, privates, routes, shells, stations, systems
from engine.titles.g1828.game import G1828
from engine.titles.g1828.merger import Merger
from tests.conftest import SHARED_FIXTURES

GAME_A = SHARED_FIXTURES / "1828" / "23366.json"
GAME_B = SHARED_FIXTURES / "1828" / "1828Games_game_end_stock_market.json"
pytestmark = pytest.mark.skipif(not (GAME_A.exists() and GAME_B.exists()), reason="1828 recorded games absent")


def before(path: Path, action_id: int) -> G1828:
    """The game of a recorded file with every standing action before ``action_id`` applied."""
    gf = read_game_file(path)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    for action in act.filter_undo(gf.actions):
        if int(action["id"]) >= action_id:
            break
        game.process(action)
    assert isinstance(game, G1828)
    return game


def test_merger_forms_a_system_with_two_shells() -> None:
    game = before(GAME_A, 236)  # Player 4 started GT + IC (ids 234, 235); Player 1 now picks an odd share
    system = game.corporations["GT-IC"]
    assert system.kind is CorporationKind.SYSTEM and system.ipoed
    assert game.market.location["GT-IC"].price == 109  # 18xx.games' log: "New share price is $109"
    shells = {s.name: [t.id for t in s.trains] for s in game.shells["GT-IC"]}
    assert shells == {"GT": ["2-0", "2-2", "3-3"], "IC": ["2-3", "3-4"]}
    assert all(t.owner is system for t in system.trains)
    assert game.acting() == [game.player_by_id(648)]
    assert {c["choice"] for c in query.choices(game, game.player_by_id(648), "choose")} == {"GT", "IC"}
    game.process({"type": "choose", "entity": 648, "entity_type": "player", "choice": "IC"})
    assert game.corporations["GT"].closed and game.corporations["IC"].closed
    assert system.treasury.percent_of("GT-IC") == 10  # the president's donated share
    assert sum(h.percent_of("GT-IC") for h in game._holders()) == 100
    assert system.owner is game.player_by_id(5518)


def test_system_moves_trains_between_shells_and_names_the_shell_of_a_new_train() -> None:
    game = before(GAME_A, 474)
    system = game.corporations["CPR-MC"]
    train = game.all_trains["6-0"]
    old = shells.shell_of(game, system, train)
    game.process({"type": "swap_train", "entity": "CPR-MC", "entity_type": "system", "train": "6-0"})
    new = shells.shell_of(game, system, train)
    assert old is not None and new is not None and new is not old
    assert sorted(s.name for s in game.shells["CPR-MC"]) == ["CPR", "MC"]


def test_buying_a_train_for_a_system_needs_a_shell_with_room() -> None:
    game = before(GAME_A, 324)  # CPR-MC buys a 3+D for its CPR shell
    action = {"type": "buy_train", "entity": "CPR-MC", "entity_type": "system", "train": "3+D-1", "price": 350}
    with pytest.raises(GameError, match="shell"):
        game.process(dict(action))
    game.process({**action, "shell": "CPR"})
    cpr = next(s for s in game.shells["CPR-MC"] if s.name == "CPR")
    assert game.all_trains["3+D-1"] in cpr.trains


def test_failed_merger_is_undone_and_recorded() -> None:
    game = before(GAME_B, 192)
    player = game.player_by_id(11345)
    game.process({"type": "choose", "entity": 11345, "entity_type": "player", "choice": "NYH"})
    game.process({"type": "merge", "entity": "NYH", "entity_type": "corporation", "corporation": "OSH"})
    merger = next(s for s in game.round.steps if isinstance(s, Merger))
    while merger.state != "failed":
        decider = query.deciding_entities(game)[0]
        game.process(query.all_choices(game, decider)[0])
    assert game.actions_for(player) == ["failed_merge"]
    [undo] = query.choices(game, player, "failed_merge")
    assert undo["type"] == "undo"
    game.process(undo)
    player = game.player_by_id(11345)  # the state was rebuilt from the log
    assert "NYH-OSH" not in game.corporations
    assert not game.corporations["NYH"].closed and not game.corporations["OSH"].closed
    assert query.choices(game, player, "choose") == []
    [failed] = query.choices(game, player, "failed_merge")
    assert failed["corporations"] == ["NYH", "OSH"]
    game.process(failed)
    # The failed merger was the turn's action: no other merger, and only the gray zone's second buy remains.
    assert "choose" not in game.actions_for(player)
    for choice in query.choices(game, player, "buy_shares"):
        corp = game.corporations[choice["shares"][0].rsplit("_", 1)[0]]
        assert corp.owner is player and game.market.location[corp.sym].zone == "gray"


def test_coal_marker_opens_the_coalfields() -> None:
    game = before(GAME_A, 164)  # IC buys a coal marker
    ic = game.corporations["IC"]
    coalfields = game.board["K11"]
    assert coalfields.passable_only_by is not None and "IC" not in coalfields.passable_only_by
    with pytest.raises(GameError, match="coal marker"):
        routes.check_route(game, ic, {"K11", "J10"}, {"K11"}, [])
    on_fields = game.coal_on_fields
    game.process({"type": "special_buy", "entity": "IC", "entity_type": "corporation", "description": "Coal Marker",
                  "cost": 120})
    assert coal.has_coal(ic) and game.coal_on_fields == on_fields - 1
    assert coalfields.passable_only_by is not None and "IC" in coalfields.passable_only_by
    routes.check_route(game, ic, {"K11", "J10"}, {"K11"}, [])
    with pytest.raises(GameError):
        game.process({"type": "special_buy", "entity": "IC", "entity_type": "corporation",
                      "description": "Coal Marker", "cost": 120})


def test_the_cp_minor_runs_from_its_new_tile_and_pays_half() -> None:
    game = before(GAME_A, 54)
    minor = game.corporations["C&P"]
    owner = minor.owner
    assert owner is not None and minor.kind is CorporationKind.MINOR and not minor.shares
    cash = owner.cash
    game.process({"type": "run_routes", "entity": "C&P", "entity_type": "minor", "routes": [
        {"train": "2-1", "connections": [["C15", "C17", "C19"]], "hexes": ["C19", "C15"], "revenue": 30}]})
    assert minor.cash == 15 and owner.cash == cash + 15


def test_a_system_keeps_its_members_home_reservations_until_it_places_them() -> None:
    """NW and WAB merge before either operated: WAB's home space in H6 stays reserved for the system (no other
    company may take it) until the system first operates and places both homes (as 18xx.games does)."""
    game = title_class("1828")([(1, "a"), (2, "b"), (3, "c")], 5, {})
    assert isinstance(game, G1828)
    nw, wab, prr = game.corporations["NW"], game.corporations["WAB"], game.corporations["PRR"]
    for corp in (nw, wab):
        game.shares.set_par(corp, game.market.par_cells()[0])
        corp.ipoed = True
    system = systems.create_system(game, [nw, wab])
    for corp in (nw, wab):
        systems.close_member(game, corp)
    h6 = game.board["H6"]
    city = h6.tile.tdef.cities[0]
    assert game.reserved_slots(h6, city) == {0: "NW-WAB"}
    assert not game.can_token_city(prr, h6, city)
    stations.place_system_homes(game, system)
    assert h6.tile.tokens[city] == ["NW-WAB"]
    assert game.reserved_slots(h6, city) == {}


def _fresh_game() -> G1828:
    game = title_class("1828")([(1, "a"), (2, "b"), (3, "c")], 5, {})
    assert isinstance(game, G1828)
    return game


def test_a_second_station_in_one_city_goes_back_to_the_system_charter() -> None:
    """Rules 7.5.2: where both companies had a station in one city, a blocking marker takes one space and the
    removed station returns to the system's charter (it can be placed again)."""
    from engine.core.tiles import TokenKind
    game = _fresh_game()
    nw, wab = game.corporations["NW"], game.corporations["WAB"]
    hx = game.board["H6"]
    node = hx.tile.tdef.cities[0]
    hx.tile.tokens[node].append(None)  # a second space, as a green city would have
    hx.tile.kinds[node].append(TokenKind.NORMAL)
    for corp in (nw, wab):
        game.shares.set_par(corp, game.market.par_cells()[0])
        corp.ipoed = True
        game.track.place_token(corp, corp.tokens[0], hx, node, free=True)
    total = len(nw.tokens) + len(wab.tokens)
    system = systems.create_system(game, [nw, wab])
    assert len(system.tokens) == total
    assert sum(1 for t in system.tokens if t.used) == 1
    assert system.sym in hx.tile.tokens[node] and BLOCKING_OWNER in hx.tile.tokens[node]
    assert hx.tile.kinds[node].count(TokenKind.BLOCKING) == 1


def test_a_home_held_somewhere_in_dunkirk_and_buffalo_closes_the_hex_to_other_stations() -> None:
    """ERIE's home is one of E15's two cities, its president's choice: until ERIE (or a system it joined) places
    it, no other company may station in either city, free spaces or not (as 18xx.games does)."""
    game = _fresh_game()
    erie, prr = game.corporations["ERIE"], game.corporations["PRR"]
    game.shares.set_par(erie, game.market.par_cells()[0])
    erie.ipoed = True
    e15 = game.board["E15"]
    assert all(not game.can_token_city(prr, e15, node) for node in e15.tile.tdef.cities)
    assert game.token_blocked_by_reservation(e15, "PRR") and not game.token_blocked_by_reservation(e15, "ERIE")


def test_after_an_emergency_sale_a_train_from_another_company_costs_at_most_its_face_value() -> None:
    """18xx.games' 1828: once the president sold shares for a train, another company's train costs at most its
    face value and enough to need that sale, even when the treasury alone could pay more."""
    game = _fresh_game()
    corp = game.corporations["MC"]
    player = game.players[0]
    corp.owner = player
    corp.cash, player.cash = 850, 40
    train = next(t for t in game.depot if t.name == "6")
    assert game.other_train_price_range(corp, train) == (1, 850)
    low, high = game.other_train_price_range(corp, train, last_sale_price=60)
    assert (low, high) == (831, 650) and low > high  # no price works: sell more or buy from the depot


def test_a_company_that_once_had_a_route_keeps_running() -> None:
    """18xx.games remembers a company once had a route: its route step still waits (it may run for nothing) and,
    without trains, it must still buy one, after track or stations cut the route off."""
    game = _fresh_game()
    corp = game.corporations["PRR"]
    assert not game.track.network(corp).route_possible and not game.trains.route_available(corp)
    game.routes_seen.add(corp.sym)
    assert game.trains.route_available(corp) and game.must_buy_train(corp)


def test_a_pair_takes_the_first_system_certificate_left_even_the_directors() -> None:
    """Rule 7.5.2 trades a pair for "single shares of the new system"; 18xx.games hands out the first certificate
    left in the system's IPO, the director's too (docs/conformance.md: we follow it)."""
    game = before(GAME_A, 236)  # GT + IC are merging
    step = next(s for s in game.round.steps if isinstance(s, Merger))
    system = step.system
    assert system is not None
    # As before any director's certificate is traded: the system's own is still first in its IPO.
    director = system.shares_of(system.sym)[0] if system.shares_of(system.sym) else None
    if director is None or not director.president:
        director = next(s for h in game._holders() for s in h.shares if s.corp == system.sym and s.president)
        game.shares.transfer_share(director, system)
        system.shares.remove(director)
        system.shares.insert(0, director)
    player = game.players[2]
    assert not player.shares_of(system.sym)
    for corp in ("GT", "IC"):
        game.shares.transfer_share(next(s for s in game.corporations[corp].shares if not s.president), player)
    waiting, step.player_choice = step.player_choice, None  # Player 1's odd share is still to choose
    merger_exchange.exchange_pairs(step, player)
    step.player_choice = waiting
    assert player.percent_of(system.sym) == 20  # two shares for one pair (Player 4, with more, stays director)


def test_the_markets_shares_are_discarded_once_no_system_share_is_left() -> None:
    """Rules 7.5.2.1: "If there are no remaining system shares for the bank pool or IPO to trade up to, the shares
    to be traded are discarded." (18xx.games stops with an error there; docs/conformance.md.)"""
    game = before(GAME_A, 236)  # GT + IC are merging; the market holds IC_5
    step = next(s for s in game.round.steps if isinstance(s, Merger))
    assert step.system is not None
    keeper = game.players[0]
    for share in list(merger_exchange.system_shares(step)):
        game.shares.transfer_share(share, keeper)  # the trades have used every system share up
    gt_share = next(s for p in game.players for s in p.shares if s.corp == "GT" and not s.president)
    game.shares.transfer_share(gt_share, game.pool)
    merger_exchange.exchange_pairs(step, game.pool)
    merger_exchange.exchange_singles(step, game.pool)
    assert not [s for s in game.pool.shares if s.corp in ("GT", "IC")]
    assert {"IC_5", gt_share.id} <= {s.id for s in step.discard.shares}


def _short_merger(left: int) -> G1828:
    """GT + IC merging (the market holds IC_5, GT's IPO three GT shares) with only ``left`` system shares left,
    as after a trade worth one share took the director's certificate; Player 1 picks an odd share."""
    game = before(GAME_A, 236)
    step = next(s for s in game.round.steps if isinstance(s, Merger))
    for share in merger_exchange.system_shares(step)[left:]:
        game.shares.transfer_share(share, game.players[1])
    return game


def test_a_merger_offers_only_what_18xx_games_can_finish_and_else_its_undo() -> None:
    """18xx.games stops with an error once the system must hand out a share it has no more of; its players then
    pick another option or undo the merger, and we offer the same (docs/conformance.md)."""
    game = _short_merger(1)  # either odd share leaves the market's IC_5 without a system share
    player = game.player_by_id(648)
    assert [c["type"] for c in query.choices(game, player, "choose")] == ["undo"]
    [undo] = query.choices(game, player, "choose")
    assert undo["action_id"] == game.round.merge_start_id  # type: ignore[attr-defined]

    game = _short_merger(2)
    third = next(p for p in game.players if p.name == "Player 3")
    game.shares.transfer_share(next(s for s in game.corporations["IC"].shares if not s.president), third)
    player = game.player_by_id(648)
    assert {c["choice"] for c in query.choices(game, player, "choose")} == {"GT", "IC"}
    game.process({"type": "choose", "entity": 648, "entity_type": "player", "choice": "GT"})
    # Player 3 trading his IC share up would take the last system share, which the market's IC_5 needs.
    assert [c["choice"] for c in query.choices(game, third, "choose")] == ["Sell"]
    # A game stored before still loads: the option not offered is taken as the rules say (rule 7.5.2.1).
    game.process({"type": "choose", "entity": third.id, "entity_type": "player", "choice": "Exchange"})
    assert game.corporations["GT"].closed and not game.pool.shares_of("IC") and not game.pool.shares_of("GT")


def test_a_system_holds_one_space_for_its_first_members_home() -> None:
    """WAB merges GT before either operated: the system holds one space in H6 (WAB's home), not two."""
    from engine.core.tiles import TokenKind
    game = _fresh_game()
    wab, gt, prr = game.corporations["WAB"], game.corporations["GT"], game.corporations["PRR"]
    for corp in (wab, gt):
        game.shares.set_par(corp, game.market.par_cells()[0])
        corp.ipoed = True
    systems.create_system(game, [wab, gt])
    for corp in (wab, gt):
        systems.close_member(game, corp)
    h6 = game.board["H6"]
    city = h6.tile.tdef.cities[0]
    h6.tile.tokens[city].append(None)  # two spaces, as a green city has
    h6.tile.kinds[city].append(TokenKind.NORMAL)
    assert game.reserved_slots(h6, city) == {0: "WAB-GT"}
    assert game.can_token_city(prr, h6, city)


def test_m_and_h_bringing_a_player_to_20_percent_of_the_unparred_prr_makes_them_its_director() -> None:
    """The C&A's 10% of the PRR plus the M&H exchanged for another: the player swaps the two for the director's
    certificate and presides the unparred PRR; whoever pars it buys an ordinary share at par (18xx.games)."""
    game = _fresh_game()
    a, b = game.players[0], game.players[1]
    prr, mh = game.corporations["PRR"], game.companies["M&H"]
    game.shares.transfer_share(game.share_by_id("PRR_1"), a)
    mh.owner = a
    a.companies.append(mh)
    privates.exchange_company(game, mh, game.share_by_id("PRR_2"))
    held = a.shares_of("PRR")
    assert [s.percent for s in held] == [20] and held[0].president and prr.owner is a and not prr.ipoed
    cash = b.cash
    cell = game.market.par_cells()[0]
    game.shares.par_corporation(b, prr, cell)
    assert [s.percent for s in b.shares_of("PRR")] == [10] and b.cash == cash - cell.price
    assert prr.owner is a


def test_a_merger_closes_the_members_250_privates_when_trains_change_hands() -> None:
    """18xx.games hands the members' trains to the system as purchases, so the $250 private of a member closes at
    the merger as it would when its company buys a train."""
    from engine.core.abilities import Close
    game = _fresh_game()
    private = next(c for c in game.companies.values() if c.value == 250 and not c.closed)
    sym = next(a.corporation for a in private.abilities_of(Close))
    assert sym is not None
    corp = game.corporations[sym]
    other = next(c for c in game.corporations.values()
                 if c.kind is CorporationKind.MAJOR and c.sym != sym and c.home not in (None, corp.home))
    private.owner = game.players[0]
    game.players[0].companies.append(private)
    train = next(t for t in game.depot if t.name == "2")
    game.depot.remove(train)
    train.owner = corp
    corp.trains.append(train)
    for c in (corp, other):
        game.shares.set_par(c, game.market.par_cells()[0])
        c.ipoed = True
    systems.create_system(game, [corp, other])
    assert private.closed and private not in game.players[0].companies


# The D&H (rules 13.2.2.4). In GAME_A's OR 3.2 (green phase) MP owns the D&H and starts its track step with $325;
# Scranton (F20) is still the printed city.
def _dh(game: G1828, kind: str, **fields: object) -> dict[str, object]:
    return {"type": kind, "entity": "D&H", "entity_type": "company", **fields}


def _tile(game: G1828, name: str) -> str:
    return next(t.id for t in game.tile_supply.values() if t.name == name)


def test_the_dh_lays_in_scranton_as_its_companys_lay_and_places_a_free_station() -> None:
    game = before(GAME_A, 170)
    mp, dh, f20 = game.corporations["MP"], game.companies["D&H"], game.board["F20"]
    assert game.round.entity() is mp and mp.cash == 325 and f20.tile is f20.original
    offered = query.all_choices(game, dh)
    assert {(c["hex"], c["tile"].rsplit("-", 1)[0]) for c in offered} == {("F20", "57")}
    assert query.reference_choices(game, dh) == []  # 18xx.games never offers it: oracle playouts leave it out
    bank = game.bank.cash
    game.process(_dh(game, "lay_tile", hex="F20", tile=offered[0]["tile"], rotation=offered[0]["rotation"]))
    assert f20.tile.name == "57"  # off MP's network, for $120 and no mountain cost
    assert mp.cash == 205 and game.bank.cash == bank + 120
    # The free station comes at once, before anything else, and is MP's station of the round.
    assert game.acting() == [dh] and set(game.actions_for(dh)) == {"place_token", "pass"}
    [station] = query.choices(game, dh, "place_token")
    assert query.reference_choices(game, dh) == []
    game.process(station)
    assert "MP" in f20.tile.tokens[f20.tile.tdef.cities[0]] and mp.cash == 205
    assert "place_token" not in game.actions_for(mp)
    assert not dh.closed and dh.owner is mp  # the private stays: it closes only with the red phase
    # It was MP's lay: MP has none left this turn.
    with pytest.raises(GameError):
        game.process({"type": "lay_tile", "entity": "MP", "entity_type": "corporation", "hex": "I3", "tile": "14-1",
                      "rotation": 0})


def test_the_dh_may_lay_without_the_station_and_the_company_keeps_its_own_station() -> None:
    game = before(GAME_A, 170)
    dh, f20 = game.companies["D&H"], game.board["F20"]
    game.process(_dh(game, "lay_tile", hex="F20", tile=_tile(game, "57"), rotation=1))
    game.process(_dh(game, "pass"))
    assert all("MP" not in slots for slots in f20.tile.tokens.values()) and not game.lay_station_owed
    assert game.actions_for(dh) == [] and game.corporations["MP"].cash == 205
    assert "MP" not in game.tokened_this_round  # its station of the round is still to place
    with pytest.raises(GameError, match="D&H cannot place token now"):
        game.process(_dh(game, "place_token", city=f"{f20.tile.id}-0", slot=0))


def test_the_dh_upgrades_scranton_as_its_companys_upgrade() -> None:
    game = before(GAME_A, 170)
    mp, dh, f20 = game.corporations["MP"], game.companies["D&H"], game.board["F20"]
    game.track.lay_tile(game.corporations["PRR"], {"hex": "F20", "tile": _tile(game, "57"), "rotation": 0},
                  check_connection=False, free_terrain=True)
    offered = query.all_choices(game, dh)
    assert offered and all(game.track.tile_from_supply(c["tile"]).colour == "green" for c in offered)
    game.process(offered[0])
    assert f20.tile.colour == "green" and mp.cash == 205
    assert game.round.upgraded_track  # type: ignore[attr-defined]


def test_the_dh_refuses_what_the_rules_do_not_allow() -> None:
    """Each refusal restores the state from a snapshot, so objects are looked up again after one."""
    game = before(GAME_A, 170)
    tile = _tile(game, "57")
    with pytest.raises(GameError, match="only in F20"):
        game.process(_dh(game, "lay_tile", hex="H4", tile=tile, rotation=0))
    with pytest.raises(GameError, match="cannot be laid on F20"):
        game.process(_dh(game, "lay_tile", hex="F20", tile=_tile(game, "14"), rotation=0))
    # After MP's own lay it has no lay left for the D&H.
    game.process({"type": "lay_tile", "entity": "MP", "entity_type": "corporation", "hex": "I3", "tile": "14-1",
                  "rotation": 0})
    assert game.actions_for(game.companies["D&H"]) == []
    with pytest.raises(GameError, match="D&H cannot lay tile now"):
        game.process(_dh(game, "lay_tile", hex="F20", tile=tile, rotation=0))
    # $120 is needed.
    poor = before(GAME_A, 170)
    poor.corporations["MP"].cash = 119
    assert query.all_choices(poor, poor.companies["D&H"]) == []
    with pytest.raises(GameError, match=r"cannot pay \$120"):
        poor.process(_dh(poor, "lay_tile", hex="F20", tile=tile, rotation=0))
    # Owned by a player, it only blocks Scranton.
    early = before(GAME_A, 146)
    assert early.companies["D&H"].owner is not None and early.actions_for(early.companies["D&H"]) == []
    with pytest.raises(GameError):
        early.process(_dh(early, "lay_tile", hex="F20", tile=tile, rotation=0))


def test_the_dh_station_needs_a_station_left_and_none_placed_this_round() -> None:
    game = before(GAME_A, 170)
    dh, f20 = game.companies["D&H"], game.board["F20"]
    game.tokened_this_round.add("MP")
    game.process(_dh(game, "lay_tile", hex="F20", tile=_tile(game, "57"), rotation=0))
    assert not game.lay_station_owed and game.actions_for(dh) == []
    assert all("MP" not in slots for slots in f20.tile.tokens.values())
    other = before(GAME_A, 170)
    other.process(_dh(other, "lay_tile", hex="F20", tile=_tile(other, "57"), rotation=0))
    with pytest.raises(GameError, match="goes in F20"):
        other.process(_dh(other, "place_token", city=f"{other.board['I3'].tile.id}-0", slot=0))
    with pytest.raises(GameError, match="no station space 7"):
        other.process(_dh(other, "place_token", city=f"{other.board['F20'].tile.id}-0", slot=7))
    assert other.lay_station_owed == {"D&H": "F20"} and other.corporations["MP"].cash == 205
