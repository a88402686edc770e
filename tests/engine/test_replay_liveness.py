"""``python -m engine.replay`` checks liveness where the replayed game stops: a dead end is reported, not hidden."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import replay as replay_cli
from engine.core import query
from engine.playout import game_document, random_playout


def _partial_game(tmp_path: Path) -> Path:
    played = random_playout("1882", 3, 5, max_actions=40)
    assert not played.game.finished and not played.problems
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(game_document("1882", played.game, 5, [])), "utf-8")
    return path


def test_an_unfinished_game_that_can_go_on_replays_with_exit_0(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert replay_cli.main([str(_partial_game(tmp_path)), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["finished"] is False and out["dead_end"] == []


def test_a_replayed_game_that_stops_with_no_legal_action_is_reported_as_a_dead_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = _partial_game(tmp_path)
    # An engine that offers the seat in turn nothing at all: the shape of the 1822+ dead end of issue 28.
    monkeypatch.setattr(query, "choices", lambda *args, **kwargs: [])
    assert replay_cli.main([str(path), "--json"]) == 3
    captured = capsys.readouterr()
    out = json.loads(captured.out.strip().splitlines()[-1])
    assert out["finished"] is False
    assert len(out["dead_end"]) == 1 and out["dead_end"][0].startswith("dead end: no legal action for ")
    assert "error: dead end: no legal action for " in captured.err
    assert replay_cli.main([str(path)]) == 3  # the text form says it too
    assert "dead end" in capsys.readouterr().err
