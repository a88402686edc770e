"""Proof that seeded games end with every invariant kept: liveness, money, forced purchases.

``python -m engine.playout_check TITLE N SEED_BASE [--players LO-HI] [--policies random,steady,seeker]
[--optional-rules A,B]`` plays N seeded games as ``engine.playout`` does, its invariants checked after every
action, and names them as the oracle does: game i is ``TITLE-pP-POLICY-sS`` with P cycling through the player
counts, POLICY changing after each full cycle and S = SEED_BASE + i. It prints one line per game (with the reason
it ended), the count of games by end reason, and a last line
``TITLE: K/N playouts ended with no problem (first problem: ...)``. Exit 0 when every game ended without one.
"""

from __future__ import annotations

import argparse
import sys

from .core.errors import GameError
from .playout import POLICIES, random_playout, title_and_rules


def plan(n: int, seed_base: int, players: tuple[int, int], policies: list[str]) -> list[tuple[int, str, int]]:
    """(players, policy, seed) of each game, in the oracle's order (``run.sh``)."""
    lo, hi = players
    span = hi - lo + 1
    return [(lo + i % span, policies[(i // span) % len(policies)], seed_base + i) for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.playout_check", description=__doc__.split("\n")[0])
    parser.add_argument("title")
    parser.add_argument("games", type=int)
    parser.add_argument("seed_base", type=int)
    parser.add_argument("--players", default="", metavar="LO-HI", help="player counts (default: the title's)")
    parser.add_argument("--policies", default="random,steady,seeker", help="comma-separated policies to cycle")
    parser.add_argument("--optional-rules", default="", help="comma-separated optional rules")
    parser.add_argument("--max-actions", type=int, default=5000)
    args = parser.parse_args(argv)
    try:
        cls, rules = title_and_rules(args.title, args.optional_rules)
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    policies = [p for p in args.policies.split(",") if p]
    if not policies or any(p not in POLICIES for p in policies):
        print(f"error: policies are {', '.join(POLICIES)}", file=sys.stderr)
        return 2
    data = cls.data()["game"]
    lo, _, hi = args.players.partition("-")
    try:
        counts = (int(lo or data["min_players"]), int(hi or lo or data["max_players"]))
    except ValueError:
        print("error: --players is LO-HI, such as 3-5", file=sys.stderr)
        return 2
    good = 0
    first: str | None = None
    ends: dict[str, int] = {}  # games by the reason they ended
    for players, policy, seed in plan(args.games, args.seed_base, counts, policies):
        name = f"{args.title}-p{players}-{policy}-s{seed}"
        result = random_playout(cls.TITLE, players, seed, max_actions=args.max_actions, policy=policy,
                                optional_rules=rules)
        problem = result.problems[0] if result.problems else None
        if problem is None and not result.game.finished:
            problem = f"no game end within {args.max_actions} actions"
        if problem is None:
            good += 1
        else:
            first = first or f"{name}: {problem}"
        if problem is None:
            reason = str(result.game.game_end_reason)
            ends[reason] = ends.get(reason, 0) + 1
        print(f"{name}: {result.actions} actions, "
              f"{f'ended ({result.game.game_end_reason})' if problem is None else 'PROBLEM: ' + problem}", flush=True)
    if ends:
        print("ends: " + ", ".join(f"{reason} {count}" for reason, count in sorted(ends.items())))
    label = cls.TITLE + (f" ({','.join(rules)})" if rules else "")
    print(f"{label}: {good}/{args.games} playouts ended with no problem (first problem: {first or 'none'})")
    return 0 if good == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
