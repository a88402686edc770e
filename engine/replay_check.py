"""Proof that a replay's memory changes nothing: seeded playouts replayed with and without it, compared.

``python -m engine.replay_check TITLE N SEED_BASE [--players P] [--policy random|steady|seeker]
[--optional-rules A,B]`` plays N seeded games (as ``engine.playout``), writes each as 18xx.games' document and
replays it twice: as ``importer.replay`` does, where the rounds remember their steps' answers between two actions
(``core.memory``), and action by action without that memory. After every action it compares the events, the
fingerprint of the state and the log; a game differs at its first action where one of them does. It prints one
line per game and a last line ``TITLE ...: N games, A actions, D differ``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any

from .core import actions as act
from .core import events as ev
from .core.errors import GameError
from .core.game import Game
from .core.memory import replaying
from .fingerprint import fingerprint
from .importer import GameFile, parse_game_json
from .playout import POLICIES, default_players, game_document, random_playout, title_and_rules
from .titles import title_class


def replay_states(gf: GameFile, *, remember: bool) -> Iterator[str]:
    """After each standing action: its events, the state's fingerprint and the log so far, as one text; the
    refusal's message where one is refused (the replay stops there)."""
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    with replaying(game) if remember else nullcontext():
        for action in act.filter_undo(gf.actions):
            try:
                with ev.recording() as events:
                    game._apply(action)
            except GameError as exc:
                yield f"refused: {exc.message}"
                return
            yield json.dumps([repr(events), fingerprint(game), game.log_lines], sort_keys=True, default=str)


def first_difference(gf: GameFile) -> tuple[int, int | None]:
    """(actions compared, index of the first action after which the two replays differ, or None)."""
    count = 0
    with_memory = replay_states(gf, remember=True)
    without = replay_states(gf, remember=False)
    for count, (a, b) in enumerate(zip(with_memory, without, strict=False), 1):
        if a != b:
            return count, count - 1
    if next(with_memory, None) is not None or next(without, None) is not None:
        return count, count
    return count, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.replay_check", description=__doc__)
    parser.add_argument("title")
    parser.add_argument("games", type=int)
    parser.add_argument("seed_base", type=int)
    parser.add_argument("--players", type=int)
    parser.add_argument("--policy", choices=POLICIES, default="random")
    parser.add_argument("--optional-rules", default="")
    args = parser.parse_args(argv)
    cls, optional = title_and_rules(args.title, args.optional_rules)
    players = args.players or default_players(cls)
    total = differ = 0
    for seed in range(args.seed_base, args.seed_base + args.games):
        result = random_playout(args.title, players, seed, policy=args.policy, optional_rules=optional)
        game: Game = result.game
        doc: dict[str, Any] = game_document(args.title, game, seed, optional)
        count, diff = first_difference(parse_game_json(doc))
        total += count
        differ += diff is not None
        print(f"seed {seed}: {count} actions, " + ("same" if diff is None else f"differs after action {diff}"))
    label = args.title + (f"+{args.optional_rules}" if args.optional_rules else "") + f" {args.policy}"
    print(f"{label}: {args.games} games, {total} actions, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
