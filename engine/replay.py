"""``python -m engine.replay FILE.json [--json]``: replay an 18xx.games game and print the result.

Exit 0 when every action applies, 1 at the first refused action, 2 for a file that is not a game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from .core.errors import GameError
from .importer import ReplayError, read_game_file, replay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.replay", description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        gf = read_game_file(args.file)
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        game = replay(gf)
    except ReplayError as exc:
        print(f"error: action {exc.action_id} refused: {exc.error.message}", file=sys.stderr)
        return 1
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    applied = game_applied(gf.actions)
    out: dict[str, Any] = {
        "title": gf.title,
        "players": {str(pid): name for pid, name in gf.players},
        "result": game.result(),
        "game_end_reason": game.game_end_reason,
        "finished": game.finished,
        "actions": applied,
        "seconds": round(seconds, 6),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{gf.title}: {'finished' if game.finished else 'in progress'}"
              f"{' (' + str(game.game_end_reason) + ')' if game.game_end_reason else ''}")
        for pid, name in gf.players:
            print(f"  {name}: {out['result'][str(pid)]}")
        print(f"  {applied} actions in {seconds * 1000:.1f} ms")
    return 0


def game_applied(actions: list[dict[str, Any]]) -> int:
    from .core.actions import filter_undo

    kept = filter_undo(actions)
    return sum(1 + len(a.get("auto_actions") or ()) for a in kept)


if __name__ == "__main__":
    sys.exit(main())
