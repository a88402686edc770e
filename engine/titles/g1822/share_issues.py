"""A major's issuing of treasury shares (the price falls a row each) and its redemption of shares from the market.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.entities import Corporation, CorporationKind, Player, Share, pay
from .turn_order import turns_operated

if TYPE_CHECKING:
    from .state import Game1822


def issuable(game: Game1822, corp: Corporation) -> list[tuple[list[Share], int]]:
    if corp.kind is not CorporationKind.MAJOR or turns_operated(game, corp) < 2:
        return []
    ipo = [s for s in corp.shares if not s.president]
    out: list[tuple[list[Share], int]] = []
    pool = game.pool.percent_of(corp.sym)
    for n in range(1, len(ipo) + 1):
        bundle = ipo[:n]
        if pool + sum(s.percent for s in bundle) > game.config.shares.pool_limit:
            break
        out.append((bundle, _price_after_drops(game, corp, n)))
    return out


def _price_after_drops(game: Game1822, corp: Corporation, n: int) -> int:
    cell = game.market.location[corp.sym]
    row, col = cell.row, cell.col
    for _ in range(n):
        if row + 1 < len(game.market.rows) and game.market.at(row + 1, col) is not None:
            row += 1
    at = game.market.at(row, col)
    return at.price if at is not None else cell.price


def issue_shares(game: Game1822, corp: Corporation, bundle: list[Share], price: int) -> None:
    for share in bundle:
        game.shares.transfer_share(share, game.pool)
    total = price * len(bundle)
    game.bank.spend(total, corp, ev.Why.CAPITAL)
    for _ in bundle:
        game.market.down(corp.sym)
    game.log(f"{corp.sym} issues {len(bundle)} shares for {game.format_money(total)}")
    game.check_presidency(corp, previous=corp.owner if isinstance(corp.owner, Player) else None)


def redeemable(game: Game1822, corp: Corporation) -> list[list[Share]]:
    if corp.kind is not CorporationKind.MAJOR:
        return []
    pool = game.pool.shares_of(corp.sym)
    price = game.market.location[corp.sym].price if corp.sym in game.market.location else 0
    return [pool[:n] for n in range(1, len(pool) + 1) if price * n <= corp.cash]


def redeem_shares(game: Game1822, corp: Corporation, bundle: list[Share]) -> None:
    price = game.market.location[corp.sym].price * len(bundle)
    for share in bundle:
        game.shares.transfer_share(share, corp)
    pay(corp, game.bank, price, ev.Why.SHARES)
    game.log(f"{corp.sym} redeems {len(bundle)} shares for {game.format_money(price)}")
    # A share movement settles the directorship: a minor's owner paid in shares may now hold the most.
    game.check_presidency(corp, previous=corp.owner if isinstance(corp.owner, Player) else None)
