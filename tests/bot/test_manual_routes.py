"""`run TRAIN HEX-HEX-...`: routes typed by hand are translated, validated and priced by the engine."""

from __future__ import annotations

import itertools
import json

import pytest

from bot.core.commands import CommandError, parse
from bot.core.intents import translate
from engine.importer import read_game_file
from engine.routes import positions
from tests.conftest import require_recorded


def _path(connections: list[list[str]]) -> list[str]:
    """One hex path through a recorded route's legs (each leg may be written in either direction)."""
    legs = [list(c) for c in connections]
    if len(legs) > 1 and legs[0][-1] not in (legs[1][0], legs[1][-1]):
        legs[0].reverse()
    path = list(legs[0])
    for leg in legs[1:]:
        if leg[0] != path[-1]:
            leg.reverse()
        path.extend(leg[1:])
    return path


def _recorded_positions(count: int) -> list:  # type: ignore[type-arg]
    out = []
    for path in require_recorded("1882"):
        for pos in positions(read_game_file(path)):
            if pos.action["routes"] and all(r.get("revenue") for r in pos.action["routes"]):
                out.append(pos)
                break
        if len(out) >= count:
            break
    return out


def test_a_recorded_route_typed_by_hand_earns_the_recorded_revenue() -> None:
    tried = 0
    for pos in _recorded_positions(3):
        game, corp = pos.game, pos.corp
        words = []
        for route in pos.action["routes"]:
            train = game.all_trains[route["train"]]
            words += [train.name, "-".join(_path(route["connections"]))]
        player = game.acting_player(corp)
        intent = translate(game, player, parse("run " + " ".join(words)))
        game.process(json.loads(json.dumps(intent.action)))
        assert game.round.revenue == sum(int(r["revenue"]) for r in pos.action["routes"])  # type: ignore[attr-defined]
        tried += 1
    assert tried >= 1


def test_bad_hand_typed_routes_are_refused_with_reasons() -> None:
    pos = _recorded_positions(1)[0]
    game, corp = pos.game, pos.corp
    player = game.acting_player(corp)
    train = corp.trains[0]
    with pytest.raises(CommandError, match="give each train a route"):
        translate(game, player, parse(f"run {train.name}"))
    with pytest.raises(CommandError, match=r"no other|no .*-train"):
        translate(game, player, parse("run 9 A1-A3"))
    far = [h for h, _ in itertools.islice(game.board.hexes.items(), 2)]
    # Two stops the company's track does not join: the bot names the leg; the engine never sees it.
    with pytest.raises(CommandError, match=f"no track from {far[0]} to {far[1]}"):
        translate(game, player, parse(f"run {train.name} {far[0]}-{far[1]}"))
