"""The player-experience answers through ``python -m bot console``, as a player at a terminal sees them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.console.scripted import Policy, line, next_move
from engine import new_game
from engine.core import query
from tests.bot.console_helpers import run_console, stored_actions
from tests.bot.ux_helpers import in_lay_step, lay_choices

USERS = ("alice", "bob")


def _lines_until(wanted: Any, seed: int = 7) -> tuple[list[str], Any]:
    """Console lines that bring a new game to the first position where ``wanted(game)`` holds."""
    game = new_game("1882", [(i + 1, u) for i, u in enumerate(USERS)], seed=seed)
    names = {i + 1: u for i, u in enumerate(USERS)}
    policy = Policy(seed)
    lines = [line("alice", f"new 1882 seed={seed}"), line("bob", "join"), line("alice", "start")]
    while not wanted(game):
        move = next_move(game, policy, names)
        assert move is not None
        lines.append(line(move.user, move.command))
        if move.approver is not None:
            lines.append(line(move.approver, "approve"))
    return lines, game


def _acting(game: Any) -> str:
    pid = query.actors(game)[0].player_id
    return USERS[pid - 1]


def test_lay_hex_and_moves_through_the_console(tmp_path: Path) -> None:
    lines, game = _lines_until(in_lay_step)
    user = _acting(game)
    hex_id = lay_choices(game)[0]["hex"]
    n = len([c for c in lay_choices(game) if c["hex"] == hex_id])
    lines += [line(user, f"lay {hex_id}"), line(user, "moves"), line(user, "help lay")]
    out = run_console(tmp_path / "g.db", tmp_path / "out", lines)
    text = "\n".join(out)
    assert f"Tiles that fit on {hex_id} ({n} lays):" in text
    assert text.count(f"`lay {hex_id} ") >= n
    assert f": lay {hex_id}: " in text  # moves: one line for the hex
    assert "0 S, 1 SW, 2 NW, 3 N, 4 NE, 5 SE" in text
    assert len(stored_actions(tmp_path / "g.db")) == len(game.raw_actions)  # asking stores nothing


def _may_run(game: Any) -> bool:
    return any("run_routes" in game.actions_for(e) for e in game.acting())


def test_run_auto_and_token_costs_through_the_console(tmp_path: Path) -> None:
    lines, game = _lines_until(_may_run)
    user = _acting(game)
    lines += [line(user, "run auto")]
    out = run_console(tmp_path / "g.db", tmp_path / "out", lines)
    text = "\n".join(out)
    assert "-train: " in text and "as typed: `run " in text


def test_companies_and_help_private_through_the_console(tmp_path: Path) -> None:
    lines = [
        line("alice", "new 1882 seed=7"),
        line("bob", "join"),
        line("alice", "start"),
        line("alice", "bid TB 150"),
        line("bob", "companies"),
        line("bob", "help NWR"),
    ]
    text = "\n".join(run_console(tmp_path / "g.db", tmp_path / "out", lines))
    assert "TB Trestle Bridge: value $140, revenue $0, for sale, high bid alice $150" in text
    assert "NWR North West Rebellion: value $80, revenue $15, held by the bank." in text


def test_who_nudge_lobby_and_stats_through_the_console(tmp_path: Path) -> None:
    lines = [
        line("alice", "new 1882 seed=7"),
        line("bob", "join"),
        line("alice", "start"),
        line("alice", "buy HB"),
        "#other " + line("carol", "new 1882"),
        line("alice", "who"),
        line("alice", "nudge"),
        line("alice", "nudge"),
        line("dave", "games --open"),
        line("bob", "stats"),
    ]
    text = "\n".join(run_console(tmp_path / "g.db", tmp_path / "out", lines))
    assert re.search(r"Waiting for bob \(since \d{4}-\d\d-\d\d \d\d:\d\d UTC\)", text), text
    assert "alice nudges bob: your move in game #1" in text
    assert "a nudge was sent 0 minutes ago" in text
    assert "Games with free seats:" in text and "#2 1882 in other: 1/" in text
    assert "alice: no finished game;" in text
