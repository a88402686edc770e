"""The round cycle: which round follows which, as a plan the title supplies.

The standard 18xx cycle is an initial round (1882's private auction), then a stock round, then a set of
operating rounds whose count the phase fixes when the set starts, then a stock round again. A title
changes it with its own :class:`RoundPlan` (1822 puts a "choices" round between the stock round and the
operating rounds, and starts with a stock round) and, when what follows depends on the state (1862 repeats
its initial stock round while privates are unsold), with the game's ``next_in_plan`` hook.

Round *kinds* are the strings the rounds carry (``Round.kind``); the oracle fingerprint names rounds by them
("auction 1", "stock 2", "operating 2.1"), so a plan uses the kinds the rounds already have.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from .entities import Player
from .errors import DataError
from .flow import RoundState

STOCK = "stock"
OPERATING = "operating"


@dataclass(frozen=True, slots=True)
class Next:
    """The round that follows another: its kind, and whether priority passes before it starts."""

    kind: str
    # The player after the last to act in the finished round gets priority (18xx.games :after_last_to_act).
    priority_deal: bool = False


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """What follows each round kind. ``after[OPERATING]`` is what follows a whole set of operating rounds:
    within a set, operating round n is followed by n + 1 until the set's count is reached.

    Raises:
        DataError: when a kind the plan leads to (or starts with) has no successor, or there is no
            operating round in the cycle.
    """

    initial: str
    after: Mapping[str, Next]

    def __post_init__(self) -> None:
        object.__setattr__(self, "after", MappingProxyType(dict(self.after)))
        leads_to = {self.initial, *(n.kind for n in self.after.values())}
        missing = sorted(kind for kind in leads_to if kind not in self.after)
        if missing:
            raise DataError(f"the round plan says nothing about what follows a {', '.join(missing)} round")
        if OPERATING not in self.after:
            raise DataError("the round plan has no operating rounds")

    def next_after(self, kind: str) -> Next:
        found = self.after.get(kind)
        if found is None:
            raise DataError(f"the round plan says nothing about what follows a {kind} round")
        return found


# Auction, stock round, operating rounds, stock round ... (1882, and the 18xx.games default).
STANDARD_PLAN = RoundPlan(
    initial="auction",
    after={
        "auction": Next(STOCK, priority_deal=True),
        STOCK: Next(OPERATING, priority_deal=True),
        OPERATING: Next(STOCK),
    },
)


class Sequenced(Protocol):
    """What the round cycle reads and changes of the game."""

    players: list[Player]
    round: RoundState
    turn: int
    operating_rounds: int

    def log(self, line: str) -> None: ...

    def next_in_plan(self, finished: RoundState) -> Next: ...

    def new_round(self, kind: str, number: int) -> RoundState: ...

    def operating_rounds_in_set(self) -> int: ...

    def reorder_players(self) -> None: ...

    def or_round_finished(self) -> None: ...

    def or_set_finished(self) -> None: ...


def next_round(game: Sequenced) -> None:
    """Replace the finished round with the one that follows it, and start that."""
    finished = game.round
    if finished.kind == OPERATING:
        game.or_round_finished()
        if finished.number < game.operating_rounds:
            _begin(game, game.new_round(OPERATING, finished.number + 1))
            return
        game.turn += 1
        game.or_set_finished()
    step = game.next_in_plan(finished)
    if step.kind == OPERATING:
        # A new set of operating rounds: its length is fixed now, by the phase the set starts in.
        game.operating_rounds = game.operating_rounds_in_set()
    if step.priority_deal:
        game.reorder_players()
    _begin(game, game.new_round(step.kind, 1))


def _begin(game: Sequenced, rnd: RoundState) -> None:
    game.round = rnd
    game.log(f"-- {rnd.name()} --")
    rnd.start()


def after_last_to_act(players: list[Player], entity_index: int) -> list[Player] | None:
    """Seat order rotated so that the player after the last to act (the round's ``entity_index`` counts
    players still in the game) sits first; None when every player is bankrupt."""
    active = [p for p in players if not p.bankrupt]
    if not active:
        return None
    first = active[entity_index % len(active)]
    i = players.index(first)
    return players[i:] + players[:i]
