"""Rendering speed and size on a real late-game state of each title, against the targets.

Run from the repository root:

    .venv/bin/python benchmarks/render.py [--runs 15] [--out /tmp/render] [--title T]

Prints, for the map, market and status card: the median time to draw the image, the median time
to encode it with ``to_png``, the PNG size and the image size. Targets: map <= 300 ms, market and
status <= 100 ms, every PNG <= 1.5 MB and >= 1200 px on its long side; the phone crop around the
last tile <= 100 ms. Then the charts of the same
game (all three panels and each one; target <= 300 ms for the drawing) and, apart, the cost of
reading the history from the log (a replay, paid once per game and position: the bot caches it).
The exit status is 1 when a target is missed. The state of each title is the end of its longest recorded game in
../shared/fixtures/TITLE/; without the shared fixtures the benchmark says so and exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from benchmarks.fixtures import add_title_option, largest, recorded_games  # noqa: E402
from engine import new_game  # noqa: E402
from engine.core.statusbuild import status_view  # noqa: E402
from engine.core.viewbuild import board_view, market_view  # noqa: E402
from engine.history import game_history  # noqa: E402
from engine.importer import GameFile, read_game_file, replay  # noqa: E402
from rendering import MAX_PNG_BYTES, render_map, render_market, render_status, to_png  # noqa: E402
from rendering.charts import render_chart  # noqa: E402
from rendering.map import render_crop  # noqa: E402

TARGET_MS = {"map": 300.0, "market": 100.0, "status": 100.0, "crop": 100.0, "chart": 300.0}
MIN_LONG_SIDE = 1200


def _median_ms(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    result = fn()  # warm caches (fonts, text widths) as a long-running bot would have them
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--out", type=Path, default=None, help="also write the PNGs here")
    add_title_option(parser)
    args = parser.parse_args(argv)
    games = recorded_games(args.title)
    if not games:
        print("skipped: no recorded games (they live in ../shared/fixtures)")
        return 0
    ok = True
    for title, files in games.items():
        ok &= measure(title, largest(files), args.runs, args.out / title if args.out else None)
    return 0 if ok else 1


def measure(title: str, late_game: Path, runs: int, out: Path | None) -> bool:
    gf = read_game_file(late_game)
    ok = measure_game(title, late_game.name, replay(gf), runs, out)
    return measure_charts(gf, runs, out) and ok


def measure_charts(gf: GameFile, runs: int, out: Path | None) -> bool:
    """Times of the history replay and of each chart of the game in ``gf`` against the chart target."""
    replay_runs = max(1, runs // 5)
    replay_ms, history = _median_ms(
        lambda: game_history(new_game(gf.title, gf.players, gf.seed, gf.options), gf.actions), replay_runs)
    print(f"history from the log: {replay_ms:.1f}ms for {len(gf.actions)} actions, {len(history.rounds)} rounds, "
          f"{len(history.payouts)} dividends (median of {replay_runs}; cached by the bot)")
    ok = True
    for kind in ("all", "value", "prices", "revenue"):
        render_ms, img = _median_ms(lambda kind=kind: render_chart(history, kind), runs)
        encode_ms, png = _median_ms(lambda img=img: to_png(img), max(3, runs // 3))
        good = render_ms <= TARGET_MS["chart"] and len(png) <= MAX_PNG_BYTES
        ok &= good
        print(f"{'chart ' + kind:<16}{render_ms:>8.1f}ms{TARGET_MS['chart']:>7.0f}ms{encode_ms:>8.1f}ms"
              f"{len(png) / 1000:>10.1f}kB{img.width:>7}x{img.height:<5}  {'ok' if good else 'MISSED'}")
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / f"chart-{kind}.png").write_bytes(png)
    return ok


def measure_game(title: str, label: str, game: Any, runs: int, out: Path | None) -> bool:
    """Times and sizes of the three pictures of ``game``'s position against the targets (True: all met)."""
    views_ms, (board, market, status) = _median_ms(
        lambda: (board_view(game), market_view(game), status_view(game)), runs)
    tokens = sum(1 for h in board.hexes for n in h.nodes for t in n.tokens if t)
    tiles = sum(1 for h in board.hexes if h.tile)
    print(f"{title} late game ({label}, {status.round_name}): {len(board.hexes)} hexes, {tiles} tiles "
          f"laid, {tokens} tokens, {len(board.last_routes)} routes; median of {runs} runs")
    print(f"building the three views: {views_ms:.1f}ms")
    jobs: list[tuple[str, Callable[[], Image.Image]]] = [
        ("map", lambda: render_map(board)),
        ("market", lambda: render_market(market)),
        ("status", lambda: render_status(status)),
        ("crop", lambda: render_crop(board, [board.last_tile_hex or board.hexes[0].id])),
    ]
    ok = True
    print(f"{'image':<8}{'render':>10}{'target':>9}{'to_png':>10}{'png size':>12}{'pixels':>13}  verdict")
    for name, fn in jobs:
        render_ms, img = _median_ms(fn, runs)
        encode_ms, png = _median_ms(lambda img=img: to_png(img), max(3, runs // 3))
        long_side = max(img.size)
        good = (render_ms <= TARGET_MS[name] and len(png) <= MAX_PNG_BYTES
                and (long_side >= MIN_LONG_SIDE or name == "crop"))
        ok &= good
        print(f"{name:<8}{render_ms:>8.1f}ms{TARGET_MS[name]:>7.0f}ms{encode_ms:>8.1f}ms"
              f"{len(png) / 1000:>10.1f}kB{img.width:>7}x{img.height:<5}  {'ok' if good else 'MISSED'}")
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / f"{name}.png").write_bytes(png)
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
