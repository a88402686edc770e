"""Seeded random 1882 games played through the query API: legal choices stay legal and every game ends."""

from __future__ import annotations

import pytest

from engine.core.errors import ErrorCode, GameError
from engine.core.game import Game
from engine.playout import random_playout

SEEDS = [(seed, 2 + seed % 5) for seed in range(20)]


@pytest.mark.parametrize(("seed", "players"), SEEDS, ids=[f"seed{s}-{p}p" for s, p in SEEDS])
def test_random_game_reaches_an_end(seed: int, players: int) -> None:
    result = random_playout("1882", players, seed, max_actions=6000)
    assert result.problems == []
    assert result.game.finished, f"not finished after {result.actions} actions in {result.game.round.name()}"
    assert result.game.game_end_reason in {"bankrupt", "bank", "stock_market"}
    assert set(result.game.result()) == {str(i + 1) for i in range(players)}


STEADY = [(100 + seed, 2 + seed % 5) for seed in range(10)]


@pytest.mark.parametrize(("seed", "players"), STEADY, ids=[f"steady{s}-{p}p" for s, p in STEADY])
def test_steady_game_reaches_an_end(seed: int, players: int) -> None:
    result = random_playout("1882", players, seed, max_actions=8000, policy="steady")
    assert result.problems == []
    assert result.game.finished, f"not finished after {result.actions} actions in {result.game.round.name()}"


def test_steady_games_reach_more_than_one_kind_of_end() -> None:
    reasons = {random_playout("1882", p, s, max_actions=8000, policy="steady", check=False).game.game_end_reason
               for s, p in STEADY}
    assert len(reasons) >= 2, reasons


def test_replaying_a_playout_log_gives_the_same_state() -> None:
    result = random_playout("1882", 4, 99, max_actions=400, check=False)
    game = result.game
    again = type(game)(game.player_specs, game.seed, actions=game.raw_actions)
    assert again.result() == game.result()
    assert again.round.name() == game.round.name()
    assert [p.cash for p in again.players] == [p.cash for p in game.players]


def test_refused_action_leaves_state_untouched() -> None:
    result = random_playout("1882", 3, 5, max_actions=60, check=False)
    game: Game = result.game
    before = (game.result(), len(game.raw_actions), game.round.name(), game.total_cash())
    with pytest.raises(GameError) as err:
        game.process({"type": "lay_tile", "entity": "CPR", "entity_type": "corporation", "hex": "Z99",
                      "tile": "57-0", "rotation": 0})
    assert err.value.code in {ErrorCode.MALFORMED, ErrorCode.NOT_YOUR_TURN, ErrorCode.ILLEGAL}
    assert (game.result(), len(game.raw_actions), game.round.name(), game.total_cash()) == before


@pytest.mark.parametrize(
    ("action", "says"),
    [
        ({"type": "sell_shares", "entity": 1, "entity_type": "player", "shares": ["CPR_1"], "percent": "10"},
         "percent must be a whole number"),
        ({"type": "sell_shares", "entity": 1, "entity_type": "player", "shares": [None]},
         "every item of shares must be a share id"),
        ({"type": "lay_tile", "entity": "CPR", "entity_type": "corporation", "hex": ["E9"], "tile": "57-0",
          "rotation": 0}, "hex must be text"),
        ({"type": "lay_tile", "entity": "CPR", "entity_type": "corporation", "hex": "E9", "tile": "57-0",
          "rotation": True}, "rotation must be a whole number"),
        ({"type": "undo", "entity": 1, "entity_type": "player", "action_id": "x"}, "action_id must be a whole number"),
        ({"type": "pass", "entity": None, "entity_type": "player"}, "entity must be a player number or a company"),
    ],
)
def test_fields_of_the_wrong_type_are_refused_by_name(action: dict[str, object], says: str) -> None:
    result = random_playout("1882", 3, 5, max_actions=60, check=False)
    game: Game = result.game
    before = (game.result(), len(game.raw_actions), game.round.name(), game.total_cash())
    with pytest.raises(GameError, match=says) as err:
        game.process(action)
    assert err.value.code == ErrorCode.MALFORMED
    assert (game.result(), len(game.raw_actions), game.round.name(), game.total_cash()) == before


def test_choices_do_not_depend_on_the_interpreter_hash_seed() -> None:
    """Same seed, same game: the query API's choice order must not follow set or dict hashing."""
    import json
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    script = ("import json; from engine.playout import random_playout; "
              "print(json.dumps(random_playout('1882', 4, 7, max_actions=400, check=False).game.raw_actions))")
    logs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        logs.append(json.loads(out.stdout))
    assert len(logs[0]) > 100
    assert logs[0] == logs[1]
