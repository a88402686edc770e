"""The train steps: discarding down to the limits, a minor's first-turn L train, and buying trains (from
another company at any price the treasury pays, and the L to 2 upgrade).
"""

from __future__ import annotations

from ....core.actions import Action, entity_action, opt_text, text, whole
from ....core.entities import Corporation, CorporationKind, Entity, Player, Train, as_corporation
from ....core.errors import illegal, malformed
from ....core.round import Step
from ....core.steps.trains import BuyTrain, DiscardTrain
from ..holdings import splits_anothers_directors_certificate
from ..state import Game1822, phase_status
from ..trains import discardable_trains, l_upgrade_open, l_upgrade_price, upgrade_l_train
from .common import in_turn


class DiscardTrain1822(DiscardTrain[Game1822]):
    """A crowded company discards down to its limit, or one of two permanent private trains or two Pullmans."""


    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "discard_train":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "discard_train"), "train": t.id}
                for t in discardable_trains(self.game, as_corporation(entity))]

    def process_discard_train(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        train = self.game.all_trains.get(text(action, "train"))
        if train is None or train not in discardable_trains(self.game, entity):
            raise illegal(f"{entity.sym} cannot discard train {text(action, 'train')} now")
        self.game.discard_train(entity, train)


class FirstTurnHousekeeping(Step[Game1822]):
    """A minor's first turn: it may buy the next L train before laying track (18xx.games buys the depot's next)."""

    name = "Buy a first L train"

    def actions(self, entity: Entity) -> list[str]:
        if not in_turn(entity, self) or entity.kind is not CorporationKind.MINOR or entity.operated:
            return []
        depot = self.game.trains.available_depot_trains()
        if not depot or depot[0].sym != "L" or entity.cash < depot[0].price:
            return []
        if entity.trains_in_limit() >= self.game.train_limit(entity):
            return []
        return ["buy_train", "pass"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "buy_train":
            return super().choices(entity, kind)
        train = self.game.trains.available_depot_trains()[0]
        return [{**entity_action(entity, "buy_train"), "train": train.id, "price": train.price, "variant": "L"}]

    def process_buy_train(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        train = self.game.trains.available_depot_trains()[0]
        price = whole(action, "price")
        if price != train.price:
            raise illegal(f"the L train costs {self.game.format_money(train.price)}")
        if opt_text(action, "variant") not in (None, "L"):
            raise illegal("only an L train may be bought now")
        self.game.trains.buy_train(entity, train, price)
        self.pass_()


class BuyTrain1822(BuyTrain[Game1822]):
    """Trains from the depot (and from other companies from phase 3); an L train may become a 2 train."""


    def room(self, corp: Corporation) -> bool:
        return corp.trains_in_limit() < int(self.game.train_limit(corp))

    def can_buy(self, corp: Corporation) -> bool:
        if any(t.sym == "L" and t.name == "L" for t in corp.trains) and l_upgrade_open(self.game) \
                and corp.cash >= l_upgrade_price(self.game):
            return True
        return super().can_buy(corp)

    def other_trains(self, corp: Corporation) -> list[Train]:
        # 18xx.games keeps the step open for them even before they may be bought (its cheapest-train check).
        return [t for t in super().other_trains(corp) if self.tradeable(t)]

    def process_sell_shares(self, action: Action, entity: Entity) -> None:
        super().process_sell_shares(action, entity)
        # 18xx.games sorts the companies still to operate again after an emergency sale moved a price.
        rnd = self.round
        rest = rnd.entities[rnd.entity_index + 1:]
        rnd.entities[rnd.entity_index + 1:] = [c for c in self.game.operating_order() if c in rest]

    def offered_by_reference(self, entity: Entity, action: Action) -> bool:
        """Oracle playouts make no emergency sale of half a director's certificate whose holder does not direct
        the company, which 18xx.games settles differently (docs/conformance.md)."""
        return not splits_anothers_directors_certificate(self.game, action)

    def offered_from_pool(self, train: Train) -> bool:
        """Of the discarded trains of one type, 18xx.games sells only the first discarded."""
        if train not in self.game.pool_trains:
            return True
        return next(t for t in self.game.pool_trains if t.name == train.name) is train

    def tradeable(self, train: Train) -> bool:
        """The privates' trains (2P, LP, P+) stay with the company that gained them."""
        return not isinstance(train.owner, Corporation) or train.name not in ("2P", "LP", "P+")

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        out = super().choices(entity, kind)
        if kind != "buy_train":
            return out
        corp = as_corporation(entity)  # the company in turn buys a train
        owner = corp.owner
        lowest = self.game.min_depot_price()
        if kind == "buy_train" and ("can_buy_trains" not in phase_status(self.game) or (
                self.last_sale_price is not None and lowest is not None and corp.cash < lowest)):
            # Before phase 3, and once the director has sold shares for a train the company cannot afford, only
            # new trains are offered (18xx.games).
            out = [a for a in out if not isinstance(self.game.all_trains[a["train"]].owner, Corporation)]
        if kind == "buy_train":
            has_e = any(t.name == "E" for t in corp.trains)
            out = [a for a in out if self.tradeable(self.game.all_trains[a["train"]])
                   and self.offered_from_pool(self.game.all_trains[a["train"]])
                   and not (has_e and a.get("variant") == "E")]
        if kind == "buy_train" and not any(not isinstance(self.game.all_trains[a["train"]].owner, Corporation)
                                           for a in out) \
                and self.game.must_buy_train(corp) and isinstance(owner, Player) \
                and not self.game.runs.emergency_bundles(owner, corp):
            # Nothing left to sell: the director borrows for the cheapest train, even where another company's
            # train is offered too (18xx.games lends for the depot's cheapest train whatever else is for sale).
            cheapest = self.game.trains.cheapest_train_on_sale()
            if cheapest is not None:
                out = [{**entity_action(corp, "buy_train"), "train": cheapest.id, "price": cheapest.price}]
        if kind == "buy_train" and l_upgrade_open(self.game):
            price = l_upgrade_price(self.game)
            if price <= corp.cash:
                out += [{**entity_action(corp, "buy_train"), "train": t.id, "price": price, "variant": "2",
                         "exchange": t.id} for t in corp.trains if t.sym == "L" and t.name == "L"]
        return out

    def process_buy_train(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        exchange = opt_text(action, "exchange")
        if exchange:
            train = self.game.all_trains.get(str(exchange))
            if train is None or not isinstance(entity, Corporation) or train.owner is not entity \
                    or train.name != "L" or text(action, "train") != train.id:
                raise illegal(f"{entity.sym} can only upgrade its own L trains to 2 trains")
            if opt_text(action, "variant") != "2":
                raise malformed("an L train is upgraded to a 2 train (variant 2)")
            upgrade_l_train(self.game, entity, train, whole(action, "price"))
            if not self.can_buy(entity):
                self.pass_()
            return
        train = self.game.all_trains.get(text(action, "train"))
        if opt_text(action, "variant") == "E" and any(t.name == "E" for t in entity.trains):
            raise illegal(f"{entity.sym} can only own one E train")
        if train is not None and not self.offered_from_pool(train):
            raise illegal(f"the first discarded {train.name} train is sold before {train.id}")
        if train is not None and train.owner is not entity and not self.tradeable(train):
            raise illegal(f"a {train.name} train cannot be bought from another company")
        if train is not None and isinstance(train.owner, Corporation) and \
                "can_buy_trains" not in phase_status(self.game):
            raise illegal(f"trains cannot be bought from other companies in phase {self.game.phase['name']}")
        super().process_buy_train(action, entity)
