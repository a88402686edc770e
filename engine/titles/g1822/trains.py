"""1822's trains: L and private trains, the limits (a second permanent or Pullman train is too many), what a
company must own, the director's loan for a forced purchase, the L to 2 upgrade, and trains leaving the game.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ...core import events as ev
from ...core import loans
from ...core.entities import Corporation, CorporationKind, Player, Train, pay
from ...core.errors import illegal, insufficient
from ...core.game import Game

if TYPE_CHECKING:
    from .state import Game1822


LOCAL_TRAINS = ("L", "LP")
EXTRA_TRAINS = ("2P", "P+", "LP")  # outside the train limit, and no train for the must-own rule
PERMANENT_TRAINS = ("2P", "LP")
PULLMAN = "P+"


def export_l_trains(game: Game1822, count: int) -> None:
    removed = 0
    while count and game.depot and game.trains.available_depot_trains()[0].sym == "L":
        _remove_depot_train(game, game.trains.available_depot_trains()[0])
        count -= 1
        removed += 1
    game.log(f"{removed} L trains have been removed")


def export_next_train(game: Game1822) -> Train:
    """The next train leaves the game as if bought: it may start a phase, rust trains and fire events."""
    train = game.trains.available_depot_trains()[0]
    _remove_depot_train(game, train)
    game.trains.phase_from_train(train)
    game.trains.rust(train)
    for event in list(train.events):
        game.run_event(event, None, train)
    train.events.clear()
    return train


def _remove_depot_train(game: Game1822, train: Train) -> None:
    game.depot.remove(train)
    game.trains.replenish_unlimited(train)
    train.owner = None
    ev.emit(ev.TrainMoved(train.id, train.name, ev.DEPOT, ev.NOBODY, ev.TrainHow.EXPORTED))


def on_new_train(game: Game1822, corp: Corporation, train: Train) -> None:
    if train.name == train.sym or train.name == "2":
        Game.on_new_train(game, corp, train)
        return
    # A 7 bought as an E train starts phase 7 and rusts as a 7 (18xx.games goes by the train's type); only an
    # L bought as a 2 counts as the variant, for phase 2.
    name, train.name = train.name, train.sym
    try:
        Game.on_new_train(game, corp, train)
    finally:
        train.name = name


def train_limit(game: Game1822, corp: Corporation) -> int:
    return _limit_in(game.phase, corp)


def _limit_in(phase: dict[str, Any], corp: Corporation) -> int:
    return int(phase["minor_train_limit" if corp.kind is CorporationKind.MINOR else "train_limit"])


def crowded_corporations(game: Game1822) -> list[Corporation]:
    # Besides the train limit, a company keeps at most one permanent private train (2P, LP) and one Pullman.
    # Asked after almost every action, so the limits are read once and each company's trains counted in one pass.
    phase = game.phase
    minor_limit = int(phase["minor_train_limit"])
    major_limit = int(phase["train_limit"])
    out = []
    for c in game.corporations.values():
        trains = c.trains
        if not trains:
            continue
        limit = minor_limit if c.kind is CorporationKind.MINOR else major_limit
        if len(trains) == 1 and limit >= 1:
            continue  # one train is within any limit and no second of a kind
        # The trains within the limit are at most all of them, so they are counted only when those are too many.
        if len(trains) > limit and sum(1 for t in trains if t.counts_for_limit) > limit:
            out.append(c)
            continue
        names = [t.name for t in trains]
        if sum(names.count(name) for name in PERMANENT_TRAINS) > 1 or names.count(PULLMAN) > 1:
            out.append(c)
    return out


def _extra_count(corp: Corporation, names: tuple[str, ...]) -> int:
    return sum(1 for t in corp.trains if t.name in names)


def discardable_trains(game: Game1822, corp: Corporation) -> list[Train]:
    """The trains a crowded company chooses from: a second permanent private train first, then a second
    Pullman, else its trains within the limit."""
    for names in (PERMANENT_TRAINS, (PULLMAN,)):
        if _extra_count(corp, names) > 1:
            return [t for t in corp.trains if t.name in names]
    return [t for t in corp.trains if t.name not in EXTRA_TRAINS]


def discard_train(game: Game1822, corp: Corporation, train: Train) -> None:
    corp.trains.remove(train)
    if train.name in PERMANENT_TRAINS or train.name == PULLMAN:
        train.owner = None  # a private's train leaves the game
    else:
        train.owner = game.pool
        game.pool_trains.append(train)
    game.log(f"{corp.sym} discards a {train.name} train")
    ev.emit(ev.TrainMoved(train.id, train.name, corp.party, ev.POOL if train.owner is game.pool else ev.NOBODY,
                          ev.TrainHow.DISCARDED))


def must_buy_train(game: Game1822, corp: Corporation) -> bool:
    on_sale = bool(game.trains.available_depot_trains()) or (game.rules_edition >= 4 and bool(game.pool_trains))
    return not any(t.name not in EXTRA_TRAINS for t in corp.trains) and on_sale


def before_train_purchase(game: Game1822, corp: Corporation, train: Train, price: int, *, exchange: Train | None,
                          must_buy: bool) -> None:
    player = corp.owner
    need = price - corp.cash
    if must_buy and isinstance(player, Player) and need > player.cash and exchange is None \
            and not game.runs.emergency_bundles(player, corp):
        # With nothing left to sell, the director borrows the rest from the bank at 50% interest.
        loan = need - player.cash
        loans.lend(game.bank, player, loan, owed=loan + math.ceil(loan * 0.5), what="loan")
        game.log(f"{player.name} takes a loan of {game.format_money(loan)}")


def l_upgrade_open(game: Game1822) -> bool:
    return True


def l_upgrade_price(game: Game1822) -> int:
    return int(game.rules["l_to_2_upgrade"])


def upgrade_l_train(game: Game1822, corp: Corporation, train: Train, price: int) -> None:
    if price != l_upgrade_price(game):
        raise illegal(f"upgrading an L train to a 2 train costs {game.format_money(l_upgrade_price(game))}")
    if price > corp.cash:
        raise insufficient(f"{corp.sym} cannot afford to upgrade its L train")
    train.choose_variant("2")
    pay(corp, game.bank, price, ev.Why.TRAIN)
    ev.emit(ev.TrainMoved(train.id, train.name, corp.party, corp.party, ev.TrainHow.CONVERTED, price))
    game.log(f"{corp.sym} upgrades an L train to a 2 train for {game.format_money(price)}")
    if game.phase["name"] == "1":
        game.trains.phase_from_train(train)
