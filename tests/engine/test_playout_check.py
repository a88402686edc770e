"""engine.playout_check: seeded games named and ordered as the oracle's, and a last line that counts problems."""

from __future__ import annotations

import pytest

from engine.playout_check import main, plan


def test_games_cycle_player_counts_then_policies_as_the_oracle_does() -> None:
    assert plan(7, 100, (3, 5), ["random", "seeker"]) == [
        (3, "random", 100), (4, "random", 101), (5, "random", 102),
        (3, "seeker", 103), (4, "seeker", 104), (5, "seeker", 105), (3, "random", 106)]


def test_a_game_without_an_end_is_a_problem_in_the_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["1882", "1", "5", "--players", "3", "--max-actions", "20"]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == ("1882: 0/1 playouts ended with no problem "
                    "(first problem: 1882-p3-random-s5: no game end within 20 actions)")


def test_unknown_policies_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["1882", "1", "5", "--policies", "random,bold"]) == 2
    assert "policies are random, steady, seeker" in capsys.readouterr().err


def test_each_game_says_how_it_ended_and_the_ends_are_counted(capsys: pytest.CaptureFixture[str]) -> None:
    """1862-p6-seeker-s120010 ends frozen (D-22); the line before the last counts the games by their end."""
    assert main(["1862", "1", "120010", "--players", "6", "--policies", "seeker"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1862-p6-seeker-s120010: 832 actions, ended (frozen)"
    assert lines[-2] == "ends: frozen 1"
    assert lines[-1] == "1862: 1/1 playouts ended with no problem (first problem: none)"
