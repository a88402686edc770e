"""Typed title configuration read from ``game.toml``: how shares are counted, sold and paid for, loans, and money's
format.

Only the keys read here are validated; the rest of ``game.toml`` is still read where it is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from .errors import malformed

_E = TypeVar("_E", bound=StrEnum)


class Capitalization(StrEnum):
    """How a company's treasury is filled from its share sales."""

    FULL = "full"  # at float the bank pays par for every share, sold or not (1882)
    INCREMENTAL = "incremental"  # each IPO share's price goes to the company when it is bought


class SellMovement(StrEnum):
    """How far a sale drops the share price."""

    PER_SHARE = "per_share"  # one row per share sold (1882)
    PER_SALE = "per_sale"  # one row per sale action, whatever the count (1822, 1862)


class LimitBasis(StrEnum):
    """What a holding or pool limit counts."""

    PERCENT = "percent"  # the limit is a percentage of the company (1882: 50% in the pool)
    CERTIFICATES = "certificates"  # the limit is a number of certificates (1862: 5 in the pool)


@dataclass(frozen=True, slots=True)
class ShareRules:
    """The ``[shares]`` table of ``game.toml`` plus the top-level ``capitalization`` key."""

    capitalization: Capitalization = Capitalization.FULL
    sell_movement: SellMovement = SellMovement.PER_SHARE
    pool_limit: int = 50
    pool_limit_basis: LimitBasis = LimitBasis.PERCENT
    hold_limit: int = 60
    hold_limit_basis: LimitBasis = LimitBasis.PERCENT


@dataclass(frozen=True, slots=True)
class LoanRules:
    """The ``[loans]`` table of ``game.toml``: bank loans to companies (none unless ``size`` is set)."""

    size: int = 0  # what one loan pays the company, and what repaying it costs
    interest_percent: int = 0  # interest per loan, in percent of its size, each time interest is due
    limit: int = 0  # most loans one company may hold at once; 0: no limit

    def interest(self, loans: int) -> int:
        """Interest on ``loans`` loans, rounded up (a part of a unit is still owed)."""
        return -(-loans * self.size * self.interest_percent // 100)


@dataclass(frozen=True, slots=True)
class TitleConfig:
    """What the core reads from a title's data instead of assuming 1882."""

    shares: ShareRules = field(default_factory=ShareRules)
    loans: LoanRules = field(default_factory=LoanRules)
    currency: str = "$%d"  # a printf format for an int amount: "$%d", "£%d", "%d ¥"

    def format_money(self, amount: int) -> str:
        return self.currency % amount

    @classmethod
    def from_data(cls, game: dict[str, Any]) -> TitleConfig:
        """Build from the parsed ``game.toml``.

        Raises:
            GameError: (malformed) an unknown key in ``[shares]`` or a value out of its choices, so a typo in
                title data fails at load instead of silently meaning the default.
        """
        table = dict(game.get("shares", {}))
        known = {f for f in ShareRules.__dataclass_fields__ if f != "capitalization"}
        unknown = sorted(set(table) - known)
        if unknown:
            raise malformed(f"unknown [shares] keys in game.toml: {', '.join(unknown)}; "
                            f"known: {', '.join(sorted(known))}")
        defaults = ShareRules()
        shares = ShareRules(
            capitalization=_choice(Capitalization, game.get("capitalization", defaults.capitalization),
                                   "capitalization"),
            sell_movement=_choice(SellMovement, table.get("sell_movement", defaults.sell_movement), "sell_movement"),
            pool_limit=int(table.get("pool_limit", defaults.pool_limit)),
            pool_limit_basis=_choice(LimitBasis, table.get("pool_limit_basis", defaults.pool_limit_basis),
                                     "pool_limit_basis"),
            hold_limit=int(table.get("hold_limit", defaults.hold_limit)),
            hold_limit_basis=_choice(LimitBasis, table.get("hold_limit_basis", defaults.hold_limit_basis),
                                     "hold_limit_basis"),
        )
        loan_table = dict(game.get("loans", {}))
        unknown = sorted(set(loan_table) - set(LoanRules.__dataclass_fields__))
        if unknown:
            raise malformed(f"unknown [loans] keys in game.toml: {', '.join(unknown)}; "
                            f"known: {', '.join(sorted(LoanRules.__dataclass_fields__))}")
        loans = LoanRules(**{k: int(v) for k, v in loan_table.items()})
        if min(loans.size, loans.interest_percent, loans.limit) < 0:
            raise malformed("[loans] size, interest_percent and limit in game.toml may not be negative")
        currency = str(game.get("currency", "$%d"))
        try:
            currency % 0
        except (TypeError, ValueError) as exc:
            raise malformed(f"currency {currency!r} in game.toml must format one integer, as \"$%d\"") from exc
        return cls(shares=shares, loans=loans, currency=currency)


def _choice(enum: type[_E], value: object, key: str) -> _E:
    try:
        return enum(str(value))
    except ValueError:
        choices = ", ".join(e.value for e in enum)
        raise malformed(f"{key} = {value!r} in game.toml is not one of: {choices}") from None
