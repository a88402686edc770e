"""Optimal-route speed: seconds per run_routes position of the recorded games of each title.

Each position is solved from scratch (graph, candidates, combination; wall time), and p50, p95 and max
are printed for the best of several runs and for the first run alone (targets: p95 <= 0.1 s,
max <= 2 s), and the CPU time of the best run (the process's own time: on a shared machine wall times
grow with the other processes' load, CPU times much less). Also the slowest positions, and a check that
every answer is proven and at least what the players ran.

    python benchmarks/routes.py [--runs N] [--stress] [--title T]

``--stress`` also times hypothetical train sets (two D trains, 6+D, 5+6, four 4-trains) for every
company in the final position of each game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import add_title_option, recorded_games  # noqa: E402
from engine.core.autoroute import solve  # noqa: E402
from engine.core.entities import Train  # noqa: E402
from engine.importer import read_game_file, replay  # noqa: E402
from engine.routes import claimed_revenue, positions  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="timed runs per position (best is kept)")
    parser.add_argument("--stress", action="store_true", help="also time hypothetical train sets")
    add_title_option(parser)
    args = parser.parse_args(argv)
    games = recorded_games(args.title)
    if not games:
        print("no recorded games for these titles in ../shared/fixtures")
        return 1
    problems = 0
    for title, files in games.items():
        print(f"== {title}")
        problems += measure(files, args)
    print("all proven and >= claimed" if not problems else f"{problems} problem positions")
    return 1 if problems else 0


def measure(files: list[Path], args: argparse.Namespace) -> int:
    """Times every run position of ``files``; returns how many were not proven or below what was run."""
    rows: list[tuple[float, str, object, str, list[str], int]] = []
    firsts: list[float] = []
    cpus: list[float] = []
    problems = 0
    for path in files:
        gf = read_game_file(path)
        for pos in positions(gf):
            best = first = cpu = float("inf")
            total = 0
            proven = True
            for run in range(max(1, args.runs)):
                t0, c0 = time.perf_counter(), time.process_time()
                sol = solve(pos.game, pos.corp, time_budget=10)
                took = time.perf_counter() - t0
                first = took if run == 0 else first
                best = min(best, took)
                cpu = min(cpu, time.process_time() - c0)
                total, proven = sol.total, sol.proven
            firsts.append(first)
            cpus.append(cpu)
            claimed = claimed_revenue(pos.game, pos.corp, pos.action)
            if not proven or total < claimed:
                problems += 1
                print(f"PROBLEM {path.name} action {pos.action.get('id')}: optimal {total} "
                      f"claimed {claimed} proven {proven}")
            rows.append((best, path.name, pos.action.get("id"), pos.corp.sym,
                         [t.name for t in pos.game.route_trains(pos.corp)], total))
    times = [r[0] for r in rows]
    print(f"{len(rows)} positions in {len(files)} games")
    for label, values in ((f"best of {args.runs}", times), ("first run", firsts), ("cpu, best", cpus)):
        print(f"{label:>10}: p50 {percentile(values, 0.50):.4f} s   p95 {percentile(values, 0.95):.4f} s"
              f"   max {max(values):.4f} s   mean {statistics.mean(values):.4f} s")
    print("slowest:")
    for t, name, aid, corp, trains, total in sorted(rows, reverse=True)[:5]:
        print(f"  {t:.4f} s  {name} action {aid}: {corp} [{' '.join(trains)}] ${total}")
    if args.stress:
        stress(files)
    return problems


def stress(files: list[Path]) -> None:
    sets = {"D D": [("D", 999), ("D", 999)], "6 D": [("6", 6), ("D", 999)], "5 6": [("5", 5), ("6", 6)],
            "4 4 4 4": [("4", 4)] * 4}
    out = []
    for path in files:
        game = replay(read_game_file(path))
        for corp in game.corporations.values():
            if not corp.ipoed or corp.closed:
                continue
            for key, spec in sets.items():
                trains = [Train(f"{name}-s{i}", name, d, 0) for i, (name, d) in enumerate(spec)]
                t0 = time.perf_counter()
                sol = solve(game, corp, trains=trains, time_budget=10)
                out.append((time.perf_counter() - t0, path.name, corp.sym, key, sol.total, sol.proven))
    times = [r[0] for r in out]
    print(f"stress: {len(out)} final-position solves with hypothetical trains:"
          f"  p50 {percentile(times, 0.5):.4f} s  p95 {percentile(times, 0.95):.4f} s  max {max(times):.4f} s"
          f"  all proven: {all(r[5] for r in out)}")
    for t, name, corp, key, total, _ in sorted(out, reverse=True)[:3]:
        print(f"  {t:.4f} s  {name}: {corp} [{key}] ${total}")


if __name__ == "__main__":
    sys.exit(main())
