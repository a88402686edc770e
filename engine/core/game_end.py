"""How a game ends: the title's end conditions (``[game_end]`` in game.toml) and when each takes effect.

A condition is a *reason* with a *timing*. The reason names a check, a question about the state that stays
answered once it is yes (a player went bankrupt, the bank broke, a share price reached an end cell of the
market); the core supplies those three and a title adds its own (1828's ``final_phase``) through the game's
``end_checks`` hook. The timing says when the game then ends, as 18xx.games' ``GAME_END_CHECK`` does.
Ending by the players' agreement (the ``end_game`` action) needs no condition.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .entities import Bank, Player
from .errors import DataError
from .flow import RoundState
from .market import StockMarket
from .sequence import OPERATING

# A named check: has this end condition been met? Bound to the game it reads.
EndCheck = Callable[[], bool]


class EndTiming(StrEnum):
    """When a met condition ends the game; earlier members take precedence over later ones."""

    IMMEDIATE = "immediate"  # at once, in the middle of a turn
    CURRENT_ROUND = "current_round"  # at the end of the round in progress
    CURRENT_OR = "current_or"  # at the end of this operating round, or of the next if none is in progress
    FULL_OR = "full_or"  # at the end of this set of operating rounds, or of the next set
    ONE_MORE_FULL_OR_SET = "one_more_full_or_set"  # at the end of the set after the one in progress


_RANK = {timing: i for i, timing in enumerate(EndTiming)}


class EndTrigger(NamedTuple):
    """A met condition: why the game will end, and when."""

    reason: str
    timing: EndTiming


@dataclass(frozen=True, slots=True)
class EndConditions:
    """The title's end conditions, in the order the data lists them."""

    conditions: tuple[EndTrigger, ...] = ()
    # Once one condition is met, later ones do not change the end (18xx.games GAME_END_LOCK_FIRST_TRIGGER).
    lock_first_trigger: bool = False

    @classmethod
    def from_data(cls, table: object, reasons: Collection[str], *, where: str = "game.toml") -> EndConditions:
        """Read a ``[game_end]`` table: ``reason = "timing"`` per line, plus ``lock_first_trigger = true|false``.

        Raises:
            DataError: for a reason no check answers, a timing that is not one of :class:`EndTiming`, or a
                value of the wrong type; the message names the key and lists what is allowed.
        """
        if not isinstance(table, Mapping):
            raise DataError(f"{where}: [game_end] should be a table of reason = \"timing\", not {table!r}")
        conditions: list[EndTrigger] = []
        lock = False
        timings = [t.value for t in EndTiming]
        for key, value in table.items():
            if key == "lock_first_trigger":
                if not isinstance(value, bool):
                    raise DataError(f"{where}: [game_end] lock_first_trigger should be true or false, not {value!r}")
                lock = value
                continue
            if key not in reasons:
                raise DataError(f"{where}: [game_end] has an unknown reason {key!r}; "
                                f"reasons this title can check: {', '.join(sorted(reasons))}")
            if value not in timings:
                raise DataError(f"{where}: [game_end] {key} = {value!r} is not a timing; "
                                f"timings: {', '.join(timings)}")
            conditions.append(EndTrigger(str(key), EndTiming(value)))
        return cls(tuple(conditions), lock)


@dataclass(slots=True)
class EndLatch:
    """What the game remembers of its end conditions between actions."""

    first: EndTrigger | None = None
    # The turn whose set of operating rounds is the last, for ONE_MORE_FULL_OR_SET.
    final_turn: int | None = None

    def record(self, trigger: EndTrigger | None, turn: int) -> None:
        if trigger is None:
            return
        if self.first is None:
            self.first = trigger
        if trigger.timing is EndTiming.ONE_MORE_FULL_OR_SET and self.final_turn is None:
            self.final_turn = turn + 1


def met(config: EndConditions, checks: Mapping[str, EndCheck], latch: EndLatch) -> EndTrigger | None:
    """The met condition that ends the game soonest (the first listed of equal timing), or None.

    With ``lock_first_trigger`` the first condition met stays, and of several met at once the first listed
    wins whatever its timing (18xx.games stops at the first it finds)."""
    if config.lock_first_trigger:
        if latch.first is not None:
            return latch.first
        return next((cond for cond in config.conditions if checks[cond.reason]()), None)
    found: EndTrigger | None = None
    for cond in config.conditions:
        # Asked after every action: one pass, asking a check only when it would end the game sooner.
        if (found is None or _RANK[cond.timing] < _RANK[found.timing]) and checks[cond.reason]():
            found = cond
    return found


def end_now(timing: EndTiming, finished: RoundState, operating_rounds: int, turn: int, latch: EndLatch) -> bool:
    """Whether a game whose end is due with ``timing`` ends as ``finished`` (the round just over) ends."""
    if timing in (EndTiming.IMMEDIATE, EndTiming.CURRENT_ROUND):
        return True
    if finished.kind != OPERATING:
        return False
    if timing is EndTiming.CURRENT_OR:
        return True
    last_of_set = finished.number >= operating_rounds
    if timing is EndTiming.ONE_MORE_FULL_OR_SET:
        return last_of_set and turn == latch.final_turn
    return last_of_set


# The core's named checks, by the reason names 18xx.games uses.
def any_player_bankrupt(players: list[Player]) -> bool:
    return any(p.bankrupt for p in players)


def bank_broken(bank: Bank) -> bool:
    return bank.broken


def stock_market_end_reached(market: StockMarket) -> bool:
    return market.any_at_end()


# Each end reason in words, for players (the codes are the data's and 18xx.games').
END_REASON_TEXT = {
    "bank": "the bank broke",
    "stock_market": "a share price reached the end of the market",
    "bankrupt": "a player went bankrupt",
    "manually_ended": "ended by the players",
    "final_phase": "the last phase's rounds were played",
    "players_out": "too few players were left in the game",
    "companies_out": "too few companies were left in the game",
    "dnf": "nothing was bought or bid on in the first stock round",
    "frozen": "no company could ever float or operate again",
}


def end_reason_text(reason: str | None) -> str:
    """``reason`` in words (an unknown code as it is)."""
    return END_REASON_TEXT.get(reason or "", reason or "")
