"""Who acts when: the player order after a stock round (P9 doubles cash), minors operating before majors,
the operating turns each company has had, and when a broken bank ends the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.entities import Corporation, CorporationKind, Player
from ...core.game import Game
from ...core.game_end import EndTiming, EndTrigger

if TYPE_CHECKING:
    from .state import Game1822


def reorder_players(game: Game1822) -> None:
    def cash(p: Player) -> int:
        return p.cash * 2 if p is game.double_cash_choice else p.cash
    game.players = sorted(game.players, key=cash, reverse=True)
    game.double_cash_choice = None
    game.log("-- New player order: " + ", ".join(p.name for p in game.players))


def operating_order(game: Game1822) -> list[Corporation]:
    floated = [c for c in game.corporations.values() if c.floated and not c.closed]
    ordered = sorted(floated, key=lambda c: (*game.market.order_key(c.sym), c.sym))
    minors = [c for c in ordered if c.kind is CorporationKind.MINOR]
    return minors + [c for c in ordered if c.kind is not CorporationKind.MINOR]


def count_operation(game: Game1822, corp: Corporation) -> None:
    game.history[corp.sym] = game.history.get(corp.sym, 0) + 1


def turns_operated(game: Game1822, corp: Corporation) -> int:
    return game.history.get(corp.sym, 0)


def game_end_timing(game: Game1822) -> EndTrigger | None:
    """A bank broken during an operating round ends the game after the set; broken at another time, after
    the next operating round (18xx.games)."""
    trigger = Game.game_end_timing(game)
    if trigger is not None and trigger.reason == "bank" and game.end_latch.first is None \
            and game.round.kind != "operating":
        return EndTrigger("bank", EndTiming.CURRENT_OR)
    return trigger
