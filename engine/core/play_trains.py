"""Trains and phases, a part the game owns (``game.trains``): the depot, buying, trading in, rusting,
discarding, phase changes and their events.

The hooks of these rules (``hooks.TrainHooks``) stay on :class:`engine.core.game.Game`, where titles implement
them; the longer defaults are here (the ``Game`` default hands over to the method of the same name), and every
hook this part asks goes through the game, so a title's implementation is the one that answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from . import events as ev
from .abilities import (
    Close,
    CloseWhen,
)
from .entities import Company, Corporation, Train, TrainVariant, pay
from .errors import illegal, insufficient, malformed
from .hooks import TrainHooks

if TYPE_CHECKING:
    from .entities import Bank, SharePool
    from .play_shares import SharePart
    from .play_track import TrackPart


class TrainHost(TrainHooks, Protocol):
    """What the part reads of its game: the state below, and the hooks it asks."""

    bank: Bank
    pool: SharePool
    depot: list[Train]
    pool_trains: list[Train]
    all_trains: dict[str, Train]
    phases: list[dict[str, Any]]
    phase_index: int
    companies: dict[str, Company]
    routes_seen: set[str]

    @property
    def phase(self) -> dict[str, Any]: ...

    def phase_reached(self, name: str) -> bool: ...

    def data(self) -> dict[str, Any]: ...

    def log(self, line: str) -> None: ...

    def format_money(self, amount: int) -> str: ...

    @property
    def shares(self) -> SharePart: ...

    @property
    def track(self) -> TrackPart: ...


class TrainPart:
    """The depot, buying, trading in, rusting, discarding and phase changes, for one game."""

    def __init__(self, game: TrainHost) -> None:
        self.game = game

    def available_depot_trains(self) -> list[Train]:
        """New trains on sale: the next in line, plus types that are available early."""
        out: list[Train] = []
        seen: set[str] = set()
        for t in self.game.depot:
            if t.reserved:
                continue
            if not out or (t.name not in seen and t.available_on and self.game.phase_reached(t.available_on)):
                out.append(t)
                seen.add(t.name)
        return out

    def buy_train(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None = None) -> None:
        source = train.owner
        if source is None:
            self.game.depot.remove(train)
            self.replenish_unlimited(train)
            pay(corp, self.game.bank, price, ev.Why.TRAIN)
        elif source is self.game.pool:
            self.game.pool_trains.remove(train)
            pay(corp, self.game.bank, price, ev.Why.TRAIN)
        else:
            assert isinstance(source, Corporation)
            source.trains.remove(train)
            pay(corp, source, price, ev.Why.TRAIN)
        if exchange is not None:
            corp.trains.remove(exchange)
            self.game.trade_in(exchange)
            ev.emit(ev.TrainMoved(exchange.id, exchange.name, corp.party,
                                  ev.POOL if exchange.owner is self.game.pool else ev.NOBODY, ev.TrainHow.DISCARDED))
        train.owner = corp
        corp.trains.append(train)
        ev.emit(ev.TrainMoved(train.id, train.name, ev.DEPOT if source is None else source.party, corp.party,
                              ev.TrainHow.BOUGHT, price))
        self.game.log(f"{corp.sym} buys a {train.name} train for {self.game.format_money(price)}")
        if source is None:
            self.game.on_new_train(corp, train)
        elif isinstance(source, Corporation):
            self.game.train_left(source, train)

    def new_train(self, spec: dict[str, Any], index: int) -> Train:
        train = Train(f"{spec['name']}-{index}", spec["name"], int(spec["distance"]), int(spec["price"]),
                      rusts_on=spec.get("rusts_on"), discount=dict(spec.get("discount", {})),
                      available_on=spec.get("available_on"), variants=train_variants(spec),
                      counts_for_limit=bool(spec.get("counts_for_limit", True)),
                      events=[str(e) for e in spec.get("events", ())])
        self.game.depot.append(train)
        self.game.all_trains[train.id] = train
        return train

    def replenish_unlimited(self, train: Train) -> None:
        # By type (``sym``): a copy bought as a variant (1822's 7 as an E) is still one of its type.
        same = [t for t in self.game.all_trains.values() if t.sym == train.sym]
        spec = next((s for s in self.game.data()["game"]["trains"] if s["name"] == train.sym), None)
        if spec is not None and spec["count"] == "unlimited" and not any(t.owner is None and t in self.game.depot
                                                                        for t in same if t is not train):
            new = self.new_train(spec, len(same))
            self.game.depot.remove(new)
            self.game.depot.append(new)

    def on_new_train(self, corp: Corporation, train: Train) -> None:
        self.phase_from_train(train)
        self.rust(train)
        for event in list(train.events):
            self.game.run_event(event, corp, train)
        train.events.clear()

    def phase_from_train(self, train: Train) -> None:
        """A train leaving the depot (bought, or exported in 1822) starts the latest phase it opens: a 3 bought in
        1822's phase 1 starts phase 3, not 2."""
        for i in range(len(self.game.phases) - 1, self.game.phase_index, -1):
            on = self.game.phases[i].get("on")
            if train.name == on or (isinstance(on, list) and train.name in on):
                while self.game.phase_index < i:
                    old = self.game.phase["name"]
                    self.game.phase_index += 1
                    ev.emit(ev.PhaseChanged(str(old), str(self.game.phase["name"])))
                    self.game.phase_changed()
                break

    def rust(self, bought: Train) -> None:
        first = not any(t.name == bought.name and t is not bought and t.owner is not None
                        and t not in self.game.depot for t in self.game.all_trains.values())
        if not first:
            return
        for t in list(self.game.all_trains.values()):
            if t.rusts_on == bought.name and not t.rusted and t.owner is not None:
                self.rust_train(t)

    def rust_train(self, train: Train) -> None:
        owner = train.owner
        train.rusted = True
        if isinstance(owner, Corporation):
            owner.trains.remove(train)
        elif owner is self.game.pool:
            self.game.pool_trains.remove(train)
        train.owner = None
        self.game.log(f"A {train.name}-train of {owner.name if owner is not None else 'the depot'} rusts")
        ev.emit(ev.TrainMoved(train.id, train.name, owner.party if owner else ev.DEPOT, ev.NOBODY,
                              ev.TrainHow.RUSTED))
        if isinstance(owner, Corporation):
            self.game.train_left(owner, train)

    def phase_changed(self) -> None:
        self.game.log(f"-- Phase {self.game.phase['name']} --")
        for event in self.game.phase.get("events", ()):
            self.game.run_event(event, None, None)
        for comp in self.game.companies.values():
            if self.closing_phase(comp) == self.game.phase["name"]:
                self.game.shares.close_company(comp)

    def closing_phase(self, comp: Company) -> str | None:
        """The phase whose start closes ``comp`` (its close ability), if any."""
        return next((a.on_phase for a in comp.abilities_of(Close) if a.on_phase is not None), None)

    def close_companies(self) -> None:
        for comp in self.game.companies.values():
            later = self.closing_phase(comp)
            if later and later != self.game.phase["name"] and not self.game.phase_reached(later):
                continue
            self.game.shares.close_company(comp)

    def discard_train(self, corp: Corporation, train: Train) -> None:
        corp.trains.remove(train)
        train.owner = None
        self.game.log(f"{corp.sym} discards a {train.name} train")
        ev.emit(ev.TrainMoved(train.id, train.name, corp.party, ev.NOBODY, ev.TrainHow.DISCARDED))

    def discard_to_pool(self, corp: Corporation, train: Train) -> None:
        """``corp`` discards ``train`` to the bank pool, where any company may buy it (1862, 1830)."""
        corp.trains.remove(train)
        train.owner = self.game.pool
        self.game.pool_trains.append(train)
        self.game.log(f"{corp.sym} discards a {train.name} train to the pool")
        ev.emit(ev.TrainMoved(train.id, train.name, corp.party, ev.POOL, ev.TrainHow.DISCARDED))

    def route_available(self, corp: Corporation) -> bool:
        """Whether the company's route step waits for a run. Titles that follow 18xx.games' memory of routes
        (``remember_route``) keep asking a company that once had a route to run, and to own a train, after its
        track or stations were cut off."""
        # A remembered route answers without walking the track (a walk's only other effect is to remember it).
        return corp.sym in self.game.routes_seen or self.game.track.reach(corp).route_with_optional

    def exchange_price(self, corp: Corporation, train: Train) -> tuple[int, Train | None]:
        """Cheapest trade-in price for a depot train, and the train traded in (None: no trade-in)."""
        best: tuple[int, Train | None] = (train.price, None)
        for own in corp.trains:
            off = train.discount.get(own.name)
            if off and train.price - off < best[0]:
                best = (train.price - off, own)
        return best

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
        pool = self.game.pool_trains
        return [t for n, t in enumerate(pool) if all(u.name != t.name for u in pool[:n])]

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
        """Check and make a company's train purchase (a step's ``buy_train``)."""
        game = self.game
        game.before_train_purchase(corp, train, price, exchange=exchange, must_buy=must_buy)
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
        if train.counts_for_limit and corp.trains_in_limit() >= game.train_limit(corp) and exchange is None:
            raise illegal(f"{corp.sym} is at its train limit of {game.train_limit(corp)}")
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
                raise illegal(f"the {train.name} train costs {game.format_money(expected)}, "
                              f"not {game.format_money(price)}")
        elif source is game.pool:
            if price != train.price:
                raise illegal(f"the {train.name} train from the pool costs {game.format_money(train.price)}")
        else:
            if not isinstance(source, Corporation):
                raise illegal(f"{train.id} is not for sale")
            low, high = game.other_train_price_range(corp, train, last_sale_price)
            if not low <= price <= high:
                raise illegal(f"{corp.sym} may spend {game.format_money(low)} to {game.format_money(high)} "
                              f"on {source.sym}'s {train.name} train, not {game.format_money(price)}")
        if price > corp.cash:
            player = corp.owner
            if not must_buy or player is None:
                raise insufficient(f"{corp.sym} cannot afford the {train.name} train: "
                                   f"treasury {game.format_money(corp.cash)}, price {game.format_money(price)}")
            if exchange is not None:
                raise illegal("the president cannot contribute towards a trade-in")
            if source is None or source is game.pool:
                allowed = self.emergency_train_names()
                if (variant or train.name) not in allowed:
                    raise illegal(f"with its president's money {corp.sym} must buy the cheapest train on sale "
                                  f"({' or '.join(sorted(allowed))})")
            need = price - corp.cash
            if need > player.cash:
                short = game.format_money(need - player.cash)
                raise insufficient(f"{player.name} must raise {short} more by selling shares")
            pay(player, corp, need, ev.Why.CONTRIBUTION)
            game.log(f"{player.name} contributes {game.format_money(need)}")
        if variant is not None and variant != train.name:
            train.choose_variant(variant)
        self.buy_train(corp, train, price, exchange=exchange)
        game.close_on_train_bought(corp)

    def close_on_train_bought(self, corp: Corporation) -> None:
        """Close the privates whose close ability waits for ``corp`` to buy a train (1882's CP and the CPR)."""
        for comp in self.game.companies.values():
            if any(a.when is CloseWhen.TRAIN_BOUGHT and a.corporation == corp.sym for a in comp.abilities_of(Close)):
                self.game.shares.close_company(comp)


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

