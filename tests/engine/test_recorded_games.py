"""Every recorded game of every title replays to exactly its final result and end reason, with invariants after each
action."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.core import actions as act
from engine.core.invariants import problems
from engine.core.statusbuild import status_view
from engine.core.viewbuild import board_view, market_view
from engine.importer import read_game_file, replay
from engine.titles import TITLES, title_class
from tests.conftest import ROOT, SHARED_FIXTURES, recorded_games

GAMES_1882 = recorded_games("1882")
pytestmark = pytest.mark.skipif(not GAMES_1882, reason=f"{SHARED_FIXTURES / '1882'} is absent")
#: Every title's recorded games (the other tests here use 1882's).
ALL_GAMES = [path for title in sorted(TITLES) for path in recorded_games(title)]


def _game_id(path: Path) -> str:
    return f"{path.parent.name}-{path.stem}"


@pytest.mark.parametrize("path", ALL_GAMES, ids=_game_id)
def test_replays_to_recorded_result(path: Path) -> None:
    gf = read_game_file(path)
    game = replay(gf)
    assert game.result() == {str(k): v for k, v in gf.raw["result"].items()}
    assert game.game_end_reason == gf.raw["game_end_reason"]


@pytest.mark.parametrize("path", ALL_GAMES, ids=_game_id)
def test_invariants_hold_after_every_action(path: Path) -> None:
    gf = read_game_file(path)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    money = game.total_cash()
    for action in act.filter_undo(gf.actions):
        game._apply(action)
        found = problems(game, money)
        assert not found, f"after action {action.get('id')}: {found}"


def test_replay_cli_prints_json_result() -> None:
    path = GAMES_1882[0]
    out = subprocess.run([sys.executable, "-m", "engine.replay", str(path), "--json"], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    raw = json.loads(path.read_text())
    assert data["result"] == {str(k): v for k, v in raw["result"].items()}
    assert data["finished"] is True
    assert data["title"] == "1882"
    assert set(data["players"]) == {str(p["id"]) for p in raw["players"]}
    assert data["actions"] > 0 and data["seconds"] >= 0


def test_replay_cli_exit_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a game"}')
    out = subprocess.run([sys.executable, "-m", "engine.replay", str(bad)], cwd=ROOT, capture_output=True,
                         text=True)
    assert out.returncode == 2
    raw = json.loads(GAMES_1882[0].read_text())
    kept = act.filter_undo(raw["actions"])
    broken = next(a for a in kept if a["type"] == "buy_shares")
    broken["shares"] = ["NOPE_1"]
    raw["actions"] = kept
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(raw))
    out = subprocess.run([sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT, capture_output=True,
                         text=True)
    assert out.returncode == 1
    assert str(broken["id"]) in out.stderr


def test_unfinished_game_reports_current_scores(tmp_path: Path) -> None:
    raw = json.loads(GAMES_1882[0].read_text())
    raw["actions"] = raw["actions"][:200]
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(raw))
    out = subprocess.run([sys.executable, "-m", "engine.replay", str(path), "--json"], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["finished"] is False
    assert set(data["result"]) == {str(p["id"]) for p in raw["players"]}


class _Sabotage(Exception):
    pass


def _fingerprint(game: object) -> str:
    from engine.core.query import all_choices, deciding_entities

    g: Any = game
    choices = [repr(all_choices(g, e, limit=50)) for e in deciding_entities(g)]
    return repr((board_view(g), market_view(g), status_view(g), g.result(), choices))


def test_an_action_refused_half_way_leaves_no_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail every 7th action after the round has already changed the state; the game still ends as recorded."""
    from engine.core.errors import ErrorCode, GameError

    gf = read_game_file(GAMES_1882[0])
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    armed: list[int] = []
    original = type(game).action_processed

    def sabotaged(self: Any, action: dict[str, Any]) -> None:
        if armed and action.get("id") == armed[0]:
            armed.clear()
            raise GameError(ErrorCode.ILLEGAL, "sabotaged")
        original(self, action)

    monkeypatch.setattr(type(game), "action_processed", sabotaged)
    standing = [a for a in act.filter_undo(gf.actions) if not act.is_log_only(a.get("type"))]
    for index, action in enumerate(standing):
        if index % 7 == 3:
            before = _fingerprint(game)
            armed.append(action["id"])
            with pytest.raises(GameError, match="sabotaged"):
                game.process(action)
            assert _fingerprint(game) == before, f"action {action.get('id')} left a trace"
        game.process(action)
    assert game.result() == {str(k): v for k, v in gf.raw["result"].items()}
