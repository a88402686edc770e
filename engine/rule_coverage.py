"""Rule coverage: the share of a title's rule code that seeded games reach, and every line they never reach.

``python -m engine.rule_coverage TITLE N SEED_BASE [--policies random,steady,seeker] [--optional-rules A,B]
[--players LO-HI] [--tests PATH,...] [--no-tests] [--show-reached-by-tests] [--show-excluded] [--keep DIR]``

plays N seeded games (seeds SEED_BASE.., player counts cycling through the title's range, policies in turn after
each cycle, the playouts the oracle's run.sh writes and compares for those seeds) with the invariants checked
after every action, under coverage.py. It then runs the title's scenario tests (``tests/engine/test_TITLE*.py``)
and the core's unit tests (``CORE_TESTS``), or the files ``--tests`` names, under coverage too. What it measures,
the issue's "title's rule code":

- the title's own code: every statement under ``engine/titles/gT/``;
- the core it uses: every statement of each ``engine/core/`` function that the title's games enter (a function
  its games never enter belongs to other titles' rules). The route finder and the read-only views are searches
  and snapshots, not rules: ``NOT_RULES`` names them, with the reason.

A line counts as reached when a game reaches it, or else a test. A line no game of the title can reach is named
with its reason, in one of two ways that both move with the code:

- in ``engine/rule_coverage_reasons.toml``, keyed by the function's qualified name (``Class.method``, in whatever
  module it lives) and a piece of the lines' text, optionally for some titles only;
- in the source: ``# pragma: no cover -- REASON`` (no title's game can reach it) or ``# rules: only 1822, 1830 --
  REASON`` (only the titles named can).

A named line that opens a block (ends with ``:``) covers the whole block. A marker without a REASON excludes
nothing; a reason that matches no line is reported as stale. The output lists each file's unreached lines without
a reason (on request also the lines only tests reach and the excluded ones), then one last line:

``TITLE: X% of rule lines reached (K unreached without a reason; ...)``

X is the reached lines over the rule lines less those excluded with a reason. Exit 0 when the games and tests had
no problems, 1 otherwise.
coverage.py is a dev dependency (pyproject.toml); the engine itself never needs it.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .titles import title_class

ENGINE = Path(__file__).resolve().parent
ROOT = ENGINE.parent
REASONS = ENGINE / "rule_coverage_reasons.toml"

# Core modules that hold no rules, with the reason; their lines are neither counted nor listed.
NOT_RULES = {
    "autoroute": "the route finder searches the best legal set of routes; route legality lives in the titles' "
                 "and core's route checks, and tests/engine/test_autoroute_exhaustive.py proves its answers",
    "views.py": "read-only snapshots for renderers and chat replies, no rules",
    "viewbuild.py": "builds the read-only snapshots from a game, no rules",
}

REASONED = r"--\s*\S"
NO_COVER = re.compile(r"#\s*pragma:\s*no\s+cover\s+" + REASONED)
ONLY = re.compile(r"#\s*rules:\s*only\s+([^#]*?)\s+" + REASONED)
MARKER = re.compile(r"#\s*(pragma:\s*no\s+cover|rules:\s*only)\b(.*)$")

Game = tuple[int, str, int]  # players, policy, seed


def plan(n: int, seed_base: int, policies: list[str], players: tuple[int, int]) -> list[Game]:
    """(players, policy, seed) of each game, named as the oracle's run.sh names its playouts."""
    lo, hi = players
    span = hi - lo + 1
    return [(lo + i % span, policies[(i // span) % len(policies)], seed_base + i) for i in range(n)]


def play(title: str, games: list[Game], rules: list[str]) -> list[str]:
    """Play the games with invariants; one line per game with problems (the child's side)."""
    from .playout import random_playout
    bad = []
    for n, (players, policy, seed) in enumerate(games, 1):
        result = random_playout(title, players, seed, max_actions=8000, policy=policy, optional_rules=rules)
        print(f"game {n}/{len(games)}: {title}-p{players}-{policy}-s{seed}, {result.actions} actions",
              file=sys.stderr, flush=True)
        if result.problems or not result.game.finished:
            what = "; ".join(result.problems) or "no end within 8000 actions"
            bad.append(f"{title}-p{players}-{policy}-s{seed}: {what[:300]}")
    return bad


def exclusions(title: str) -> list[str]:
    """coverage.py's exclusion patterns for this title: markers that give a reason, and imports only the type
    checker reads (``if TYPE_CHECKING:`` blocks never run, and hold no rules)."""
    return [r"^\s*if TYPE_CHECKING:", NO_COVER.pattern,
            r"#\s*rules:\s*only\s+(?![^#]*?\b" + re.escape(title) + r"\b)[^#]*?\s+" + REASONED]


@dataclass(frozen=True)
class Reason:
    """Lines of one function that no game of the listed titles (all when empty) can reach, and why."""

    function: str
    text: str
    why: str
    titles: tuple[str, ...] = ()

    def applies(self, title: str) -> bool:
        return not self.titles or title in self.titles


def read_reasons(path: Path = REASONS) -> list[Reason]:
    entries = tomllib.loads(path.read_text("utf-8")).get("unreached", []) if path.exists() else []
    out = []
    for e in entries:
        if not str(e.get("why", "")).strip():
            raise ValueError(f"{path}: the entry for {e.get('function')} gives no reason (why)")
        out.append(Reason(str(e["function"]), str(e.get("text", "")), str(e["why"]),
                          tuple(str(t) for t in e.get("titles", ()))))
    return out


def _block(source: list[str], line: int) -> set[int]:
    """The line and, when it opens a block, the lines of that block; a named line that begins an ``except``
    clause brings the ``except`` line with it (no game reaches the one without the other)."""
    text = source[line - 1]
    out = {line}
    before = next((n for n in range(line - 1, 0, -1) if source[n - 1].strip()), None)
    if before is not None and source[before - 1].strip().startswith("except") and source[before - 1].rstrip(
            ).endswith(":"):
        out.add(before)
    if not text.split("#", 1)[0].rstrip().endswith(":"):
        return out
    indent = len(text) - len(text.lstrip())
    for n in range(line + 1, len(source) + 1):
        nxt = source[n - 1]
        if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= indent:
            break
        out.add(n)
    return out


def reasoned_lines(path: Path, title: str, reasons: list[Reason], used: set[Reason]) -> dict[int, str]:
    """Lines of ``path`` that a reason names for ``title``, with the reason; ``used`` collects reasons that matched."""
    from coverage.python import PythonFileReporter

    wanted = [r for r in reasons if r.applies(title)]
    if not wanted:
        return {}
    source = path.read_text("utf-8").splitlines()
    out: dict[int, str] = {}
    for region in PythonFileReporter(str(path)).code_regions():
        for reason in wanted:
            if region.kind != "function" or not fnmatch.fnmatchcase(region.name, reason.function):
                continue
            for line in sorted(region.lines):
                if reason.text in source[line - 1]:
                    used.add(reason)
                    out.update(dict.fromkeys(_block(source, line), reason.why))
    return out


@dataclass
class FileLines:
    statements: set[int]  # rule lines counted (excluded ones left out)
    games: set[int]  # reached by a game
    tests: set[int]  # reached by a scenario test
    excluded: set[int] = field(default_factory=set)  # statements excluded by a reasoned marker

    @property
    def unreached(self) -> set[int]:
        return self.statements - self.games - self.tests


def measure(title: str, games_data: str, tests_data: str | None, files: list[Path],
            only_entered: bool, reasons: list[Reason], used: set[Reason],
            more_games: tuple[str, ...] = ()) -> dict[Path, FileLines]:
    """Per file: its rule lines and which were reached; ``only_entered`` keeps the functions the games enter."""
    import coverage
    from coverage.python import PythonFileReporter

    def loaded(data_file: str | None, patterns: list[str], more: tuple[str, ...] = ()) -> Any:
        cov = coverage.Coverage(data_file=data_file)
        if data_file:
            cov.load()
        for extra in more:  # games kept by other runs (--add-games)
            other = coverage.CoverageData(basename=extra)
            other.read()
            cov.get_data().update(other)
        cov.clear_exclude()
        for pattern in patterns:
            cov.exclude(pattern)
        return cov

    by_games = loaded(games_data, exclusions(title), more_games)
    by_tests = loaded(tests_data, exclusions(title)) if tests_data else None
    bare = loaded(games_data, [], more_games)
    out: dict[Path, FileLines] = {}
    for path in files:
        _, statements, _, missing, _ = by_games.analysis2(str(path))
        all_statements = set(bare.analysis2(str(path))[1])
        tested = set(statements) - set(by_tests.analysis2(str(path))[3]) if by_tests else set()
        found = FileLines(set(statements), set(statements) - set(missing), tested,
                          all_statements - set(statements))
        if only_entered:
            entered: set[int] = set()
            for region in PythonFileReporter(str(path)).code_regions():
                if region.kind == "function" and region.lines & found.games:
                    entered |= region.lines
            found.statements &= entered
            found.games &= entered
            found.tests &= entered
            found.excluded &= entered
        named = set(reasoned_lines(path, title, reasons, used)) & found.unreached
        found.statements -= named
        found.excluded |= named
        out[path] = found
    return out


def unreasoned_markers(files: list[Path]) -> list[str]:
    """Markers that give no reason (they exclude nothing, so their lines count as unreached)."""
    out = []
    for path in files:
        for n, text in enumerate(path.read_text("utf-8").splitlines(), 1):
            found = MARKER.search(text)
            if found and not re.search(REASONED, found.group(2)):
                out.append(f"{path.relative_to(ROOT)}:{n}")
    return out


def ranges(numbers: set[int] | list[int]) -> str:
    out: list[list[int]] = []
    for n in sorted(numbers):
        if out and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in out)


def rule_files(title_dir: Path) -> tuple[list[Path], list[Path]]:
    own = sorted(title_dir.rglob("*.py"))
    core = sorted(p for p in (ENGINE / "core").rglob("*.py")
                  if not any(part.startswith(name) for name in NOT_RULES for part in p.relative_to(ENGINE).parts))
    return own, core


# The engine's unit tests of core rules (refusals, transfers, loans, prices...): quick, each on a position it builds.
CORE_TESTS = ("test_core_units", "test_share_units", "test_transfer", "test_loans_and_trains", "test_game_end",
              "test_abilities", "test_train_kinds", "test_track_network", "test_price_ranges", "test_round_plan",
              "test_replay_liveness", "test_core_refusals", "test_core_runs")


def default_tests(title: str) -> list[str]:
    """The title's own tests and the core's unit tests (``CORE_TESTS``; the other engine tests play whole games of
    every title, which would count other titles' lines)."""
    here = ROOT / "tests" / "engine"
    return sorted(str(p.relative_to(ROOT)) for p in [*here.glob(f"test_{title}*.py"),
                                                     *(here / f"{name}.py" for name in CORE_TESTS)] if p.exists())


def run_child(cmd: list[str]) -> int:
    return subprocess.run(cmd, cwd=ROOT, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.rule_coverage", description=__doc__.split("\n\n")[0])
    parser.add_argument("title")
    parser.add_argument("n", type=int)
    parser.add_argument("seed_base", type=int)
    parser.add_argument("--policies", default="random,steady,seeker")
    parser.add_argument("--optional-rules", default="")
    parser.add_argument("--players", default="", help="LO-HI (default: the title's range)")
    parser.add_argument("--tests", default="", help="scenario test files, comma-separated "
                        "(default: tests/engine/test_TITLE*.py)")
    parser.add_argument("--no-tests", action="store_true", help="count the games only")
    parser.add_argument("--show-reached-by-tests", action="store_true", help="list lines only tests reach")
    parser.add_argument("--show-excluded", action="store_true", help="list the excluded lines and reasons")
    parser.add_argument("--keep", metavar="DIR", help="keep the coverage data in DIR; what DIR holds already (the "
                        "games; the tests) is measured again without running it (delete DIR/tests.exit to rerun "
                        "the tests)")
    parser.add_argument("--add-games", default="", metavar="DIR,...", help="count also the games kept in these "
                        "--keep directories (another seed range or policy)")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the games, as JSON, run under coverage
    args = parser.parse_args(argv)
    rules = [r for r in args.optional_rules.split(",") if r]
    cls = title_class(args.title)
    if args.child:
        spec: dict[str, Any] = json.loads(args.child)
        found = play(cls.TITLE, [(int(p), str(pol), int(s)) for p, pol, s in spec["games"]], rules)
        Path(spec["report"]).write_text(json.dumps(found), "utf-8")
        return 0
    label = cls.TITLE + "".join(f"+{r}" for r in rules)
    data = cls.data()["game"]
    lo, hi = (int(x) for x in args.players.split("-")) if args.players else (
        int(data.get("min_players", 2)), int(data.get("max_players", 6)))
    games = plan(args.n, args.seed_base, [p for p in args.policies.split(",") if p], (lo, hi))
    tests = [] if args.no_tests else ([t for t in args.tests.split(",") if t] or default_tests(cls.TITLE))
    own_files, core_files = rule_files(ENGINE / "titles" / cls.DATA_PACKAGE.rsplit(".", 1)[-1])
    cov_run = [sys.executable, "-m", "coverage", "run", f"--source={ENGINE}"]
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(args.keep) if args.keep else Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        games_data, tests_data, report = (str(where / n) for n in ("games", "tests", "report.json"))
        if not (args.keep and Path(report).exists()):
            code = run_child([*cov_run, f"--data-file={games_data}", "-m", "engine.rule_coverage", cls.TITLE,
                              str(args.n), str(args.seed_base), f"--optional-rules={args.optional_rules}",
                              "--child", json.dumps({"games": games, "report": report})])
            if code != 0:
                print(f"error: the games under coverage failed (exit {code})", file=sys.stderr)
                return 1
            (where / "plan.json").write_text(json.dumps(games), "utf-8")
        tests_report = Path(tests_data + ".exit")
        earlier = json.loads(Path(report).read_text("utf-8"))
        if isinstance(earlier, dict) and "tests_exit" in earlier and not tests_report.exists():
            tests_report.write_text(str(earlier["tests_exit"]), "utf-8")  # a run kept by the tool's first version
        if tests and not (args.keep and tests_report.exists()):
            code = run_child([*cov_run, f"--data-file={tests_data}", "-m", "pytest", "-q", "-n", "0",
                              "-p", "no:cacheprovider", *tests])
            tests_report.write_text(str(code), "utf-8")
        found = json.loads(Path(report).read_text("utf-8"))
        bad: list[str] = found["games"] if isinstance(found, dict) else found
        tests_failed = int(tests_report.read_text("utf-8")) if tests else 0
        reasons, used = read_reasons(), set[Reason]()
        more = tuple(str(Path(d) / "games") for d in args.add_games.split(",") if d)
        for extra in more:
            kept = json.loads((Path(extra).parent / "report.json").read_text("utf-8"))
            bad += kept["games"] if isinstance(kept, dict) else kept
            plan_file = Path(extra).parent / "plan.json"
            if plan_file.exists():
                games += [(int(p), str(pol), int(sd)) for p, pol, sd in json.loads(plan_file.read_text("utf-8"))]
        own = measure(cls.TITLE, games_data, tests_data if tests else None, own_files, False, reasons, used, more)
        core = measure(cls.TITLE, games_data, tests_data if tests else None, core_files, True, reasons, used, more)
    for line in bad:
        print(f"problem: {line}")
    if tests_failed:
        print(f"problem: the scenario tests failed (pytest exit {tests_failed}): {' '.join(tests)}")
    for marker in unreasoned_markers(own_files + core_files):
        print(f"marker without a reason (excludes nothing): {marker}")
    anywhere: set[Reason] = set()
    for path in sorted((ENGINE / "titles").rglob("*.py")) + core_files:
        for entry in reasons:
            reasoned_lines(path, entry.titles[0] if entry.titles else cls.TITLE, [entry], anywhere)
    for stale in sorted((r for r in reasons if r not in anywhere), key=lambda r: r.function):
        print(f"stale reason (matches no line of any title or the core): {stale.function} {stale.text!r}")
    for name, reason in NOT_RULES.items():
        print(f"not rules: engine/core/{name}: {reason}")
    for label_kind, measured in (("title", own), ("core", core)):
        for path, f in measured.items():
            if not f.statements and not f.excluded:
                continue
            rel = path.relative_to(ROOT)
            reached = len(f.statements) - len(f.unreached)
            share = 100 * reached / max(1, len(f.statements))
            line = f"{label_kind} {rel}: {share:.1f}% ({reached}/{len(f.statements)})"
            if f.unreached:
                line += f" unreached without a reason: {ranges(f.unreached)}"
            if args.show_reached_by_tests and f.tests - f.games:
                line += f"; only by tests: {ranges(f.tests - f.games)}"
            if args.show_excluded and f.excluded:
                line += f"; excluded with reasons: {ranges(f.excluded)}"
            print(line)
    every = list(own.values()) + list(core.values())
    total = sum(len(f.statements) for f in every)
    by_games = sum(len(f.statements & f.games) for f in every)
    by_tests = sum(len(f.statements & (f.tests - f.games)) for f in every)
    unreached = sum(len(f.unreached) for f in every)
    excluded = sum(len(f.excluded) for f in every)

    def pct(part: int, whole: int) -> str:
        return f"{100 * part / max(1, whole):.1f}%"

    own_total = sum(len(f.statements) for f in own.values())
    own_reached = own_total - sum(len(f.unreached) for f in own.values())
    core_total = total - own_total
    core_reached = core_total - sum(len(f.unreached) for f in core.values())
    print(f"{label}: {len(games)} games ({len(bad)} with problems), {len(tests)} scenario test files; title code "
          f"{pct(own_reached, own_total)} ({own_reached}/{own_total}), core it uses {pct(core_reached, core_total)} "
          f"({core_reached}/{core_total})")
    print(f"{label}: {pct(total - unreached, total)} of rule lines reached ({unreached} unreached without a reason; "
          f"{pct(by_games, total)} by games, {by_tests} lines only by scenario tests, {excluded} excluded with "
          f"reasons)")
    return 0 if not bad and not tests_failed else 1


if __name__ == "__main__":
    sys.exit(main())
