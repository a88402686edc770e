"""Dividends: full, half (minors always) or withheld, the tax haven's part, and the share price movement.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.entities import Corporation, CorporationKind
from .tax_haven import tax_haven_payout

if TYPE_CHECKING:
    from .state import Game1822


def _withheld(game: Game1822, corp: Corporation, revenue: int, kind: str) -> int:
    if kind == "payout":
        return 0
    if kind == "half":
        half = revenue // 2
        return half if corp.kind is CorporationKind.MINOR else half // 10 * 10
    return revenue


def pay_dividend(game: Game1822, corp: Corporation, revenue: int, kind: str,
                 extra: tuple[int, str | None] | None = None, subsidy: int = 0) -> None:
    corp.last_revenue = revenue
    minor = corp.kind is CorporationKind.MINOR
    base = revenue - (extra[0] if extra else 0)
    withheld = _withheld(game, corp, base, kind)
    shares = 100 // corp.share_percent
    per_share = (base - withheld) / shares
    if extra:
        extra_withheld = _withheld(game, corp, extra[0], extra[1] or kind)
        withheld += extra_withheld
        per_share += (extra[0] - extra_withheld) / shares
    paid = revenue - withheld
    if withheld:
        game.bank.spend(withheld, corp, ev.Why.REVENUE)
    if subsidy:
        game.bank.spend(subsidy, corp, ev.Why.REVENUE)
        game.log(f"{corp.sym} earns a mail subsidy of {game.format_money(subsidy)}")
    parts: list[ev.HolderPart] = []
    if per_share:
        for holder in [*game.players, corp]:
            percent = holder.percent_of(corp.sym) if holder is not corp else sum(s.percent for s in corp.shares)
            if percent and not (minor and holder is corp):
                amount = math.ceil(percent / corp.share_percent * per_share)
                parts.append(game.runs.pay_holder(holder, amount))
        haven = tax_haven_payout(game, corp, per_share)
        if haven:
            parts.append(ev.HolderPart(game.tax_haven.party, haven))
    game.log(f"{corp.sym} runs for {game.format_money(revenue)}: {kind}")
    dividend = {"payout": ev.DividendKind.FULL, "half": ev.DividendKind.HALF}.get(kind, ev.DividendKind.WITHHELD)
    if ev.recording_now():
        ev.emit(ev.DividendPaid(corp.sym, dividend, revenue, math.ceil(per_share), corp.share_percent,
                                tuple(parts), withheld))
    if minor:
        if revenue > 0:
            game.market.right(corp.sym)
        else:
            game.market.left(corp.sym)
        return
    price = game.market.location[corp.sym].price
    if paid <= 0:
        game.market.left(corp.sym)
    elif paid >= 2 * price:
        game.market.right(corp.sym)
        game.market.right(corp.sym)
    elif paid >= price:
        game.market.right(corp.sym)
