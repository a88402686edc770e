"""1862's forced train purchase (§8.7.4, D-12): a company with a route and no train must buy one; the president
helps only when the treasury cannot pay for any train of the bank or the pool; forced sales never sell a
president's certificate, change a presidency or sell more than needed, and an unfloated company's shares pay
the price after the drop."""

from __future__ import annotations

from ...core.entities import Corporation, Player, Share
from . import rules
from .state import Game1862
from .switches import FORCED_PURCHASE_ALWAYS


def must_buy_train(game: Game1862, corp: Corporation) -> bool:
    if corp.closed or corp.trains or not (game.trains.available_depot_trains() or game.pool_trains):
        return False
    return game.switch(FORCED_PURCHASE_ALWAYS) or game.track.reach(corp).route_possible


def president_may_contribute(game: Game1862, corp: Corporation) -> bool:
    """Only when the treasury cannot pay for any train of the bank or the pool (§8.7.4.1, SC-27)."""
    if not game.must_buy_train(corp):
        return False
    cheapest = game.min_depot_price()
    return game.rules_edition < 2 or cheapest is None or corp.cash < cheapest


def edition_1_min_depot_price(game: Game1862) -> int | None:
    prices = [t.price for t in game.trains.available_depot_trains()]  # edition 1: the bank's only
    return min(prices) if prices else None


def sale_proceeds(game: Game1862, corp: Corporation, sold: list[Share]) -> int:
    """What selling ``sold`` in one action pays: at the price before the drop for a floated company, after it
    for an unfloated one (§4.3, §8.5); edition 1 counted both at the price before it."""
    cell = game.market.location.get(corp.sym)
    if cell is None:
        return 0
    if not corp.floated and game.rules_edition >= 2:
        cell = game.market.below(corp.sym)
    return sum(rules.cert_value(cell.price, s.percent) for s in sold)


def bundle_needed(game: Game1862, corp: Corporation, sold: list[Share]) -> bool:
    """No more than needed (§8.7.4.3): without its smallest certificate the sale must fall short."""
    target = game.corporations[sold[0].corp]
    smallest = min(sold, key=lambda s: s.percent)
    rest = list(sold)
    rest.remove(smallest)
    return sale_proceeds(game, target, rest) < game.runs.emergency_need(corp)


def bundle_legal(game: Game1862, player: Player, sold: list[Share], percent: int) -> bool:
    """A forced sale never sells a president's certificate nor changes any presidency (§5.6, §8.7)."""
    sym = sold[0].corp
    if sym not in game.market.location or any(s.owner is not player or s.corp != sym for s in sold):
        return False
    if any(s.president for s in sold):
        return False
    if len(game.pool.shares_of(sym)) + len(sold) > game.config.shares.pool_limit:
        return False
    target = game.corporations[sym]
    if target.owner is player:
        others = max((p.percent_of(sym) for p in game.players if p is not player), default=0)
        if player.percent_of(sym) - percent < others:
            return False
    return True


def liquidity(game: Game1862, player: Player) -> int:
    """What the president can raise by the forced sales he may make."""
    total = 0
    for sym in {s.corp for s in player.shares}:
        target = game.corporations[sym]
        bundles = [sold for sold, percent in game.shares.sell_bundles(player, target)
                   if bundle_legal(game, player, sold, percent)]
        total += max((sale_proceeds(game, target, sold) for sold in bundles), default=0)
    return total
