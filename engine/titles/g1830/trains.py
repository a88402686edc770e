"""1830's train buying: of the discarded trains of one type, the bank pool sells only the first discarded
(18xx.games' depot)."""

from __future__ import annotations

from ...core.actions import Action, text
from ...core.entities import Entity
from ...core.errors import illegal
from ...core.steps.trains import BuyTrain
from .rules import Rules1830


class BuyTrain1830(BuyTrain[Rules1830]):
    def choices(self, entity: Entity, kind: str) -> list[Action]:
        out = super().choices(entity, kind)
        if kind != "buy_train":
            return out
        sold = self.game.trains.pool_on_sale()
        return [a for a in out if (train := self.game.all_trains[a["train"]]) not in self.game.pool_trains
                or train in sold]

    def process_buy_train(self, action: Action, entity: Entity) -> None:
        train = self.game.all_trains.get(text(action, "train"))
        if train is not None and train in self.game.pool_trains and train not in self.game.trains.pool_on_sale():
            raise illegal(f"the first discarded {train.name} train is sold before {train.id}")
        super().process_buy_train(action, entity)
