"""Seeded random games played through the query API (for tests and benchmarks)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .core import query
from .core.errors import GameError
from .core.game import Game
from .core.invariants import problems
from .titles import title_class

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


def _weight(option: dict[str, object], policy: str) -> float:
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
                   check: bool = True, policy: str = "random") -> PlayoutResult:
    """Play a seeded game by choosing among the query API's legal choices; ``policy`` is "random" or "steady"."""
    rng = random.Random(seed)
    game = title_class(title)([(i + 1, f"Player {i + 1}") for i in range(players)], seed)
    money = game.total_cash()
    count = 0
    found: list[str] = []
    while not game.finished and count < max_actions:
        options = []
        for ent in query.deciding_entities(game):
            options.extend(query.all_choices(game, ent, limit=200))
        if not options:
            found.append(f"no legal choice for {[game.describe(e) for e in game.acting()]} "
                         f"in {game.round.name()}")
            break
        weights = [_weight(o, policy) for o in options]
        action = rng.choices(options, weights)[0]
        try:
            game.process(action)
        except GameError as exc:
            found.append(f"engine refused its own choice {action}: {exc.message}")
            break
        count += 1
        if check:
            bad = problems(game, money)
            if bad:
                found.append(f"after {action}: {bad}")
                break
    return PlayoutResult(game, count, found)
