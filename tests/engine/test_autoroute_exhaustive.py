"""The route finder against an exhaustive search on small boards of every title (issue 28).

Each position is one before a company's run in the early operating rounds of a seeded game, where the boards are
small. The exhaustive search lists every legal route of every train (no trimming of routes a shorter one would
replace), tries every combination of routes that share no track (a train may run nothing), and prices each whole
set with its set-level bonus (1822's destinations): the finder's proven optimum must equal the best of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.core import autoroute as A
from engine.core.entities import Corporation
from engine.playout import random_playout
from engine.titles import TITLES

# Positions per title, and a cap on the combinations one position may take to search (small boards only).
POSITIONS = 6
COMBINATIONS = 200_000


def exhaustive(lists: Sequence[list[A.Candidate]], specs: Sequence[A.TrainSpec], pricing: A.Pricing,
               exclusive: int) -> int:
    """The best set by trying every one; routes conflict on the units they may not share (not junctions)."""
    best = 0
    picked: list[A.Candidate] = []

    def rec(i: int, used: dict[str, int], acc: int) -> None:
        nonlocal best
        if i == len(lists):
            total = acc + (pricing.set_bonus(list(picked)) if pricing.set_bonus is not None else 0)
            best = max(best, total)
            return
        rec(i + 1, used, acc)
        group = specs[i].group
        for cand in lists[i]:
            if cand.mask & used.get(group, 0):
                continue
            picked.append(cand)
            rec(i + 1, {**used, group: used.get(group, 0) | (cand.mask & exclusive)}, acc + cand.value)
            picked.pop()

    rec(0, {}, 0)
    return best


def positions(title: str, players: int, seed: int) -> list[tuple[object, Corporation]]:
    """Games replayed to just before each of the first runs with two or more trains (or any, if too few)."""
    played = random_playout(title, players, seed, max_actions=700, check=False).game
    actions = played.raw_actions
    runs = [i for i, a in enumerate(actions) if a["type"] == "run_routes"]
    cls = TITLES[title]
    out = []
    for i in runs:
        game = cls(played.player_specs, played.seed, played.options, actions=actions[:i])
        corp = game.corporation(str(actions[i]["entity"]))
        if isinstance(corp, Corporation):
            out.append((game, corp))
        if len(out) >= POSITIONS:
            break
    return out


@pytest.mark.parametrize("title", sorted(TITLES))
def test_the_finder_equals_an_exhaustive_search_on_small_boards(title: str) -> None:
    data = TITLES[title].data()["game"]
    players = int(data["min_players"]) + 1
    checked = 0
    for game, corp in positions(title, players, 3):
        run = list(game.route_trains(corp))  # type: ignore[attr-defined]
        if not run:
            continue
        graph = A.build_graph(game, corp)  # type: ignore[arg-type]
        pricing = A.pricing_for(game, graph)  # type: ignore[arg-type]
        specs = [A.train_spec(game, t) for t in run]  # type: ignore[arg-type]
        lists = [A.enumerate_shared(graph, [s], pricing, None, [t], trim=False)[0][0] for s, t in zip(specs, run,
                                                                                                    strict=True)]
        size = 1
        for lst in lists:
            size *= len(lst) + 1
        if size > COMBINATIONS:
            continue
        sol = A.solve(game, corp, time_budget=None)  # type: ignore[arg-type]
        assert sol.proven
        assert sol.total == exhaustive(lists, specs, pricing, graph.exclusive()), (title, corp.sym,
                                                                                    [t.name for t in run])
        checked += 1
    assert checked >= 2, f"{title}: only {checked} small positions compared"


def test_two_routes_may_pass_one_junction_on_track_of_their_own() -> None:
    """Before action 1655 of 33845 (1822, MR: 2P, 7, 5) the optimum is the £870 that 18xx.games validates: the 2P
    I30-M38 £180, the 7 £390 and the 5 £260 with the £40 destination bonus; the 2P and the 7 both pass L35's
    junction, each on its own track. Counting the junction as shared track cut that set (a £860 "proven" optimum)."""
    from engine import routes
    from engine.importer import read_game_file
    from tests.conftest import SHARED_FIXTURES
    path = SHARED_FIXTURES / "1822" / "33845.json"
    assert path.is_file(), f"{path} is missing"
    gf = read_game_file(path)
    pos = next(routes.positions(gf, "1655"))
    out, sol = routes.evaluate(gf, pos, None, check=True)
    assert out["optimal"] == 870 and out["proven"] and out["engine"] == 870
    assert sorted(r["revenue"] for r in sol.describe()) == [180, 260, 390]
