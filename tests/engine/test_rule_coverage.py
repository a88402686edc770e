"""engine.rule_coverage: which markers exclude a line, for which title, and how lines are listed."""

from __future__ import annotations

import re
from pathlib import Path

from engine.rule_coverage import Reason, exclusions, plan, ranges, read_reasons, reasoned_lines


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


def test_a_reason_names_lines_by_function_and_text_and_covers_the_block_they_open(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "class Step:\n"
        "    def process(self, x: int) -> int:\n"
        "        if x < 0:\n"
        "            y = -x\n"
        "            return y\n"
        "        return x\n"
        "\n"
        "\n"
        "def process(x: int) -> int:\n"
        "    if x < 0:\n"
        "        return -x\n"
        "    return x\n", "utf-8")
    reasons = [Reason("Step.process", "if x < 0", "no caller passes a negative x"),
               Reason("process", "return x", "only 1822", ("1822",)),
               Reason("Step.gone", "", "a function that moved away")]
    used: set[Reason] = set()
    assert reasoned_lines(source, "1882", reasons, used) == dict.fromkeys((3, 4, 5), "no caller passes a negative x")
    assert used == {reasons[0]}
    assert set(reasoned_lines(source, "1822", reasons, used)) == {3, 4, 5, 12}
    assert reasons[2] not in used  # reported as stale


def test_every_entry_of_the_reasons_file_gives_a_reason() -> None:
    assert all(r.why.strip() and r.function for r in read_reasons())


def test_a_named_first_line_of_an_except_clause_brings_the_except_line(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "def parse(text: str) -> int:\n"
        "    try:\n"
        "        return int(text)\n"
        "    except ValueError:\n"
        "        raise KeyError(text) from None\n", "utf-8")
    reasons = [Reason("parse", "raise KeyError(", "input checking")]
    assert set(reasoned_lines(source, "1882", reasons, set())) == {4, 5}


def test_every_core_test_it_runs_exists_and_every_title_has_its_own() -> None:
    from engine.rule_coverage import CORE_TESTS, ROOT, default_tests
    here = ROOT / "tests" / "engine"
    assert [name for name in CORE_TESTS if not (here / f"{name}.py").is_file()] == []  # else silently left out
    for title in ("1822", "1828", "1830", "1862", "1882"):
        tests = default_tests(title)
        assert "tests/engine/test_core_runs.py" in tests and any(f"test_{title}_scenario" in t for t in tests)
