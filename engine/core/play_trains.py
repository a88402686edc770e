"""Rules for trains and phases: the depot, buying, trading in, rusting, discarding, phase changes and
their events.
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from .abilities import (
    Close,
    CloseWhen,
)
from .entities import Company, Corporation, Train, TrainVariant, pay
from .errors import illegal, insufficient, malformed
from .play_track import TrackRules


class TrainRules(TrackRules):
    def available_depot_trains(self) -> list[Train]:
        """New trains on sale: the next in line, plus types that are available early."""
        out: list[Train] = []
        seen: set[str] = set()
        for t in self.depot:
            if t.reserved:
                continue
            if not out or (t.name not in seen and t.available_on and self.phase_reached(t.available_on)):
                out.append(t)
                seen.add(t.name)
        return out

    def train_limit(self, corp: Corporation) -> int:
        return int(self.phase["train_limit"])

    def buy_train(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None = None) -> None:
        source = train.owner
        if source is None:
            self.depot.remove(train)
            self._replenish_unlimited(train)
            pay(corp, self.bank, price, ev.Why.TRAIN)
        elif source is self.pool:
            self.pool_trains.remove(train)
            pay(corp, self.bank, price, ev.Why.TRAIN)
        else:
            assert isinstance(source, Corporation)
            source.trains.remove(train)
            pay(corp, source, price, ev.Why.TRAIN)
        if exchange is not None:
            corp.trains.remove(exchange)
            self.trade_in(exchange)
            ev.emit(ev.TrainMoved(exchange.id, exchange.name, corp.party,
                                  ev.POOL if exchange.owner is self.pool else ev.NOBODY, ev.TrainHow.DISCARDED))
        train.owner = corp
        corp.trains.append(train)
        ev.emit(ev.TrainMoved(train.id, train.name, ev.DEPOT if source is None else source.party, corp.party,
                              ev.TrainHow.BOUGHT, price))
        self.log(f"{corp.sym} buys a {train.name} train for {self.format_money(price)}")
        if source is None:
            self.on_new_train(corp, train)
        elif isinstance(source, Corporation):
            self.train_left(source, train)

    def trade_in(self, train: Train) -> None:
        train.owner = None
        self.log(f"{train.name} train is traded in")

    def _new_train(self, spec: dict[str, Any], index: int) -> Train:
        train = Train(f"{spec['name']}-{index}", spec["name"], int(spec["distance"]), int(spec["price"]),
                      rusts_on=spec.get("rusts_on"), discount=dict(spec.get("discount", {})),
                      available_on=spec.get("available_on"), variants=train_variants(spec),
                      counts_for_limit=bool(spec.get("counts_for_limit", True)),
                      events=[str(e) for e in spec.get("events", ())])
        self.depot.append(train)
        self.all_trains[train.id] = train
        return train

    def _replenish_unlimited(self, train: Train) -> None:
        # By type (``sym``): a copy bought as a variant (1822's 7 as an E) is still one of its type.
        same = [t for t in self.all_trains.values() if t.sym == train.sym]
        spec = next((s for s in self.data()["game"]["trains"] if s["name"] == train.sym), None)
        if spec is not None and spec["count"] == "unlimited" and not any(t.owner is None and t in self.depot
                                                                        for t in same if t is not train):
            new = self._new_train(spec, len(same))
            self.depot.remove(new)
            self.depot.append(new)

    def on_new_train(self, corp: Corporation, train: Train) -> None:
        self.phase_from_train(train)
        self._rust(train)
        for event in list(train.events):
            self.run_event(event, corp, train)
        train.events.clear()

    def phase_from_train(self, train: Train) -> None:
        """A train leaving the depot (bought, or exported in 1822) starts the latest phase it opens: a 3 bought in
        1822's phase 1 starts phase 3, not 2."""
        for i in range(len(self.phases) - 1, self.phase_index, -1):
            on = self.phases[i].get("on")
            if train.name == on or (isinstance(on, list) and train.name in on):
                while self.phase_index < i:
                    old = self.phase["name"]
                    self.phase_index += 1
                    ev.emit(ev.PhaseChanged(str(old), str(self.phase["name"])))
                    self.phase_changed()
                break

    def _rust(self, bought: Train) -> None:
        first = not any(t.name == bought.name and t is not bought and t.owner is not None
                        and t not in self.depot for t in self.all_trains.values())
        if not first:
            return
        for t in list(self.all_trains.values()):
            if t.rusts_on == bought.name and not t.rusted and t.owner is not None:
                self.rust_train(t)

    def rust_train(self, train: Train) -> None:
        owner = train.owner
        train.rusted = True
        if isinstance(owner, Corporation):
            owner.trains.remove(train)
        elif owner is self.pool:
            self.pool_trains.remove(train)
        train.owner = None
        self.log(f"A {train.name}-train of {owner.name if owner is not None else 'the depot'} rusts")
        ev.emit(ev.TrainMoved(train.id, train.name, owner.party if owner else ev.DEPOT, ev.NOBODY,
                              ev.TrainHow.RUSTED))
        if isinstance(owner, Corporation):
            self.train_left(owner, train)

    def train_left(self, corp: Corporation, train: Train) -> None:
        """Title hook: after ``train`` left ``corp`` (sold to another company or rusted)."""

    def phase_changed(self) -> None:
        self.log(f"-- Phase {self.phase['name']} --")
        for event in self.phase.get("events", ()):
            self.run_event(event, None, None)
        for comp in self.companies.values():
            if self.closing_phase(comp) == self.phase["name"]:
                self.close_company(comp)

    def closing_phase(self, comp: Company) -> str | None:
        """The phase whose start closes ``comp`` (its close ability), if any."""
        return next((a.on_phase for a in comp.abilities_of(Close) if a.on_phase is not None), None)

    def run_event(self, event: str, corp: Corporation | None, train: Train | None) -> None:
        handler = getattr(self, f"event_{event}", None)
        if handler is not None:
            handler()

    def event_close_companies(self) -> None:
        for comp in self.companies.values():
            later = self.closing_phase(comp)
            if later and later != self.phase["name"] and not self.phase_reached(later):
                continue
            self.close_company(comp)

    def crowded_corporations(self) -> list[Corporation]:
        # len(trains) bounds the trains that count, and is cheap: this is asked after almost every action (a company
        # without trains is passed over before its limit is looked up).
        return [c for c in self.corporations.values()
                if c.trains and len(c.trains) > self.train_limit(c) and c.trains_in_limit() > self.train_limit(c)]

    def discard_train(self, corp: Corporation, train: Train) -> None:
        corp.trains.remove(train)
        train.owner = None
        self.log(f"{corp.sym} discards a {train.name} train")
        ev.emit(ev.TrainMoved(train.id, train.name, corp.party, ev.NOBODY, ev.TrainHow.DISCARDED))

    def discard_to_pool(self, corp: Corporation, train: Train) -> None:
        """``corp`` discards ``train`` to the bank pool, where any company may buy it (1862, 1830)."""
        corp.trains.remove(train)
        train.owner = self.pool
        self.pool_trains.append(train)
        self.log(f"{corp.sym} discards a {train.name} train to the pool")
        ev.emit(ev.TrainMoved(train.id, train.name, corp.party, ev.POOL, ev.TrainHow.DISCARDED))

    def must_buy_train(self, corp: Corporation) -> bool:
        return not corp.trains and (corp.sym in self.routes_seen or self.network(corp).route_possible)

    def route_available(self, corp: Corporation) -> bool:
        """Whether the company's route step waits for a run. Titles that follow 18xx.games' memory of routes
        (``remember_route``) keep asking a company that once had a route to run, and to own a train, after its
        track or stations were cut off."""
        # A remembered route answers without walking the track (a walk's only other effect is to remember it).
        return corp.sym in self.routes_seen or bool(self.network(corp).route_with_optional)

    def exchange_price(self, corp: Corporation, train: Train) -> tuple[int, Train | None]:
        """Cheapest trade-in price for a depot train, and the train traded in (None: no trade-in)."""
        best: tuple[int, Train | None] = (train.price, None)
        for own in corp.trains:
            off = train.discount.get(own.name)
            if off and train.price - off < best[0]:
                best = (train.price - off, own)
        return best

    def president_may_contribute(self, corp: Corporation) -> bool:
        """Title hook: the president may pay towards a train from their own cash (emergency money)."""
        return self.must_buy_train(corp)

    def other_train_price_range(self, corp: Corporation, train: Train,
                                last_sale_price: int | None = None) -> tuple[int, int]:
        """Lowest and highest price ``corp`` may pay for another company's train.

        Below the train's face value the company pays from its treasury. With the president's help it may pay
        up to the face value, and, as on 18xx.games, once the president has sold shares for it the price must
        make the last sale necessary: it must exceed what the two had before that sale.
        """
        player = corp.owner
        if corp.cash >= train.price or player is None:
            return 1, corp.cash
        most = corp.cash + player.cash
        least = most - last_sale_price + 1 if last_sale_price else 1
        return least, min(train.price, most)

    def pool_on_sale(self) -> list[Train]:
        """The pool's trains 18xx.games' depot sells: the first discarded of each type."""
        return [t for n, t in enumerate(self.pool_trains) if all(u.name != t.name for u in self.pool_trains[:n])]

    def cheapest_train_on_sale(self) -> Train | None:
        """The cheapest train of the depot and the pool (the first discarded of each type), the next new train
        first among equals, as 18xx.games' depot lists them."""
        trains = [*self.available_depot_trains(), *self.pool_on_sale()]
        return min(trains, key=lambda t: t.price) if trains else None

    def emergency_train_names(self) -> set[str]:
        """What a company may buy new or from the pool with its president's money: the cheapest way (variant) of
        the cheapest train on sale, and nothing else of the same price (18xx.games)."""
        cheapest = self.cheapest_train_on_sale()
        if cheapest is None:
            return set()
        ways = [(v.name, v.price) for v in cheapest.variants] or [(cheapest.name, cheapest.price)]
        low = min(price for _, price in ways)
        return {name for name, price in ways if price == low}

    def buy_train_action(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None,
                         must_buy: bool, last_sale_price: int | None = None, variant: str | None = None) -> None:
        self.before_train_purchase(corp, train, price, exchange=exchange, must_buy=must_buy)
        source = train.owner
        if variant is not None and variant != train.name:
            if source is not None:
                raise illegal(f"{train.id} was bought as a {train.name} train; only new trains choose a variant")
            chosen = train.variant(variant)
            if chosen is None:
                names = ", ".join(v.name for v in train.variants) or train.name
                raise illegal(f"a {train.sym} train is bought as {names}, not {variant}")
        if source is corp:
            raise illegal(f"{corp.sym} already owns {train.id}")
        if train.counts_for_limit and corp.trains_in_limit() >= self.train_limit(corp) and exchange is None:
            raise illegal(f"{corp.sym} is at its train limit of {self.train_limit(corp)}")
        if source is None:
            if train not in self.available_depot_trains():
                names = ", ".join(sorted({t.name for t in self.available_depot_trains()}))
                raise illegal(f"{train.id} is not for sale; the depot sells: {names}")
            face = train.price if variant is None else (train.variant(variant) or train).price
            expected = face
            if exchange is not None:
                if exchange.owner is not corp:
                    raise illegal(f"{corp.sym} does not own {exchange.id}")
                off = train.discount.get(exchange.name)
                if not off:
                    raise illegal(f"a {exchange.name} train cannot be traded in for a {train.name}")
                expected = face - off
            if price != expected:
                raise illegal(f"the {train.name} train costs {self.format_money(expected)}, "
                              f"not {self.format_money(price)}")
        elif source is self.pool:
            if price != train.price:
                raise illegal(f"the {train.name} train from the pool costs {self.format_money(train.price)}")
        else:
            if not isinstance(source, Corporation):
                raise illegal(f"{train.id} is not for sale")
            low, high = self.other_train_price_range(corp, train, last_sale_price)
            if not low <= price <= high:
                raise illegal(f"{corp.sym} may spend {self.format_money(low)} to {self.format_money(high)} "
                              f"on {source.sym}'s {train.name} train, not {self.format_money(price)}")
        if price > corp.cash:
            player = corp.owner
            if not must_buy or player is None:
                raise insufficient(f"{corp.sym} cannot afford the {train.name} train: "
                                   f"treasury {self.format_money(corp.cash)}, price {self.format_money(price)}")
            if exchange is not None:
                raise illegal("the president cannot contribute towards a trade-in")
            if source is None or source is self.pool:
                allowed = self.emergency_train_names()
                if (variant or train.name) not in allowed:
                    raise illegal(f"with its president's money {corp.sym} must buy the cheapest train on sale "
                                  f"({' or '.join(sorted(allowed))})")
            need = price - corp.cash
            if need > player.cash:
                short = self.format_money(need - player.cash)
                raise insufficient(f"{player.name} must raise {short} more by selling shares")
            pay(player, corp, need, ev.Why.CONTRIBUTION)
            self.log(f"{player.name} contributes {self.format_money(need)}")
        if variant is not None and variant != train.name:
            train.choose_variant(variant)
        self.buy_train(corp, train, price, exchange=exchange)
        self.close_on_train_bought(corp)
        self.after_train_bought(corp, train)

    def before_train_purchase(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None,
                              must_buy: bool) -> None:
        """Title hook: before a company's train purchase is checked (1822: a director who cannot raise the
        money for a forced purchase borrows it)."""

    def close_on_train_bought(self, corp: Corporation) -> None:
        """Close the privates whose close ability waits for ``corp`` to buy a train (1882's CP and the CPR)."""
        for comp in self.companies.values():
            if any(a.when is CloseWhen.TRAIN_BOUGHT and a.corporation == corp.sym for a in comp.abilities_of(Close)):
                self.close_company(comp)

    def after_train_bought(self, corp: Corporation, train: Train) -> None:
        """Title hook."""


def train_variants(spec: dict[str, Any]) -> list[TrainVariant]:
    """A ``[[trains]]`` entry's ways of being bought: its own, then each of ``variants`` (none when it has none).

    Raises:
        GameError: (malformed) a variant without a name, distance or price, or two variants of one name.
    """
    extra = spec.get("variants", [])
    if not extra:
        return []
    out = [TrainVariant(str(spec["name"]), int(spec["distance"]), int(spec["price"]), spec.get("rusts_on"))]
    for v in extra:
        missing = [k for k in ("name", "distance", "price") if k not in v]
        if missing:
            raise malformed(f"a variant of the {spec['name']} train has no {', '.join(missing)}")
        out.append(TrainVariant(str(v["name"]), int(v["distance"]), int(v["price"]),
                                v.get("rusts_on", spec.get("rusts_on"))))
    names = [v.name for v in out]
    if len(set(names)) != len(names):
        raise malformed(f"the {spec['name']} train's variants repeat a name: {', '.join(names)}")
    return out

