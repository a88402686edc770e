"""``python -m engine.replay FILE.json [--json] [--trace OUT.jsonl]``: replay an 18xx.games game, print the result.

Exit 0 when every action applies, 1 at the first refused action, 2 for a file that is not a game, 3 when every
action applies but the game stops unfinished at a dead end: nobody who must act has a legal action, or a forced
train purchase lacks the way out the rules give (the liveness invariants of ``engine.core.invariants``).
``--trace`` writes one JSON line per standing action with the oracle's state fingerprint after it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from .core.errors import GameError
from .core.game import Game
from .core.invariants import forced_purchase_problems, liveness_problems
from .fingerprint import fingerprint
from .importer import ReplayError, read_game_file, replay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.replay", description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--trace", metavar="OUT.jsonl", help="write the state fingerprint after each action")
    args = parser.parse_args(argv)
    try:
        gf = read_game_file(args.file)
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    trace = open(args.trace, "w", encoding="utf-8") if args.trace else None  # noqa: SIM115 (closed below)
    started = time.perf_counter()
    try:
        game = replay(gf, _tracer(trace) if trace else None)
    except ReplayError as exc:
        print(f"error: action {exc.action_id} refused: {exc.error.message}", file=sys.stderr)
        return 1
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    finally:
        if trace:
            trace.close()
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
        "dead_end": dead_end(game),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{gf.title}: {'finished' if game.finished else 'in progress'}"
              f"{' (' + str(game.game_end_reason) + ')' if game.game_end_reason else ''}")
        for pid, name in gf.players:
            print(f"  {name}: {out['result'][str(pid)]}")
        print(f"  {applied} actions in {seconds * 1000:.1f} ms")
    for problem in out["dead_end"]:
        print(f"error: {problem}", file=sys.stderr)
    return 3 if out["dead_end"] else 0


def dead_end(game: Game) -> list[str]:
    """Why the replayed game, left unfinished, cannot go on (empty when it can, or when it is over)."""
    if game.finished:
        return []
    return liveness_problems(game) + forced_purchase_problems(game)


def _tracer(out: TextIO) -> Callable[[int, dict[str, Any], Game], None]:
    def write(index: int, action: dict[str, Any], game: Game) -> None:
        line = {"i": index, "id": action.get("id"), "type": action.get("type"), "fp": fingerprint(game)}
        out.write(json.dumps(line, separators=(",", ":")) + "\n")
        out.flush()

    return write


def game_applied(actions: list[dict[str, Any]]) -> int:
    from .core.actions import filter_undo

    kept = filter_undo(actions)
    return sum(1 + len(a.get("auto_actions") or ()) for a in kept)


if __name__ == "__main__":
    sys.exit(main())
