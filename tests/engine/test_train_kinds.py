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
from engine.importer import read_game_file
from engine.routes import positions
from tests.conftest import recorded_games
from tests.engine.test_autoroute import check_solution, city, fork_map, small_game, stop_names, track

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


def loop_map() -> dict[str, dict[str, Any]]:
    # A3 station (20) - C3 - E3 (10), then E3 - D2 - C3 again on C3's other track piece - B4 (50).
    return {"A3": city(20, 0), "C3": track("0-3", "1-4"), "E3": city(10, 3, 2), "D2": track("4-5"),
            "B4": city(50, 1)}


@pytest.mark.parametrize(("exempt", "optimum"), [(None, 80), (frozenset(), 30), (frozenset({"C3"}), 80)],
                         ids=["no rule", "each tile once", "C3 exempt"])
def test_a_route_that_includes_a_tile_twice(exempt: frozenset[str] | None, optimum: int) -> None:
    """1862 (§7.4): a route may not include the same tile twice, even on its separate pieces of track."""
    game, corp = small_game(loop_map(), [("3", 3)], tokens={"A3": ["CPR"]})
    if exempt is not None:
        game.autoroute_tile_once = lambda: exempt
    sol = solve(game, corp)
    assert sol.proven and sol.total == optimum
    check_solution(game, corp, sol)
    legs = [leg for _, c in sol.routes for leg in sol.connections(c)]
    hexes = [h for leg in legs for h in leg[1:]] + [legs[0][0]]
    assert (len(hexes) != len(set(hexes))) == (optimum == 80)


@pytest.mark.parametrize("express", [True, False], ids=["express", "plain"])
@pytest.mark.parametrize("limits", [(2,), (3, 2), (4, 4), (2, 3, 5)])
def test_dropping_redundant_routes_keeps_the_optimum(limits: tuple[int, ...], express: bool) -> None:
    """Express trains: the search without an end stop that pays nothing extra, and without routes that cannot
    beat a greedy set, finds what an exhaustive search over every route finds; plain trains: so does pairing
    arms, listing only the routes good enough for a set near the best."""
    from engine.core import autoroute

    hexes = {**fork_map(), "G1": city(50, 3, 0), "I1": city(30, 3, 0), "K1": city(10, 3), "F2": city(40, 2, 5),
             "G3": city(20, 2)}
    game, corp = small_game(hexes, [(f"{n}E", n) for n in limits], tokens={"A1": ["CPR"], "B2": ["CPR"]})
    with_specs(game, **{f"{n}E": TrainSpec(f"{n}E", n, express=express) for n in limits})
    graph = autoroute.build_graph(game, corp)
    specs = [autoroute.train_spec(game, t) for t in corp.trains]
    full = [autoroute.enumerate_shared(graph, [s], Pricing(), trim=False)[0][0] for s in specs]
    trimmed = [autoroute.enumerate_shared(graph, [s], Pricing())[0][0] for s in specs]
    assert sum(map(len, trimmed)) < sum(map(len, full)) or not express

    def exhaustive(i: int, used: int) -> int:
        if i == len(full):
            return 0
        return max([exhaustive(i + 1, used)] + [c.value + exhaustive(i + 1, used | c.mask)
                                                for c in full[i] if not c.mask & used])

    sol = solve(game, corp)
    assert sol.proven and sol.total == exhaustive(0, 0)
    check_solution(game, corp, sol)


GAMES_1822 = recorded_games("1822")


@pytest.mark.skipif(not GAMES_1822, reason="../shared/fixtures/1822 is absent")
def test_a_train_alone_pairs_arms_to_the_best_route_the_full_walk_finds() -> None:
    """On recorded 1822 positions, the best route of one train found by pairing arms is the best route of
    the walk over every route, for plain, + , unlimited and station-to-station trains."""
    from engine.core import autoroute

    specs = [TrainSpec("2", 2), TrainSpec("4", 4), TrainSpec("7", 7), TrainSpec("3+", 3, free_kinds=TOWNS),
             TrainSpec("D", None), TrainSpec("E", None, group="E", stations_only=True, multiplier=2)]
    checked = 0
    for path in GAMES_1822:
        for n, pos in enumerate(positions(read_game_file(path))):
            if n % 9:
                continue
            graph = autoroute.build_graph(pos.game, pos.corp)
            for spec in specs:
                paired = autoroute.enumerate_shared(graph, [spec], Pricing(), alone=True)[0][0]
                walked = autoroute.enumerate_shared(graph, [spec], Pricing(), trim=False)[0][0]
                assert (paired[0].value if paired else 0) == (walked[0].value if walked else 0), (n, spec.name)
                if paired:
                    best = paired[0]
                    assert any(c.mask == best.mask and c.value == best.value for c in walked)
                checked += 1
    assert checked > 50


