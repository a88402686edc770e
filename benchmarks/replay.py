"""Replay speed: milliseconds per applied action over the recorded 1882 games.

Prints each game and the median of the five largest (the issue's figure, target <= 0.25 ms).
Times are CPU time (best of several runs) so other load on the machine matters less.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.actions import filter_undo  # noqa: E402
from engine.importer import read_game_file, replay  # noqa: E402

FIXTURES = ROOT.parent / "shared" / "fixtures" / "1882"


def main(runs: int = 7) -> int:
    files = sorted(FIXTURES.glob("*.json"))
    if not files:
        print(f"no recorded games in {FIXTURES}")
        return 1
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
