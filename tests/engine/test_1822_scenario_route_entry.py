"""1822: routes entered by hand that the rules refuse, each with its reason (1822 rules 10: a route needs a leg and
a station of the company; only L trains run locally from one station; an E train runs between the company's
stations), and a train bought as a variant it does not have. The position: LNWR's run of OR 7 in the recorded
1822+ game (../shared/fixtures/1822/33845.json before action 974), with stations in M38 (London), G22, I22 and P35."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import GameError
from engine.titles.g1822.game import G1822
from engine.titles.g1822.routes import trace_1822_route
from tests.engine.test_1822_rules import PLUS_GAME, recorded_until

LONDON_TO_P35 = ["P35", "O34", "N35", "N37", "M38"]


def _lnwr_running() -> G1822:
    assert PLUS_GAME is not None, "the recorded 1822+ game 33845 is missing"
    game, rest = recorded_until(974)
    assert rest[0]["type"] == "run_routes" and rest[0]["entity"] == "LNWR"
    return game


def _trace(game: G1822, train: str, *legs: list[str]) -> Any:
    return trace_1822_route(game, game.corporations["LNWR"], game.all_trains[train], {"connections": list(legs)})


def test_a_route_needs_a_leg_and_only_an_l_train_runs_locally() -> None:
    game = _lnwr_running()
    assert _trace(game, "2P-0", LONDON_TO_P35).revenue == 90  # as recorded
    with pytest.raises(GameError, match="a route needs at least one leg"):
        _trace(game, "3-0")
    with pytest.raises(GameError, match="only L trains run locally from one station"):
        _trace(game, "3-0", ["local", "P35"])
    with pytest.raises(GameError, match="there is no track inside P35"):
        _trace(game, "3-0", ["P35"])  # the one-hex form is for the track inside a double hex


def test_an_e_train_runs_between_two_of_the_companys_stations() -> None:
    game = _lnwr_running()
    e_train = game.all_trains["7-0"]
    e_train.choose_variant("E")
    assert (e_train.name, e_train.distance) == ("E", 99)
    # I22 is LNWR's; I30, J29 and K28 are not: one station is not enough for an E train (a 4 train runs it).
    legs = (["J29", "I30"], ["K28", "J29"], ["I22", "I24", "J25", "K26", "K28"])
    assert _trace(game, "4-1", *legs).revenue == 150
    with pytest.raises(GameError, match="an E train's route must include at least two of the company's stations"):
        _trace(game, "7-0", *legs)


def test_a_train_is_bought_only_as_one_of_its_variants() -> None:
    game = _lnwr_running()
    train = game.all_trains["7-0"]
    with pytest.raises(GameError, match="a 7 train is bought as 7, E, not 8"):
        train.choose_variant("8")
    assert (train.name, train.distance) == ("7", 7)


def _lnwr_run_made_here() -> tuple[G1822, dict[str, Any]]:
    """LNWR's recorded run as a move made here (not loaded from 18xx.games, so each route is checked)."""
    game, rest = recorded_until(974)
    game.options.pop("recorded_runs")
    run = dict(rest[0], routes=[dict(r) for r in rest[0]["routes"]])
    return game, run


def test_a_run_names_each_of_the_companys_trains_once_at_the_revenue_its_route_earns() -> None:
    game, run = _lnwr_run_made_here()
    first = run["routes"][0]
    assert (first["train"], first["revenue"]) == ("2P-0", 90)
    foreign = next(t.id for t in game.all_trains.values() if t.owner is game.corporations["CR"])
    with pytest.raises(GameError, match=f"LNWR does not own train {foreign}"):
        game.process({**run, "routes": [{**first, "train": foreign}]})
    with pytest.raises(GameError, match="train 2P-0 can only run once"):
        game.process({**run, "routes": [first, first]})
    with pytest.raises(GameError, match="the 2P train's route earns £90, not £100"):
        game.process({**run, "routes": [{**first, "revenue": 100}]})
    game.process(run)
    assert game.round.revenue == sum(int(r["revenue"]) for r in run["routes"])  # type: ignore[attr-defined]
