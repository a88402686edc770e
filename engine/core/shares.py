"""Share arithmetic in share units: a certificate of ``percent`` counts as ``percent / corp.share_percent`` shares.

Value, sale price, price drops, float capital and the limits are all worked out here, so 10% shares (1882),
5% shares with a 10% president's certificate (1862 after redemption) and a minor's single 100% certificate worth
two shares (1822) go through the same code.
"""

from __future__ import annotations

from collections.abc import Sequence

from .config import Capitalization, LimitBasis, SellMovement, ShareRules
from .entities import Corporation, Share


def value(corp: Corporation, price: int, percent: int) -> int:
    """What ``percent`` of ``corp`` is worth at ``price`` a share (rounded down, as 18xx.games' bundle price).

    >>> from engine.core.entities import Corporation
    >>> value(Corporation({"sym": "A"}), 76, 20)
    152
    >>> value(Corporation({"sym": "M", "kind": "minor"}), 50, 100)
    100
    """
    return price * percent // corp.share_percent


def price_drops(rules: ShareRules, corp: Corporation, percent: int) -> int:
    """Market rows a sale of ``percent`` moves the price down."""
    if percent <= 0:
        return 0
    if rules.sell_movement is SellMovement.PER_SALE:
        return 1
    return percent // corp.share_percent


def float_capital(rules: ShareRules, corp: Corporation) -> int:
    """What the bank pays a company as it floats: par for every share under full capitalization, nothing
    under incremental (there the IPO buyers already paid the company)."""
    if rules.capitalization is Capitalization.INCREMENTAL:
        return 0
    assert corp.par_price is not None
    return value(corp, corp.par_price, 100)


def ipo_pays_company(rules: ShareRules) -> bool:
    return rules.capitalization is Capitalization.INCREMENTAL


def certificates_worth(certs: Sequence[Share], percent: int) -> list[Share]:
    """Ordinary certificates from ``certs`` making up exactly ``percent`` (larger ones first, list order among
    equals), or as close below as they can; the presidency swap hands these back for the president's one."""
    out: list[Share] = []
    left = percent
    for share in sorted((s for s in certs if not s.president), key=lambda s: -s.percent):
        if share.percent <= left:
            out.append(share)
            left -= share.percent
    return out


def certificates_sold(corp: Corporation, shares: Sequence[Share], percent: int) -> int:
    """How many certificates a sale of ``percent`` out of ``shares`` leaves in the pool: the ordinary ones, and
    the part of a president's certificate sold, which the new president pays back in ordinary shares."""
    plain = [s for s in shares if not s.president]
    rest = percent - sum(s.percent for s in plain)
    return len(plain) + max(0, rest) // corp.share_percent


def pool_accepts(rules: ShareRules, corp: Corporation, in_pool: Sequence[Share], shares: Sequence[Share],
                 percent: int) -> bool:
    """The pool limit allows a sale of ``percent`` out of ``shares`` (``in_pool``: the pool's certificates of
    ``corp``)."""
    if rules.pool_limit_basis is LimitBasis.CERTIFICATES:
        return len(in_pool) + certificates_sold(corp, shares, percent) <= rules.pool_limit
    return sum(s.percent for s in in_pool) + percent <= rules.pool_limit


def holding_allows(rules: ShareRules, held: Sequence[Share], gained: Sequence[Share]) -> bool:
    """The holding limit allows one holder with ``held`` certificates of a company to take ``gained`` too."""
    if rules.hold_limit_basis is LimitBasis.CERTIFICATES:
        return len(held) + len(gained) <= rules.hold_limit
    return sum(s.percent for s in held) + sum(s.percent for s in gained) <= rules.hold_limit
