"""1862's money arithmetic, apart from the game state (spec = /work/shared/rules/1862-reconstruction.md).

Every rounding is up, in the holder's favour (spec §0.3): a 5% certificate is worth half the price per 10%,
rounded up; redemption pays per certificate, rounded up; a 5% unit of a dividend is rounded up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def cert_value(price: int, percent: int) -> int:
    """What one certificate of ``percent`` is worth at ``price`` per 10% (a 5% one: half, rounded up; §8.4)."""
    return ceil_div(price * percent, 10)


def redemption_cash(price: int, percent: int, president: bool) -> int:
    """What the company pays for the half of one certificate it buys back (§9.2 table)."""
    if president and percent == 30:
        return ceil_div(3 * price, 2)  # 15% of the 30%
    if president:
        return price  # 10% of the 20%
    return ceil_div(price * percent, 20)  # half of an ordinary certificate


def debt_face(needed: int, rate: int) -> int:
    """The debt face, in $100 steps, that raises at least ``needed`` at ``rate`` dollars per $100 (§9.2 (b))."""
    return 100 * ceil_div(needed, rate)


def dividend_unit(revenue: int) -> int:
    """The payout of one 5% unit after redemption, rounded up (§9.4)."""
    return ceil_div(revenue, 20)


def cert_limit(table: Mapping[str, Sequence[int]], players: int, companies: int) -> int:
    """The certificate limit for the players and companies still in the game (§1); fewer than 6 companies read
    the 6-company row, fewer than 3 players the 3-player column."""
    row = table[str(max(6, min(13, companies)))]
    column = max(3, min(7, players)) - 3
    return int(row[column])


def holding_cap(players: int) -> int:
    """Percent of one company a player may hold: 60 while more than 4 players are in the game, else 70 (§1)."""
    return 60 if players > 4 else 70
