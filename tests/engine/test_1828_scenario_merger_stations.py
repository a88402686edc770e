"""1828: a merger whose two companies have stations in different cities of one hex (rules 7.5.2). The new system
keeps one and removes the other, which a blocking marker replaces; only then does the share exchange go on.

No seeded game has met it yet (two companies must station the same two-city hex and then merge), so the position is
the recorded merger of GT and IC (../shared/fixtures/1828/23366.json, actions 234-235) with a GT station placed in
one city of D14 and an IC station in the other before the merger starts."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.core.tiles import TokenKind
from engine.core.transfer import BLOCKING_OWNER
from engine.titles.g1828.game import G1828
from engine.titles.g1828.stock import RemoveTokens
from tests.engine.test_1828_rules import GAME_A, before

START = {"type": "choose", "entity": 5518, "entity_type": "player", "choice": "GT"}
MERGE = {"type": "merge", "entity": "GT", "entity_type": "corporation", "corporation": "IC"}


def _merging_with_stations_in_both_cities_of_d14() -> G1828:
    assert GAME_A.exists(), f"the recorded game {GAME_A} is missing"
    game = before(GAME_A, 234)
    gt, ic = game.corporations["GT"], game.corporations["IC"]
    d14 = game.board["D14"]
    assert d14.tile.tdef.cities == (0, 1)  # two cities in one hex
    game.track.place_token(gt, gt.tokens[1], d14, 0, free=True)
    game.track.place_token(ic, ic.tokens[1], d14, 1, free=True)
    game._checkpoint = None  # a refused action must restore this position, not the recorded one
    game.process(dict(START))
    game.process(dict(MERGE))
    return game


def _remove(game: G1828, city: str, slot: int = 0) -> None:
    game.process({"type": "remove_token", "entity": "GT-IC", "entity_type": "system", "city": city, "slot": slot})


def test_a_system_with_two_stations_in_one_hex_removes_one_before_the_exchange() -> None:
    game = _merging_with_stations_in_both_cities_of_d14()
    system = game.corporations["GT-IC"]
    assert isinstance(game.round.active_step(), RemoveTokens)
    assert game.acting() == [system]  # the exchange waits: no player has a decision yet
    offered = query.choices(game, system, "remove_token")
    assert sorted((c["city"], c["slot"]) for c in offered) == [("D14-0-0", 0), ("D14-0-1", 0)]
    assert query.choices(game, game.player_by_id(648), "choose") == []

    _remove(game, "D14-0-1")
    d14 = game.board["D14"]
    assert d14.tile.tokens[1] == [BLOCKING_OWNER] and d14.tile.kinds[1] == [TokenKind.BLOCKING]
    assert d14.tile.tokens[0] == ["GT-IC"]  # the other station stays the system's
    assert [t.hex for t in system.tokens if t.used].count("D14") == 1
    # The merger goes on as recorded: Player 1 picks the odd share to keep (action 236).
    assert not isinstance(game.round.active_step(), RemoveTokens)
    assert game.acting() == [game.player_by_id(648)]
    assert {c["choice"] for c in query.choices(game, game.player_by_id(648), "choose")} == {"GT", "IC"}


def test_a_station_removal_must_name_a_station_of_the_system_in_a_hex_it_shares() -> None:
    game = _merging_with_stations_in_both_cities_of_d14()
    home = next(t for t in game.corporations["GT-IC"].tokens if t.used and t.hex != "D14")
    with pytest.raises(GameError, match=f"GT-IC has no second station to remove in {home.hex}"):
        _remove(game, f"{game.board[home.hex].tile.id}-{home.node}", home.slot)
    with pytest.raises(GameError, match="there is no GT-IC station in that space"):
        _remove(game, "D14-0-0", slot=1)
    assert isinstance(game.round.active_step(), RemoveTokens)  # nothing changed: the removal is still owed
    assert game.board["D14"].tile.tokens == {0: ["GT-IC"], 1: ["GT-IC"]}
