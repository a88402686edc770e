"""Proof that a refactor changed no behaviour: a digest of seeded playouts.

``python -m engine.playout_digest TITLE N SEED_BASE [--players P] [--policy random|steady|seeker]
[--optional-rules A,B]`` plays N seeded games (seeds SEED_BASE .. SEED_BASE+N-1, as ``engine.playout``) and
hashes, per game, everything an outside reader can see: the 18xx.games document, every action's events, the
fingerprint of the state after every action and the whole log. It prints one line per game and a last line
``TITLE ...: N games, digest HEX``. Run it before and after a change and compare the outputs (``diff``): equal
digests mean the same choices, the same states, the same events and the same words.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

from .core import events as ev
from .core.errors import GameError
from .core.game import Game
from .fingerprint import fingerprint
from .playout import POLICIES, default_players, game_document, random_playout, title_and_rules


def game_digest(title: str, players: int, seed: int, *, policy: str = "random",
                optional_rules: list[str] | None = None, max_actions: int = 5000) -> tuple[str, int]:
    """The sha256 of one seeded playout's document, events, states and log, and its number of actions."""
    sha = hashlib.sha256()

    def after(game: Game, action: dict[str, Any], outcome: ev.Outcome) -> None:
        sha.update(json.dumps(action, sort_keys=True, default=str).encode())
        sha.update(repr(outcome.events).encode())
        sha.update(json.dumps(fingerprint(game), sort_keys=True, default=str).encode())

    result = random_playout(title, players, seed, max_actions=max_actions, policy=policy,
                            optional_rules=optional_rules, after=after)
    doc = game_document(title, result.game, seed, list(optional_rules or []))
    sha.update(json.dumps(doc, sort_keys=True, default=str).encode())
    sha.update("\n".join(result.game.log_lines).encode())
    sha.update(repr(result.problems).encode())
    return sha.hexdigest(), result.actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.playout_digest",
                                     description="Hash seeded playouts (documents, events, states, logs) so that "
                                                 "two versions of the engine can be compared.")
    parser.add_argument("title")
    parser.add_argument("games", type=int)
    parser.add_argument("seed_base", type=int)
    parser.add_argument("--players", type=int, default=None, help="players per game (default: the title's "
                                                                  "smallest number, up to 4)")
    parser.add_argument("--policy", choices=POLICIES, default="random")
    parser.add_argument("--optional-rules", default="", help="comma-separated optional rules")
    parser.add_argument("--max-actions", type=int, default=5000)
    args = parser.parse_args(argv)
    try:
        cls, rules = title_and_rules(args.title, args.optional_rules)
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    players = args.players or default_players(cls)
    total = hashlib.sha256()
    for seed in range(args.seed_base, args.seed_base + args.games):
        digest, actions = game_digest(cls.TITLE, players, seed, policy=args.policy, optional_rules=rules,
                                      max_actions=args.max_actions)
        total.update(digest.encode())
        print(f"seed {seed}: {actions} actions, {digest}", flush=True)
    name = cls.TITLE + (f" ({','.join(rules)})" if rules else "")
    print(f"{name} {args.policy} p{players}: {args.games} games, digest {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
