"""1828's stock round: the next round's order by passing (rules 7.1), and the merger a player starts in their
turn, which the round's steps (BuySellParShares1828, Merger, RemoveTokens) share through it."""

from __future__ import annotations

from typing import Any

from ...core.entities import Corporation, Player
from ...core.round import Step
from ...core.rounds import StockRound


class StockRound1828(StockRound):
    """Players' order in the next stock round is the order in which they passed (rules 7.1)."""

    def __init__(self, game: Any, step_classes: list[type[Step[Any]]], number: int = 1) -> None:
        super().__init__(game, step_classes, number)
        self.pass_order: list[Player] = []
        # The merger in progress: who started it, with which company, after which action (its undo goes back
        # there), and the new system's second stations in one hex still to remove (rules 7.5.2).
        self.acting_player: Player | None = None
        self.merge_initiator: Corporation | None = None
        self.merge_start_id = 0
        self.corporation_removing_tokens: Corporation | None = None
        self.hexes_to_remove_tokens: list[str] = []


def stock_round_of(step: Step[Any]) -> StockRound1828:
    """The round of one of 1828's stock-round steps (only its stock round holds them)."""
    rnd = step.round
    assert isinstance(rnd, StockRound1828)
    return rnd
