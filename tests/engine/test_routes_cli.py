"""``python -m engine.routes --all`` reports a recorded run that today's rules refuse and goes on (issue 28)."""

from __future__ import annotations

import copy

from engine import routes
from engine.importer import read_game_file
from tests.conftest import SHARED_FIXTURES

GAME = SHARED_FIXTURES / "1822" / "33845.json"


def test_a_refused_recorded_run_is_reported_and_the_walk_goes_on() -> None:
    assert GAME.is_file(), f"{GAME} is missing"
    gf = read_game_file(GAME)
    runs = [i for i, a in enumerate(gf.actions) if a.get("type") == "run_routes"]
    # The first two runs: the first gets a route that does not follow the track, with its recorded revenue kept,
    # as 18xx.games loaded runs its checks of the day allowed.
    first, second = runs[0], runs[1]
    bad = copy.deepcopy(gf.actions[first])
    for route in bad["routes"]:
        route["connections"] = [["A1", "Z99"]]
        route["hexes"] = ["A1", "Z99"]
    gf.actions[first] = bad
    seen = []
    for pos in routes.positions(gf):
        out, _ = routes.evaluate(gf, pos, 0.5)
        seen.append(out)
        if len(seen) == 2:
            break
    assert seen[0]["action_id"] == bad["id"] and seen[0]["claimed"] is None and seen[0]["refused"]
    assert seen[1]["action_id"] == gf.actions[second]["id"] and isinstance(seen[1]["claimed"], int)
    assert "refused" not in seen[1]
