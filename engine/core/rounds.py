"""The core's rounds: an auction of the privates, a stock round and an operating round, on :class:`Round`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .entities import as_corporation
from .round import Round

if TYPE_CHECKING:
    from .actions import Action
    from .entities import Entity

class AuctionRound(Round):
    kind = "auction"

    def finished(self) -> bool:
        return self.active_step() is None

    def name(self) -> str:
        return "Auction Round"


class StockRound(Round):
    kind = "stock"

    def start(self) -> None:
        super().start()
        if self._active_after_settle(self.settle()) is None:
            self.next_entity()

    def after_process(self, action: Action, entity: Entity) -> None:
        if self._active_after_process() is not None:
            return
        self.next_entity()

    def next_entity(self) -> None:
        while True:
            self.forget()
            self.next_entity_index()
            if all(p.passed for p in self.entities):
                self.done = True
                self.game.finish_stock_round()
                return
            for step in self.steps:
                step.passed = False
            for step in self.steps:
                step.setup()
            if self._active_after_settle(self.settle()) is not None:
                return

    def finished(self) -> bool:
        return self.done or all(p.passed for p in self.entities)

    def name(self) -> str:
        return f"Stock Round {self.game.turn}"


class OperatingRound(Round):
    kind = "operating"

    def select_entities(self) -> list[Any]:
        return self.game.operating_order()

    def start(self) -> None:
        self.forget()
        for step in self.steps:
            step.round_setup()
        self.game.payout_companies()
        if not self.entities:
            self.done = True
            return
        for step in self.steps:
            step.setup()
        self.start_operating()

    def start_operating(self) -> None:
        while True:
            self.forget()
            corp = as_corporation(self.entity())
            self.game.log(f"{self.game.describe(self.game.acting_player(corp))} operates {corp.sym}")
            for train in corp.trains:
                train.operated = False
            self.game.start_operating(corp)
            if self._active_after_settle(self.settle()) is not None:
                return
            if not self._advance():
                return

    def _advance(self) -> bool:
        self.forget()
        corp = as_corporation(self.entity())
        corp.operated = True
        self.game.after_operating(corp)
        if self.entity_index >= len(self.entities) - 1:
            self.done = True
            return False
        self.entity_index += 1
        self.recalculate_order()
        for step in self.steps:
            step.passed = False
        for step in self.steps:
            step.setup()
        return True

    def recalculate_order(self) -> None:
        if not self.game.dynamic_operating_order:
            return
        rest = self.entities[self.entity_index:]
        rest.sort(key=lambda c: self.game.market.order_key(c.sym))
        self.entities[self.entity_index:] = rest

    def after_process(self, action: Action, entity: Entity) -> None:
        if self.done or self._active_after_process() is not None:
            return
        if self._advance():
            self.start_operating()

    def name(self) -> str:
        return f"Operating Round {self.game.turn}.{self.number}"
