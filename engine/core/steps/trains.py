"""Operating round steps for trains: buying them (from the depot, the pool or another company) and discarding down to
the train limit after a phase change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, entity_action, opt_text, opt_whole, sale_actions, share_ids, text, whole
from ..entities import Corporation, Entity, Player, Share, Train, as_corporation, as_player
from ..errors import illegal, malformed
from ..round import G, InterruptStep, Step

if TYPE_CHECKING:
    pass


class DiscardTrain(InterruptStep[G]):
    """Companies over the train limit after a phase change discard down to it."""

    name = "Discard a train"

    def crowded(self) -> list[Corporation]:
        # Asked three times an action, so remembered while the state stays as it is (core.memory).
        return self.round.recall(self.game.crowded_corporations)

    def active_entities(self) -> list[Any]:
        return self.crowded()[:1]

    def blocking(self) -> bool:
        return self.blocks and bool(self.crowded())

    def actions(self, entity: Entity) -> list[str]:
        crowded = self.crowded()
        return ["discard_train"] if crowded and entity is crowded[0] else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "discard_train":
            return super().choices(entity, kind)
        corp = as_corporation(entity)  # the crowded company (actions)
        return [{**entity_action(corp, "discard_train"), "train": t.id} for t in corp.trains if t.counts_for_limit]

    def process_discard_train(self, action: Action, entity: Entity) -> None:
        corp = as_corporation(entity)
        train = self.game.all_trains.get(text(action, "train"))
        if train is None or train.owner is not corp:
            raise illegal(f"{corp.sym} does not own train {text(action, 'train')}")
        if not train.counts_for_limit:
            raise illegal(f"{train.id} is outside the train limit; discard a train that counts")
        self.game.discard_train(corp, train)


class BuyTrain(Step[G]):
    """Buy trains from the depot, the pool or another company; emergency money if one is owed."""

    name = "Buy trains"

    def setup(self) -> None:
        # The share price of the president's last emergency sale, which bounds the price paid to another company.
        self.last_sale_price: int | None = None

    def pass_(self) -> None:
        self.last_sale_price = None
        super().pass_()

    def room(self, corp: Corporation) -> bool:
        return corp.trains_in_limit() < self.game.train_limit(corp)

    def must_buy(self, corp: Corporation) -> bool:
        return self.game.must_buy_train(corp)

    def other_trains(self, corp: Corporation) -> list[Train]:
        return [t for c in self.game.corporations.values() if c is not corp and not c.closed for t in c.trains]

    def can_buy(self, corp: Corporation) -> bool:
        # A trade-in needs no room; any other purchase does (another company's train costs at least $1).
        exchanges = [self.game.trains.exchange_price(corp, t) for t in self.game.trains.available_depot_trains()]
        if any(traded is not None and price <= corp.cash for price, traded in exchanges):
            return True
        if not self.room(corp):
            return False
        prices = [t.price for t in [*self.game.trains.available_depot_trains(), *self.game.pool_trains]]
        if prices and corp.cash >= min(prices):
            return True
        return corp.cash >= 1 and bool(self.other_trains(corp))

    def actions(self, entity: Entity) -> list[str]:
        corp = self.round.entity()
        if not isinstance(corp, Corporation):
            return []
        if isinstance(entity, Player) and entity is corp.owner and self.needs_emergency_sale(corp):
            return ["sell_shares"]
        if entity is not corp:
            return []
        if self.must_buy(corp):
            return ["buy_train"]
        if self.can_buy(corp):
            return ["buy_train", "pass"]
        return []

    def needs_emergency_sale(self, corp: Corporation) -> bool:
        player = corp.owner
        if not isinstance(player, Player) or not self.must_buy(corp):
            return False
        return bool(self.sellable_bundles(player))

    def sellable_bundles(self, player: Player) -> list[tuple[list[Share], int]]:
        corp = self.round.entity()
        if not isinstance(corp, Corporation) or player is not corp.owner:
            return []
        return self.game.runs.emergency_bundles(player, corp)

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "sell_shares":
            return sale_actions(entity, self.sellable_bundles(as_player(entity)))
        if kind != "buy_train":
            return super().choices(entity, kind)
        entity = as_corporation(entity)
        game = self.game
        out = []
        must = game.must_buy_train(entity)
        room = entity.trains_in_limit() < game.train_limit(entity)
        budget = entity.cash + (entity.owner.cash if must and entity.owner is not None else 0)
        depot = game.trains.available_depot_trains()
        helped = game.trains.emergency_train_names() if must else set()  # what the president may add money for
        for train in depot:
            fits = room or not train.counts_for_limit
            if fits and (train.price <= entity.cash or (train.name in helped and train.price <= budget)):
                out.append({**entity_action(entity, "buy_train"), "train": train.id, "price": train.price})
            for variant in train.variants:
                if fits and variant.name != train.name and variant.price <= entity.cash:
                    out.append({**entity_action(entity, "buy_train"), "train": train.id, "price": variant.price,
                                "variant": variant.name})
            for own in entity.trains:
                off = train.discount.get(own.name)
                if off and train.price - off <= entity.cash:
                    out.append({**entity_action(entity, "buy_train"), "train": train.id, "price": train.price - off,
                                "exchange": own.id})
        for train in game.pool_trains:
            if room and (train.price <= entity.cash or (train.name in helped and train.price <= budget)):
                out.append({**entity_action(entity, "buy_train"), "train": train.id, "price": train.price})
        if room:
            for corp in game.corporations.values():
                if corp is entity or corp.closed or corp.owner is not entity.owner:
                    continue  # other presidents must consent; offered through the chat layer's deal flow
                for train in corp.trains:
                    low, high = game.other_train_price_range(entity, train, self.last_sale_price)
                    if high > entity.cash and not game.president_may_contribute(entity):
                        high = entity.cash
                    if 1 <= low <= high:
                        out.append({**entity_action(entity, "buy_train"), "train": train.id, "price": high})
        return out

    def price_range(self, entity: Entity, action: Action) -> tuple[int, int] | None:
        train = self.game.all_trains.get(str(opt_text(action, "train")))
        if action["type"] != "buy_train" or train is None or not isinstance(train.owner, Corporation):
            return None
        entity = as_corporation(entity)
        low, high = self.game.other_train_price_range(entity, train, self.last_sale_price)
        if high > entity.cash and not self.game.president_may_contribute(entity):
            high = entity.cash
        return low, high

    def process_buy_train(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        train = self.game.all_trains.get(text(action, "train"))
        if train is None:
            raise malformed(f"there is no train {text(action, 'train')}")
        price = whole(action, "price")
        exchange = self.game.all_trains.get(text(action, "exchange")) if opt_text(action, "exchange") else None
        variant = text(action, "variant") if opt_text(action, "variant") else None
        self.game.trains.buy_train_action(entity, train, price, exchange=exchange,
                                   must_buy=self.game.president_may_contribute(entity),
                                   last_sale_price=self.last_sale_price, variant=variant)
        if not self.can_buy(entity):
            self.pass_()

    def process_sell_shares(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        corp = as_corporation(self.round.entity())
        shares = [self.game.share_by_id(sid) for sid in share_ids(action)]
        if not shares:
            raise malformed("name the certificates to sell")
        if any(s.owner is not entity for s in shares):
            raise illegal(f"{entity.name} does not own {', '.join(s.id for s in shares)}")
        percent = int(opt_whole(action, "percent") or sum(s.percent for s in shares))
        self.last_sale_price = self.game.runs.emergency_sell(entity, corp, shares, percent)
