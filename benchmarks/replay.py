"""Replay speed: our engine against the 18xx.games engine on the same recorded games, in the same run.

For every title with recorded games (../shared/fixtures/<title>/, and for 1830 also the oracle checkout's
public/fixtures/1830) it prints each game's CPU time per applied action, ours and the 18xx.games (Ruby) engine's,
then per title our time, Ruby's time and their ratio over its five largest games, and a last summary line with each
title's ratio against the target (<= 0.30). Games under 100 applied actions are listed but not counted: their time
is mostly the engines' start-up. Times are CPU time, best of several runs, so other load on the machine matters
less, and the two engines take turns (``--rounds``); compare ratios measured in one run.

Ruby's side needs ruby and the oracle's set-up (../shared/oracle/README.md; ``TOBY_DIR``). Without them, or with
``--no-reference``, only our own figures are printed.

    .venv/bin/python benchmarks/replay.py [--title T ...] [--runs N] [--rounds N] [--no-reference]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import add_title_option, recorded_games  # noqa: E402
from engine import TITLES  # noqa: E402
from engine.core.actions import filter_undo  # noqa: E402
from engine.importer import read_game_file, replay  # noqa: E402

TARGET = 0.30
COUNTED = 5  # a title's figure is taken over its five largest games
MIN_ACTIONS = 100
# Titles whose recorded games the oracle's checkout of tobymao/18xx also holds (public/fixtures/<folder>). Its
# 1862 is another game (the Eastern Counties) than ours (USA & Canada), so 1862 has no recorded games to time.
ORACLE_FIXTURES = {"1830": "1830"}


@dataclass(slots=True)
class Row:
    path: Path
    applied: int
    cpu: float  # best CPU seconds of one replay
    wall: float
    ref: float | None = None  # best CPU seconds of the 18xx.games engine


def toby_dir() -> Path:
    default = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "roundhouse-oracle" / "18xx"
    return Path(os.environ.get("TOBY_DIR", default))


def games_of(titles: list[str] | None) -> dict[str, list[Path]]:
    games = recorded_games(titles)
    for title, folder in ORACLE_FIXTURES.items():
        if titles and title not in titles:
            continue
        have = {p.name for p in games.get(title, [])}
        extra = [p for p in sorted((toby_dir() / "public" / "fixtures" / folder).glob("*.json")) if p.name not in have]
        if extra:
            games[title] = [*games.get(title, []), *extra]
    return games


def reference_cpu(files: list[Path], runs: int) -> dict[Path, float]:
    """Best-of-``runs`` CPU seconds of the reference engine per file, or {} when it cannot run."""
    if shutil.which("ruby") is None:
        print("(no reference: ruby is not installed; see ../shared/oracle/README.md)")
        return {}
    script = Path(__file__).with_name("reference_replay.rb")
    done = subprocess.run(["ruby", str(script), str(runs), *map(str, files)], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        print(f"(no reference: {done.stderr.strip()[-500:]})")
        return {}
    by_name = {name: float(sec) for name, sec in (line.split() for line in done.stdout.splitlines())}
    return {path: by_name[path.name] for path in files if path.name in by_name}


def measure(files: list[Path], runs: int) -> list[Row]:
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
        rows.append(Row(path, applied, best_cpu, best_wall))
    return rows


def counted(rows: list[Row]) -> list[Row]:
    """The games a title's figure is taken over: its five largest of at least MIN_ACTIONS applied actions."""
    return sorted((r for r in rows if r.applied >= MIN_ACTIONS), key=lambda r: -r.applied)[:COUNTED]


def report(title: str, rows: list[Row]) -> float | None:
    """Print the title's games and totals; return its ratio to the reference engine (None without one)."""
    print(f"{'game':40} {'actions':>7} {'ours ms/act':>11} {'wall ms/act':>11} {'ruby ms/act':>11} {'ours/ruby':>9}")
    for r in rows:
        ref = f"{r.ref / r.applied * 1000:11.3f} {r.cpu / r.ref:9.2f}" if r.ref else f"{'-':>11} {'-':>9}"
        print(f"{r.path.name:40} {r.applied:7d} {r.cpu / r.applied * 1000:11.3f} {r.wall / r.applied * 1000:11.3f} "
              f"{ref}")
    top = counted(rows)
    if not top:
        print(f"{title}: no recorded game of {MIN_ACTIONS} actions or more")
        return None
    ours = sum(r.cpu for r in top)
    names = ", ".join(r.path.name for r in top)
    actions = sum(r.applied for r in top)
    if any(r.ref is None for r in top):
        print(f"{title}: ours {ours:.3f} s ({ours / actions * 1000:.3f} ms/action) over {names}")
        return None
    ruby = sum(r.ref or 0.0 for r in top)
    print(f"{title}: ours {ours:.3f} s, 18xx.games {ruby:.3f} s, ratio {ours / ruby:.2f} over {names}")
    return ours / ruby


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="timed replays per game (best is kept)")
    parser.add_argument("--rounds", type=int, default=2, help="turns each engine takes (best is kept)")
    parser.add_argument("--no-reference", action="store_true", help="do not time the 18xx.games engine")
    add_title_option(parser)
    args = parser.parse_args(argv)
    games = games_of(args.title)
    if not games:
        print("no recorded games for these titles in ../shared/fixtures")
        return 1
    ratios: dict[str, float | None] = {}
    for title, files in games.items():
        print(f"== {title}")
        # The two engines take turns (--rounds), each keeping its best time, so that a spell of load on the
        # machine weighs on both alike.
        rows: list[Row] = []
        for _ in range(args.rounds):
            now = measure(files, args.runs)
            rows = rows or now
            for r, n in zip(rows, now, strict=True):
                r.cpu, r.wall = min(r.cpu, n.cpu), min(r.wall, n.wall)
            if not args.no_reference:
                ref = reference_cpu(files, max(1, args.runs // 2))
                for r in rows:
                    got = ref.get(r.path)
                    if got is not None and (r.ref is None or got < r.ref):
                        r.ref = got
        ratios[title] = report(title, rows)
    missing = [t for t in (args.title or TITLES) if t not in games]
    parts = [f"{t} {'-' if r is None else f'{r:.2f}'}{'' if r is None else (' ok' if r <= TARGET else ' OVER')}"
             for t, r in ratios.items()] + [f"{t} - (no recorded games)" for t in missing]
    print(f"replay time / 18xx.games time (target <= {TARGET:.2f}): {', '.join(parts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
