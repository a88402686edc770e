"""1882 rules no seeded game happened to reach (engine.rule_coverage lists them): the SC's extra train, and the
refusals of the North West Rebellion private's station move and tile lay."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.core.game import Game

from .test_1882_nwr import game_where_nwr_can_move_a_station, nwr_choices
from .test_1882_scenarios import finish_auction, three_players


def sc_owner_to_act() -> tuple[Game, Any]:
    g = three_players()
    finish_auction(g)
    owner = g.companies["SC"].owner
    while g.acting()[0] is not owner:
        g.process(query.choices(g, g.acting()[0], "pass")[0])
    return g, owner


def test_sc_parred_while_3s_are_on_sale_adds_its_set_aside_3_to_the_depot() -> None:
    g, owner = sc_owner_to_act()
    g.depot = [t for t in g.depot if t.name != "2"]  # the 2s are sold: 3s are on sale
    threes = [t.id for t in g.depot if t.name == "3"]
    reserved = g.sc_reserve["3"]  # type: ignore[attr-defined]
    g.process(next(c for c in query.choices(g, owner, "par") if c["corporation"] == "SC"))
    assert [t.id for t in g.depot if t.name == "3"] == [reserved.id, *threes]
    assert not reserved.reserved and "3" not in g.sc_reserve  # type: ignore[attr-defined]
    assert "SC adds an extra 3 train to the depot" in g.log_lines


def test_sc_parred_while_2s_are_on_sale_adds_no_train() -> None:
    g, owner = sc_owner_to_act()
    depot = [t.id for t in g.depot]
    g.process(next(c for c in query.choices(g, owner, "par") if c["corporation"] == "SC"))
    assert [t.id for t in g.depot] == depot and set(g.sc_reserve) == {"3", "4", "5", "6"}  # type: ignore[attr-defined]


def nwr(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "entity": "NWR", "entity_type": "company", **fields}


def test_nwr_moves_only_its_owners_station_and_not_one_already_in_the_nwr_area() -> None:
    g = game_where_nwr_can_move_a_station()
    owner = g.companies["NWR"].owner
    assert owner is g.corporations["CPR"]
    with pytest.raises(GameError, match="only a CPR station can be moved"):
        g.process(nwr("remove_token", city=g.board["G11"].tile.id + "-0", slot=0))  # HBR's
    cpr = g.corporations["CPR"]
    g.track.place_token(cpr, next(t for t in cpr.tokens if not t.used), g.board["C3"], 0, free=True)
    with pytest.raises(GameError, match="a station already in an NWR hex cannot be moved"):
        g.process(nwr("remove_token", city=g.board["C3"].tile.id + "-0", slot=0))


def test_nwr_places_the_station_only_in_a_free_nwr_city_and_lays_only_there() -> None:
    g = game_where_nwr_can_move_a_station()
    g.process(nwr_choices(g, "remove_token")[0])
    with pytest.raises(GameError, match="NWR stations go to "):
        g.process(nwr("place_token", city=g.board["G11"].tile.id + "-0", slot=0))
    with pytest.raises(GameError, match="CPR cannot place a station in E5"):
        g.process(nwr("place_token", city=g.board["E5"].tile.id + "-0", slot=0))  # SC's station fills it
    g.process(nwr("place_token", city=g.board["C3"].tile.id + "-0", slot=0))
    assert g.actions_for(g.companies["NWR"]) == ["lay_tile", "pass"]
    with pytest.raises(GameError, match="the NWR tile lay must be on C3"):
        g.process(nwr("lay_tile", hex="D4", tile="7-0", rotation=0))
    assert g.actions_for(g.companies["NWR"]) == ["lay_tile", "pass"]  # refused: the lay is still to come


def test_sc_bought_by_a_company_can_no_longer_become_a_public_company() -> None:
    g, owner = sc_owner_to_act()
    sc = g.companies["SC"]
    cpr = g.corporations["CPR"]
    owner.companies.remove(sc)
    sc.owner = cpr
    cpr.companies.append(sc)
    g._checkpoint = None
    g.process(query.choices(g, owner, "pass")[0])  # the next action settles it
    assert g.corporations["SC"].closed and not g.sc_convertible  # type: ignore[attr-defined]
    assert "Saskatchewan Central can no longer be converted to a public corporation" in g.log_lines
    assert not [c for c in query.choices(g, g.acting()[0], "par") if c["corporation"] == "SC"]
