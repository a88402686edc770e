"""1882's North West Rebellion private: its station move and its extra tile lay are used up separately."""

from __future__ import annotations

import random

from engine import new_game
from engine.core import query
from engine.core.game import Game
from engine.core.steps.operating import BlockingBuyCompany
from engine.playout import _weight


def game_where_nwr_can_move_a_station() -> Game:
    """A seeded game played until NWR's owner may use it (privates are bought eagerly to get there)."""
    for seed in range(1, 40):
        rng = random.Random(seed)
        g = new_game("1882", [(1, "A"), (2, "B"), (3, "C"), (4, "D")], seed=seed)
        for _ in range(1500):
            if g.finished:
                break
            options = [o for e in query.deciding_entities(g) for o in query.all_choices(g, e, limit=200)]
            if any(o["entity"] == "NWR" and o["type"] == "remove_token" for o in options):
                return g
            weights = [_weight(o, "steady") * (30 if o["type"] == "buy_company" else 1) for o in options]
            g.process(rng.choices(options, weights)[0])
    raise AssertionError("no seed reached a usable NWR")


def nwr_choices(g: Game, kind: str) -> list[dict[str, object]]:
    return query.choices(g, g.companies["NWR"], kind)


def test_moving_a_station_without_the_tile_lay_keeps_the_tile_power_and_the_turn_open() -> None:
    g = game_where_nwr_can_move_a_station()
    owner = g.companies["NWR"].owner
    assert g.track.token_ability_prices(owner) == [0]  # type: ignore[arg-type]
    g.process(nwr_choices(g, "remove_token")[0])
    g.process(nwr_choices(g, "place_token")[0])
    assert g.actions_for(g.companies["NWR"]) == ["lay_tile", "pass"]
    g.process({"type": "pass", "entity": "NWR", "entity_type": "company"})
    # The station move is spent; the tile lay is not (as 18xx.games keeps that power until NWR closes) ...
    assert nwr_choices(g, "remove_token") == []
    assert g.track.token_ability_prices(owner) == []  # type: ignore[arg-type]
    nwr = g.companies["NWR"]
    assert [a.TYPE for a in nwr.abilities if a.count and a.left] == ["tile_lay"]
    assert g.has_turn_ability(owner)  # type: ignore[arg-type]
    # ... so the company's turn ends only when its president passes at the last buy-privates step.
    last = next(s for s in g.round.steps if isinstance(s, BlockingBuyCompany))
    assert g.round.entity() is owner and "pass" in last.actions(owner)
