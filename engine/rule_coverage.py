"""Rule coverage: the share of a title's rule code that seeded games reach, and the lines they never reach.

``python -m engine.rule_coverage TITLE N SEED_BASE [--policies random,steady,seeker] [--optional-rules A,B]
[--players LO-HI] [--show-core]`` plays N seeded games (seeds SEED_BASE.., player counts cycling through the
title's range, policies in turn after each cycle, as the oracle's run.sh names them) with the invariants checked
after every action, under coverage.py, and prints for the title's own code (``engine/titles/gT/``) and for the core
it runs on (``engine/core/``) the share of lines executed, then every title line never reached. The last line is

``TITLE: rule coverage T% of the title's code (a/b lines), C% of the core (c/d), N games, E with problems``

The games run in a child process started under ``coverage run``, so that the lines run when modules load count too.
coverage.py is a dev dependency (pyproject.toml); the engine itself never needs it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .titles import title_class

ENGINE = Path(__file__).resolve().parent


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
    for players, policy, seed in games:
        result = random_playout(title, players, seed, max_actions=8000, policy=policy, optional_rules=rules)
        if result.problems or not result.game.finished:
            what = "; ".join(result.problems) or "no end within 8000 actions"
            bad.append(f"{title}-p{players}-{policy}-s{seed}: {what[:300]}")
    return bad


def lines(data_file: str, files: list[Path]) -> dict[Path, tuple[list[int], list[int]]]:
    """Per file: its statements and those never executed."""
    import coverage
    cov = coverage.Coverage(data_file=data_file)
    cov.load()
    out = {}
    for path in files:
        _, statements, _, missing, _ = cov.analysis2(str(path))
        out[path] = (list(statements), list(missing))
    return out


def share(found: dict[Path, tuple[list[int], list[int]]]) -> tuple[int, int]:
    total = sum(len(s) for s, _ in found.values())
    return total - sum(len(m) for _, m in found.values()), total


def ranges(numbers: list[int]) -> str:
    out: list[str] = []
    for n in sorted(numbers):
        if out and "-" not in out[-1] and int(out[-1]) == n - 1:
            out[-1] = f"{out[-1]}-{n}"
        elif out and "-" in out[-1] and int(out[-1].split("-")[1]) == n - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.rule_coverage", description=__doc__.split("\n\n")[0])
    parser.add_argument("title")
    parser.add_argument("n", type=int)
    parser.add_argument("seed_base", type=int)
    parser.add_argument("--policies", default="random,steady,seeker")
    parser.add_argument("--optional-rules", default="")
    parser.add_argument("--players", default="", help="LO-HI (default: the title's range)")
    parser.add_argument("--show-core", action="store_true", help="list the core's unreached lines too")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the games, as JSON, run under coverage
    args = parser.parse_args(argv)
    rules = [r for r in args.optional_rules.split(",") if r]
    cls = title_class(args.title)
    if args.child:
        spec: dict[str, Any] = json.loads(args.child)
        found = play(cls.TITLE, [(int(p), str(pol), int(s)) for p, pol, s in spec["games"]], rules)
        Path(spec["report"]).write_text(json.dumps(found), "utf-8")
        return 0
    data = cls.data()["game"]
    lo, hi = (int(x) for x in args.players.split("-")) if args.players else (
        int(data.get("min_players", 2)), int(data.get("max_players", 6)))
    games = plan(args.n, args.seed_base, [p for p in args.policies.split(",") if p], (lo, hi))
    title_dir = ENGINE / "titles" / cls.DATA_PACKAGE.rsplit(".", 1)[-1]
    with tempfile.TemporaryDirectory() as tmp:
        data_file, report = str(Path(tmp) / "coverage"), str(Path(tmp) / "report.json")
        child = [sys.executable, "-m", "coverage", "run", f"--data-file={data_file}", f"--source={ENGINE}",
                 "-m", "engine.rule_coverage", cls.TITLE, str(args.n), str(args.seed_base),
                 f"--optional-rules={args.optional_rules}",
                 "--child", json.dumps({"games": games, "report": report})]
        done = subprocess.run(child, cwd=ENGINE.parent, check=False)
        if done.returncode != 0:
            print(f"error: the games under coverage failed (exit {done.returncode})", file=sys.stderr)
            return 1
        bad: list[str] = json.loads(Path(report).read_text("utf-8"))
        own = lines(data_file, sorted(title_dir.glob("*.py")))
        core = lines(data_file, sorted((ENGINE / "core").rglob("*.py")))
    # The core the title uses: the modules its games load (views and picture building are not rules).
    core = {path: found for path, found in core.items() if len(found[1]) < len(found[0])}
    for line in bad:
        print(f"problem: {line}")
    for label, measured, show in (("title", own, True), ("core", core, args.show_core)):
        for path, (statements, missing) in measured.items():
            if not statements:
                continue
            hit = len(statements) - len(missing)
            rel = path.relative_to(ENGINE.parent)
            print(f"{label} {rel}: {100 * hit / len(statements):.1f}% ({hit}/{len(statements)})"
                  + (f" unreached: {ranges(missing)}" if show and missing else ""))
    t_hit, t_all = share(own)
    c_hit, c_all = share(core)
    print(f"{cls.TITLE}: rule coverage {100 * t_hit / max(1, t_all):.1f}% of the title's code ({t_hit}/{t_all} "
          f"lines), {100 * c_hit / max(1, c_all):.1f}% of the core ({c_hit}/{c_all}), {len(games)} games, "
          f"{len(bad)} with problems")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
