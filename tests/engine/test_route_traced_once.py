"""A run's accepted routes are built from their trace (TracedRoute.route) instead of being walked again: every
route that the checks accept in the recorded games is the route build_route walks, with the traced stops."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.actions import filter_undo
from engine.core.autoroute import validate_route
from engine.core.errors import GameError
from engine.core.game import Game
from engine.core.routes import build_route
from engine.importer import read_game_file, replay
from tests.conftest import require_recorded


@pytest.mark.parametrize("title", ["1882", "1828", "1830"])
def test_a_traced_route_is_the_route_build_route_walks(title: str) -> None:
    gf = read_game_file(require_recorded(title)[0])
    actions = filter_undo(gf.actions)
    compared = 0

    def before_next(index: int, action: dict[str, Any], game: Game) -> None:
        nonlocal compared
        following = actions[index + 1] if index + 1 < len(actions) else {}
        if following.get("type") != "run_routes":
            return
        corp = game.corporations[str(following["entity"])]
        for data in following["routes"]:
            train = game.all_trains[str(data["train"])]
            try:
                traced = validate_route(game, corp, train, data)
            except GameError:
                continue
            walked = build_route(game, corp, train, data)
            route = traced.route(data)
            assert (route.train, route.track, route.hexes) == (walked.train, walked.track, walked.hexes)
            assert route.stops == traced.stops
            compared += 1

    replay(gf, before_next)
    assert compared > 20
