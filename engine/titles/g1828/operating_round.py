"""1828's operating round: what its steps share within a company's turn (the hexes laid, a private's lay after an
upgrade, the private just sold, the shells' rearrangement)."""

from __future__ import annotations

from typing import Any

from ...core.entities import Company
from ...core.round import Step
from ...core.rounds import OperatingRound


class OperatingRound1828(OperatingRound):
    def __init__(self, game: Any, step_classes: list[type[Step[Any]]], number: int = 1) -> None:
        self.laid_hexes: list[str] = []  # the hexes laid this turn: no second lay in one hex
        self.upgraded_track = False  # a tile was upgraded this turn (a "track" private may not lay after it)
        self.just_sold_company: Company | None = None  # a private sold to the company, whose power acts now
        self.ignore_train_limit = False  # a system rearranging its shells may be over the limit meanwhile
        super().__init__(game, step_classes, number)


def operating_round_of(step: Step[Any]) -> OperatingRound1828:
    """The round of one of 1828's operating-round steps (only its operating round holds them)."""
    rnd = step.round
    assert isinstance(rnd, OperatingRound1828)
    return rnd
