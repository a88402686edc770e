"""``python -m rendering FILE.json [--before ACTION_ID] --out DIR``: draw a recorded game.

Replays an 18xx.games game file (optionally only the actions before ``ACTION_ID``) and writes
``map.png``, ``market.png`` and ``status.png`` into ``DIR`` (``--prefix`` puts a text in front of
the names). ``--story`` adds ``chart.png`` (the three charts), ``summary.png`` (the end-of-game card)
and ``crop.png`` (the phone crop around the last tile laid, or around ``--crop HEX``).
Exit 0 on success, 1 when an action is refused, 2 for a file that is not a game.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from engine.core.errors import GameError
from engine.core.statusbuild import status_view
from engine.core.viewbuild import board_view, market_view
from engine.importer import ReplayError, read_game_file, replay
from rendering import render_map, render_market, render_status, to_png


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rendering", description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--before", type=int, default=None, metavar="ACTION_ID",
                        help="replay only the actions whose id is lower than this")
    parser.add_argument("--out", type=Path, required=True, help="directory for map.png, market.png, status.png")
    parser.add_argument("--scale", type=float, default=1.0, help="map size factor (1.0: about 1500 px wide)")
    parser.add_argument("--prefix", default="", help="start of the file names, e.g. 1882-mid- for 1882-mid-map.png")
    parser.add_argument("--story", action="store_true", help="also the charts, the summary card and a phone crop")
    parser.add_argument("--crop", metavar="HEX", default=None, help="the hex the phone crop is centred on")
    parser.add_argument("--optimize", action="store_true",
                        help="smallest PNGs, slower to write (for pictures kept in the repository)")
    args = parser.parse_args(argv)
    try:
        gf = read_game_file(args.file)
        if args.before is not None:
            # Undo/redo only ever point backwards, so a prefix of the log is a valid log.
            gf = replace(gf, actions=[a for a in gf.actions if int(a.get("id", 0)) < args.before])
        game = replay(gf)
    except ReplayError as exc:
        print(f"error: action {exc.action_id} refused: {exc.error.message}", file=sys.stderr)
        return 1
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    images = {
        "map": render_map(board_view(game), scale=args.scale),
        "market": render_market(market_view(game)),
        "status": render_status(status_view(game)),
    }
    if args.story:
        from engine import new_game
        from engine.history import game_history
        from rendering.charts import render_chart
        from rendering.map import render_crop
        from rendering.summary import render_summary

        history = game_history(new_game(gf.title, gf.players, gf.seed, gf.options), gf.actions)
        board = board_view(game)
        images["chart"] = render_chart(history, "all")
        images["summary"] = render_summary(history)
        images["crop"] = render_crop(board, [args.crop or board.last_tile_hex or board.hexes[0].id])
    for name, img in images.items():
        path = args.out / f"{args.prefix}{name}.png"
        data = to_png(img, optimize=args.optimize)
        path.write_bytes(data)
        print(f"{path} {img.width}x{img.height} {len(data) / 1000:.0f} kB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