@pytest.mark.skipif(not GAMES_1822, reason="../shared/fixtures/1822 is absent")
def test_a_bounded_walk_that_skips_states_met_before_finds_the_best_route_of_the_full_walk() -> None:
    """On recorded 1822 positions, the walk for a train alone in its group (bounded, and skipping a path state met
    before: same end, stops, start and the track a later link may meet) finds the best route the walk over every
    route finds, with the destination bonus's signature (home and destination stations) read as 1822 prices it."""
    from engine.core import autoroute

    specs = [TrainSpec("E", None, group="E", stations_only=True, multiplier=2), TrainSpec("D", None),
             TrainSpec("5", 5), TrainSpec("4+", 4, free_kinds=TOWNS)]
    checked = 0
    for path in GAMES_1822:
        for n, pos in enumerate(positions(read_game_file(path))):
            if n % 7:
                continue
            graph = autoroute.build_graph(pos.game, pos.corp)
            signed = autoroute.pricing_for(pos.game, graph)
            for pricing in (Pricing(), Pricing(set_bound=signed.set_bound, set_nodes=signed.set_nodes)):
                keep = pricing.set_nodes or 0
                for spec in specs:
                    bounded = autoroute.enumerate_shared(graph, [spec], pricing, bound=True)[0][0]
                    walked = autoroute.enumerate_shared(graph, [spec], pricing, trim=False)[0][0]
                    # The best route of every signature the full walk finds, the bounded walk finds at that value.
                    best: dict[int, int] = {}
                    for cand in walked:
                        sig = sum(1 << k for k in cand.nodes(graph)) & keep
                        best[sig] = max(best.get(sig, 0), cand.value)
                    top = max(best.values(), default=0)
                    for cand in bounded:
                        assert any(c.mask == cand.mask and c.value == cand.value for c in walked), (n, spec.name)
                    for sig, value in best.items():
                        if value + pricing.set_bound > top:
                            assert any(c.value == value and sum(1 << k for k in c.nodes(graph)) & keep == sig
                                       for c in bounded), (path.name, n, spec.name, sig)
                    checked += 1
    assert checked > 100


L_SPEC = TrainSpec("L", 2, caps=((frozenset({"city", "offboard"}), 1), (TOWNS, 1)), local=True)


@pytest.mark.parametrize(("hexes", "optimum", "legs"), [
    (town_line(), 30, [["A1", "C1"]]),  # its station and the town beside it
    (city_line(), 20, [["local", "A1"]]),  # never two cities: it runs at its station alone
], ids=["town", "local"])
def test_an_1822_l_train_runs_to_one_city_and_one_town_or_locally(hexes: dict[str, Any], optimum: int,
                                                                   legs: list[list[str]]) -> None:
    game, corp = small_game(hexes, [("L", 2)], tokens={"A1": ["CPR"]})
    with_specs(game, L=L_SPEC)
    sol = solve(game, corp)
    assert sol.proven and sol.total == optimum
    assert sol.action_routes()[0]["connections"] == legs


def test_an_1822_e_train_runs_from_station_to_station_and_earns_double_its_stations() -> None:
    game, corp = small_game(city_line(), [("E", 99)], tokens={"A1": ["CPR"], "E1": ["CPR"]})
    with_specs(game, E=TrainSpec("E", None, group="E", stations_only=True, multiplier=2))
    sol = solve(game, corp)
    # A1 (20) and E1 (10) are its stations; C1 earns nothing and G1 (50) cannot end the route.
    assert sol.proven and sol.total == 60
    assert stop_names(sol) in ([["A1", "C1", "E1"]], [["E1", "C1", "A1"]])


LATER_GAMES = [*recorded_games("1828"), *recorded_games("1822")]


@pytest.mark.skipif(not LATER_GAMES, reason="no recorded 1828 or 1822 games in ../shared/fixtures")
@pytest.mark.parametrize("path", LATER_GAMES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_recorded_1828_and_1822_positions_are_proven_legal_and_at_least_what_was_run(path: Any) -> None:
    from engine.routes import check_legal, claimed_revenue

    for pos in positions(read_game_file(path)):
        sol = solve(pos.game, pos.corp, time_budget=None)  # proof, not speed: benchmarks/routes.py times it
        assert sol.proven, pos.action["id"]
        assert sol.total >= claimed_revenue(pos.game, pos.corp, pos.action), pos.action["id"]
        check_legal(pos.game, pos.corp, sol.action_routes())
        # The engine prices the finder's runs (1822 through its own run_revenue) at the finder's total.
        assert claimed_revenue(pos.game, pos.corp, {"routes": sol.action_routes()}) == sol.total, pos.action["id"]
