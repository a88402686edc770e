"""engine.rule_coverage: which markers exclude a line, for which title, and how lines are listed."""

from __future__ import annotations

import re

from engine.rule_coverage import exclusions, plan, ranges


def excluded(title: str, line: str) -> bool:
    return any(re.search(pattern, line) for pattern in exclusions(title))


def test_only_markers_with_a_reason_exclude_a_line() -> None:
    assert excluded("1882", "    raise AssertionError  # pragma: no cover -- every caller checks it first")
    assert not excluded("1882", "    raise AssertionError  # pragma: no cover")
    assert not excluded("1882", "    raise AssertionError  # pragma: no cover --")


def test_a_title_scoped_marker_excludes_the_line_for_the_other_titles_only() -> None:
    line = "    if corp.loans:  # rules: only 1822, 1828 -- only titles with loans reach it"
    assert excluded("1882", line) and excluded("1862", line)
    assert not excluded("1822", line) and not excluded("1828", line)
    assert not excluded("1882", "    if corp.loans:  # rules: only 1822")


def test_games_cycle_player_counts_then_policies_and_lines_are_listed_as_ranges() -> None:
    assert plan(5, 10, ["random", "steady"], (3, 4)) == [
        (3, "random", 10), (4, "random", 11), (3, "steady", 12), (4, "steady", 13), (3, "random", 14)]
    assert ranges({7, 1, 2, 3, 5}) == "1-3, 5, 7"
