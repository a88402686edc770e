"""The share of expressions mypy types ``Any``, per title and for the engine's core (issue 32's target: titles < 2%).

Runs mypy with ``--any-exprs-report`` over engine/ and sums its per-module counts by package:
    python -m benchmarks.any_share            # per title, core, and the titles' total (the last line)
    python -m benchmarks.any_share --modules  # and every module of engine/titles with its own share
The figure counts what mypy cannot check: an expression typed Any hides a boundary (a step that sees its game as
Any, an action read as dict[str, Any]).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def any_counts(report_dir: Path) -> dict[str, tuple[int, int]]:
    """Module -> (expressions typed Any, all expressions), read from mypy's any-exprs.txt."""
    out: dict[str, tuple[int, int]] = {}
    for line in (report_dir / "any-exprs.txt").read_text("utf-8").splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[1].isdigit() and parts[2].isdigit():
            out[parts[0]] = (int(parts[1]), int(parts[2]))
    return out


def group_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["engine", "titles"] and len(parts) > 2:
        return f"titles/{parts[2]}"
    if parts[:2] == ["engine", "core"]:
        return "core"
    return None


def share(anys: int, exprs: int) -> str:
    return f"{100 * anys / exprs:5.1f}%" if exprs else "  n/a"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--modules", action="store_true", help="also print every title module")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([sys.executable, "-m", "mypy", "--any-exprs-report", tmp, "-p", "engine"],
                             cwd=ROOT, capture_output=True, text=True)
        if not (Path(tmp) / "any-exprs.txt").exists():
            print(run.stdout + run.stderr, file=sys.stderr)
            return 2
        counts = any_counts(Path(tmp))
    groups: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for module, (anys, exprs) in counts.items():
        group = group_of(module)
        if group is None:
            continue
        groups[group][0] += anys
        groups[group][1] += exprs
        if args.modules and group.startswith("titles/"):
            print(f"{module:45} {anys:6} / {exprs:6}  {share(anys, exprs)}")
    for group in sorted(groups):
        anys, exprs = groups[group]
        print(f"{group:20} {anys:6} / {exprs:6} expressions typed Any  {share(anys, exprs)}")
    titles = [groups[g] for g in groups if g.startswith("titles/")]
    anys, exprs = sum(a for a, _ in titles), sum(e for _, e in titles)
    print(f"engine/titles: {anys} of {exprs} expressions typed Any: {share(anys, exprs).strip()} (target < 2%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
