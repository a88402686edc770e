"""Route finding for the train kinds of the later titles, on hand-built maps with optima worked out by hand.

1882 has only plain and D trains; these kinds come with 1822, 1828 and 1862 and are described to the finder
by a :class:`TrainSpec` (the title's ``autoroute_train_spec`` hook). Each test also checks that a route typed
by hand is validated and priced exactly as the finder priced it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.autoroute import Candidate, Pricing, TrainSpec, solve, validate_route
from engine.core.errors import GameError
from engine.core.routes import build_route
from tests.engine.test_autoroute import check_solution, city, fork_map, small_game, stop_names

TOWNS = frozenset({"town"})


def town(value: int, *edges: int) -> dict[str, Any]:
    return {"color": "yellow", "tile": " ".join([f"t{value}"] + [f"{e}-n0" for e in edges])}


def with_specs(game: Any, **specs: TrainSpec) -> None:
    game.autoroute_train_spec = lambda train: specs[train.name]


def hand_typed(game: Any, corp: Any, legs: list[list[str]]) -> int:
    """Validate a route typed by hand for the company's only train and return what the engine pays."""
    train = corp.trains[0]
    data = {"connections": legs}
    validate_route(game, corp, train, data)
    return int(game.route_revenue(corp, build_route(game, corp, train, data)))


def town_line() -> dict[str, dict[str, Any]]:
    # A1 station (20) - C1 town (10) - E1 town (10) - G1 city (30), top to bottom.
    return {"A1": city(20, 0), "C1": town(10, 3, 0), "E1": town(10, 3, 0), "G1": city(30, 3)}


LEGS = [["A1", "C1"], ["C1", "E1"], ["E1", "G1"]]


@pytest.mark.parametrize(
    ("spec", "optimum"),
    [
        (TrainSpec("2", 2), 30),  # towns count: A1 and the first town
        (TrainSpec("2+", 2, free_kinds=TOWNS), 70),  # + train / Pullman: towns free and paid
        (TrainSpec("3+D", 3, free_kinds=TOWNS, multiplier=2), 140),  # 1828: towns free, all doubled
        (TrainSpec("8E", 8, unpaid_kinds=TOWNS), 50),  # 1828: towns neither count nor pay
    ],
    ids=["plain", "plus", "3+D", "8E"],
)
def test_towns_for_each_kind_of_train(spec: TrainSpec, optimum: int) -> None:
    game, corp = small_game(town_line(), [(spec.name, spec.limit or 99)], tokens={"A1": ["CPR"]})
    with_specs(game, **{spec.name: spec})
    sol = solve(game, corp)
    assert sol.proven and sol.total == optimum
    check_solution(game, corp, sol)
    if spec.name == "2":
        with pytest.raises(GameError, match="at most 2 stops"):
            hand_typed(game, corp, LEGS)
    else:
        assert hand_typed(game, corp, LEGS) == optimum  # the whole line is this train's best route


def city_line() -> dict[str, dict[str, Any]]:
    # A1 station (20) - C1 (40) - E1 (10) - G1 (50), top to bottom.
    return {"A1": city(20, 0), "C1": city(40, 3, 0), "E1": city(10, 3, 0), "G1": city(50, 3)}


CITY_LEGS = [["A1", "C1"], ["C1", "E1"], ["E1", "G1"]]


@pytest.mark.parametrize(("limit", "optimum"), [(2, 90), (3, 110), (4, 120)])
def test_an_express_train_earns_its_best_stops_of_any_number_visited(limit: int, optimum: int) -> None:
    spec = TrainSpec(f"{limit}E", limit, express=True)
    game, corp = small_game(city_line(), [(spec.name, limit)], tokens={"A1": ["CPR"]})
    with_specs(game, **{spec.name: spec})
    sol = solve(game, corp)
    # It runs the whole line and keeps the best: 2E 50+40, 3E 50+40+20, 4E everything.
    assert sol.proven and sol.total == optimum
    assert sorted(stop_names(sol)[0]) == ["A1", "C1", "E1", "G1"]
    check_solution(game, corp, sol)
    assert hand_typed(game, corp, CITY_LEGS) == optimum


def test_an_ordinary_train_on_the_same_line_stops_at_its_range() -> None:
    game, corp = small_game(city_line(), [("2", 2)], tokens={"A1": ["CPR"]})
    sol = solve(game, corp)
    assert sol.proven and sol.total == 60  # A1-C1
    with pytest.raises(GameError, match="at most 2 stops"):
        hand_typed(game, corp, CITY_LEGS)


def test_trains_of_different_groups_may_share_track() -> None:
    tokens: dict[str, list[str | None]] = {"A1": ["CPR"], "B2": ["CPR"]}
    game, corp = small_game(fork_map(), [("2", 2), ("2E", 2)], tokens=tokens)
    with_specs(game, **{"2": TrainSpec("2", 2), "2E": TrainSpec("2E", 2, group="E")})
    sol = solve(game, corp)
    # Both run the best route B2-G1 (80): the 1822 E train may use track another train uses.
    assert sol.proven and sol.total == 160
    assert sorted(map(sorted, stop_names(sol))) == [["B2", "G1"], ["B2", "G1"]]
    check_solution(game, corp, sol)


def test_a_set_level_bonus_changes_which_routes_are_best() -> None:
    tokens: dict[str, list[str | None]] = {"A1": ["CPR"], "B2": ["CPR"]}
    game, corp = small_game(fork_map(), [("2", 2), ("2", 2)], tokens=tokens)

    def pricing(graph: Any) -> Pricing:
        def bonus(cands: list[Candidate]) -> int:
            seen = {graph.nodes[k].ref[0] for c in cands for k in c.nodes(graph)}
            return 100 if {"F2", "A3"} <= seen else 0  # like a destination pair reached by the company

        return Pricing(set_bound=100, set_bonus=bonus)

    game.autoroute_pricing = pricing
    sol = solve(game, corp)
    # Without the bonus: A3-B2 + B2-G1 = 120. With it: A3-B2 (40) + B2-F2 (70) + 100 = 210.
    assert sol.proven and sol.total == 210
    assert sorted(map(sorted, stop_names(sol))) == [["A3", "B2"], ["B2", "F2"]]
