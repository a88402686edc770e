"""Replay speed: milliseconds per applied action over the recorded games of each title (``--title T`` for one).

Prints each game and, per title, the median of the five largest (the issue's figure, target <= 0.25 ms).
Times are CPU time (best of several runs) so other load on the machine matters less.

``--reference`` also times the 18xx.games engine on the same files (ruby and the oracle's set-up, see
../shared/oracle/README.md) and prints our time as a fraction of its time (target <= 0.35).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import add_title_option, recorded_games  # noqa: E402
from engine.core.actions import filter_undo  # noqa: E402
from engine.importer import read_game_file, replay  # noqa: E402


def reference_cpu(files: list[Path], runs: int) -> dict[str, float]:
    """Best-of-``runs`` CPU seconds of the reference engine per file name, or {} when it cannot run."""
    if shutil.which("ruby") is None:
        print("(--reference: ruby is not installed; see ../shared/oracle/README.md)")
        return {}
    script = Path(__file__).with_name("reference_replay.rb")
    done = subprocess.run(["ruby", str(script), str(runs), *map(str, files)], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        print(f"(--reference failed: {done.stderr.strip()[-500:]})")
        return {}
    return {name: float(sec) for name, sec in (line.split() for line in done.stdout.splitlines())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="timed replays per game (best is kept)")
    parser.add_argument("--reference", action="store_true", help="also time the 18xx.games engine")
    add_title_option(parser)
    args = parser.parse_args(argv)
    games = recorded_games(args.title)
    if not games:
        print("no recorded games for these titles in ../shared/fixtures")
        return 1
    for title, files in games.items():
        print(f"== {title}")
        measure(files, args.runs, args.reference)
    return 0


def measure(files: list[Path], runs: int, with_reference: bool) -> None:
    rows = []
    for path in files:
        gf = read_game_file(path)
        applied = sum(1 + len(a.get("auto_actions") or ()) for a in filter_undo(gf.actions))
        best_cpu = best_wall = float("inf")
        for _ in range(runs):
            c0, w0 = time.process_time(), time.perf_counter()
            replay(gf)
            best_cpu = min(best_cpu, time.process_time() - c0)
            best_wall = min(best_wall, time.perf_counter() - w0)
        rows.append((applied, path.name, best_cpu / applied * 1000, best_wall / applied * 1000))
    print(f"{'game':40} {'actions':>8} {'cpu ms/action':>14} {'wall ms/action':>15}")
    for applied, name, cpu, wall in rows:
        print(f"{name:40} {applied:8d} {cpu:14.3f} {wall:15.3f}")
    largest = sorted(rows, reverse=True)[:5]
    print(f"median over the {len(largest)} largest games: "
          f"{statistics.median(r[2] for r in largest):.3f} ms/action cpu, "
          f"{statistics.median(r[3] for r in largest):.3f} ms/action wall")
    if with_reference:
        ref = reference_cpu(files, max(1, runs // 2))
        if ref:
            print(f"{'game':40} {'ref ms/action':>14} {'ours/ref':>9}")
            ratios = []
            for applied, name, cpu, _ in rows:
                ref_ms = ref[name] / applied * 1000
                ratios.append((applied, cpu / ref_ms))
                print(f"{name:40} {ref_ms:14.3f} {cpu / ref_ms:9.2f}")
            top = [r for _, r in sorted(ratios, reverse=True)[:5]]
            print(f"our time / reference time, median over the {len(top)} largest games: {statistics.median(top):.2f}")


if __name__ == "__main__":
    sys.exit(main())
