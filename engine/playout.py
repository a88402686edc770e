"""Seeded random games played through the query API (tests, benchmarks and the oracle).

``python -m engine.playout TITLE --players N --seed S [--policy random|steady|seeker] --out FILE.json`` writes one
game as an 18xx.games document: exit 0 when it reached its end, 1 when it stalled (the file holds the game
as far as it got), 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core import query
from .core.errors import GameError, malformed
from .core.events import Outcome
from .core.game import Game
from .core.invariants import forced_purchase_problems, liveness_problems, problems
from .importer import EDITION_SETTING
from .titles import export_title, title_class

# Relative weights: keep games moving (buying, building, running) rather than passing forever.
WEIGHTS = {
    "pass": 1.0, "bid": 3.0, "par": 4.0, "buy_shares": 6.0, "sell_shares": 0.5, "lay_tile": 5.0,
    "place_token": 3.0, "run_routes": 10.0, "dividend": 3.0, "buy_train": 8.0, "discard_train": 1.0,
    "buy_company": 0.5, "remove_token": 0.3, "bankrupt": 1.0,
}

# "Steady" players build and pay out and rarely sell, so games also reach the bank and stock-market ends.
STEADY_WEIGHTS = {
    **WEIGHTS, "pass": 2.0, "sell_shares": 0.02, "bankrupt": 0.01, "buy_company": 0.2, "remove_token": 0.05,
    "buy_shares": 2.0, "lay_tile": 8.0, "place_token": 4.0,
}


# The "seeker" steers toward the rules ordinary play rarely reaches (bankruptcy, the stock-market end and price
# zero, forced purchases, mergers, the last trains, every private's power), still choosing only legal moves. Its
# three flavours, by seed: spend (pay out, over-buy trains, so treasuries run dry when trains rust), crash (sell and
# withhold, so prices fall) and privates (use every private's power, buy privates into companies).
SEEKER_WEIGHTS = {
    **WEIGHTS, "bankrupt": 50.0, "merge": 6.0, "buy_company": 4.0, "redeem": 3.0, "close_private": 0.5,
}
SEEKER_FLAVOURS = ("spend", "crash", "privates")

POLICIES = ("random", "steady", "seeker")


def seeker_flavour(seed: int) -> str:
    return SEEKER_FLAVOURS[seed % len(SEEKER_FLAVOURS)]


def _seeker_weight(option: dict[str, object], flavour: str) -> float:
    kind = str(option["type"])
    weight = SEEKER_WEIGHTS.get(kind, 1.0)
    price = option.get("price")
    cost = int(price) if isinstance(price, int) else 0
    if option.get("entity_type") == "company":
        weight *= 6 if flavour == "privates" else 2  # a private's own power: lay, token, exchange, close
    elif kind == "buy_company" and option.get("entity_type") == "player":
        # Players trading privates among themselves (1830) is a turn that ends no round: weighted up, the stock
        # round never ends (1830 seeker games ran 5,000 actions of trades in Stock Round 2).
        weight = 0.05
    if flavour == "spend":
        if kind == "dividend":
            weight *= 20 if option.get("kind") == "payout" else 0.2
        elif kind == "buy_train":
            weight *= 1 + cost / 100  # the dearest trains first: treasuries run dry
        elif kind == "sell_shares":
            weight *= 0.2
    elif flavour == "crash":
        if kind == "sell_shares":
            weight *= 12
        elif kind == "dividend":
            weight *= 5 if option.get("kind") == "withhold" else 1
        elif kind == "buy_shares":
            weight *= 0.5
    elif kind in ("buy_company", "special_track", "place_token", "lay_tile") and option.get("entity_type") == "company":
        weight *= 3
    return weight


def _weight(option: dict[str, object], policy: str, flavour: str = "spend") -> float:
    if policy == "seeker":
        return _seeker_weight(option, flavour)
    table = STEADY_WEIGHTS if policy == "steady" else WEIGHTS
    weight = table.get(str(option["type"]), 1.0)
    if policy == "steady":
        if option["type"] == "dividend" and option.get("kind") == "payout":
            weight *= 20
        if option["type"] == "buy_train":
            price = option.get("price")
            weight *= 1.0 / (1 + (int(price) if isinstance(price, int) else 0) / 100)
    return weight


@dataclass
class PlayoutResult:
    game: Game
    actions: int
    problems: list[str] = field(default_factory=list)


def random_playout(title: str, players: int, seed: int, *, max_actions: int = 5000,
                   check: bool = True, policy: str = "random",
                   optional_rules: list[str] | None = None,
                   before: Callable[[Game, dict[str, Any]], None] | None = None,
                   after: Callable[[Game, dict[str, Any], Outcome], None] | None = None) -> PlayoutResult:
    """Play a seeded game by choosing among the query API's legal choices that 18xx.games offers too
    (``query.reference_choices``); ``policy`` is "random", "steady" or "seeker" (``SEEKER_WEIGHTS``). ``before`` and
    ``after`` see each action (``engine.reconcile``)."""
    rng = random.Random(seed)
    flavour = seeker_flavour(seed)
    settings = {"optional_rules": list(optional_rules)} if optional_rules else None
    game = title_class(title)([(i + 1, f"Player {i + 1}") for i in range(players)], seed, settings)
    money = game.total_cash()
    count = 0
    found: list[str] = []
    while not game.finished and count < max_actions:
        options = []
        for ent in query.deciding_entities(game):
            # Only what 18xx.games offers too: the oracle replays these games there.
            options.extend(query.reference_choices(game, ent, limit=200))
        if not options:
            # Only moves 18xx.games settles otherwise are left (docs/conformance.md): play one rather than stall,
            # so the game goes on; a dead end of the engine itself is a liveness problem.
            options = [o for ent in query.deciding_entities(game) for o in query.all_choices(game, ent, limit=200)]
        if not options:
            found.extend(liveness_problems(game) or [
                f"no legal choice for {[game.describe(e) for e in game.acting()]} in {game.round.name()}"])
            break
        weights = [_weight(o, policy, flavour) for o in options]
        action = rng.choices(options, weights)[0]
        if before is not None:
            before(game, action)
        try:
            outcome = game.process(action)
        except GameError as exc:
            found.append(f"engine refused its own choice {action}: {exc.message}")
            break
        if after is not None:
            after(game, action, outcome)
        count += 1
        if check:
            # Liveness is the check above, made before every choice; the forced purchase's way out is checked here.
            bad = problems(game, money, live=False) + forced_purchase_problems(game)
            if bad:
                found.append(f"after {action}: {bad}")
                break
    return PlayoutResult(game, count, found)


def game_document(title: str, game: Game, seed: int, optional_rules: list[str]) -> dict[str, Any]:
    """The game as the 18xx.games JSON document (the shape the bot's ``export`` writes)."""
    doc: dict[str, Any] = {
        "id": f"playout-{seed}",
        "title": export_title(title),
        "players": [{"id": pid, "name": name} for pid, name in game.player_specs],
        "settings": {"seed": seed, "optional_rules": list(optional_rules), EDITION_SETTING: game.rules_edition},
        "status": "finished" if game.finished else "active",
        "actions": [dict(a, created_at=0) for a in game.raw_actions],
        "result": game.result() if game.finished else {},
    }
    if game.finished:
        doc["game_end_reason"] = game.game_end_reason
    return doc


def default_players(cls: type[Game]) -> int:
    """The player count of a proof command's games when none is given: the title's smallest, up to 4."""
    data = cls.data()["game"]
    return max(int(data.get("min_players", 2)), min(4, int(data.get("max_players", 4))))


def title_and_rules(title: str, optional_rules: str) -> tuple[type[Game], list[str]]:
    """The game class of ``title`` and the comma-separated ``optional_rules`` as a list.

    Raises:
        GameError: an unknown title, or an optional rule the title does not have.
    """
    rules = [r for r in optional_rules.split(",") if r]
    cls = title_class(title)
    unknown = [r for r in rules if r not in cls.OPTIONAL_RULES]
    if unknown:
        raise malformed(f"{cls.TITLE} has no optional rules {', '.join(unknown)}")
    return cls, rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.playout",
                                     description="Play one seeded random game and write it as an 18xx.games file.")
    parser.add_argument("title")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--policy", choices=POLICIES, default="random")
    parser.add_argument("--optional-rules", default="", help="comma-separated optional rules")
    parser.add_argument("--max-actions", type=int, default=5000)
    parser.add_argument("--out", required=True, metavar="FILE.json")
    args = parser.parse_args(argv)
    try:
        cls, rules = title_and_rules(args.title, args.optional_rules)
        result = random_playout(cls.TITLE, args.players, args.seed, max_actions=args.max_actions,
                                policy=args.policy, optional_rules=rules)
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    Path(args.out).write_text(json.dumps(game_document(cls.TITLE, result.game, args.seed, rules)), "utf-8")
    if result.problems:
        print("error: " + "; ".join(result.problems), file=sys.stderr)
        return 1
    if not result.game.finished:
        print(f"error: no game end within {args.max_actions} actions", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
