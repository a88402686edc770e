"""Debts: money the bank lends to a player or a company, owed as ``debt`` (1822's director's loans, 1862's debt
certificates); a company's loans of the title's ``[loans]`` size count in ``liabilities``.

Lending moves cash from the bank to the borrower, so the money in the game stays the same; what is owed is a
liability that scoring and bankruptcy read (``liabilities``, ``Game.player_value``). When a title lends is its own
rule; these functions only keep the books.
"""

from __future__ import annotations

from . import events as ev
from .config import LoanRules
from .entities import Bank, Corporation, Player, pay
from .errors import illegal, insufficient


def lend(bank: Bank, debtor: Player | Corporation, cash: int, *, owed: int | None = None, what: str = "debt") -> None:
    """The bank pays ``cash`` to ``debtor``, who owes ``owed`` (``cash`` unless the title says more) from now on:
    1822's director's loan at 50% interest, 1862's debt certificates at the phase's rate.

    Raises:
        GameError: (illegal) a negative amount.
    """
    owed = cash if owed is None else owed
    if cash < 0 or owed < 0:
        raise illegal(f"a loan must be of a positive amount, not {cash}")
    bank.spend(cash, debtor, ev.Why.LOAN)
    debtor.debt += owed
    ev.emit(ev.LoanChanged(debtor.party, owed, what))


def repay_debt(bank: Bank, debtor: Player | Corporation, amount: int) -> None:
    """``debtor`` pays ``amount`` of its debt back to the bank.

    Raises:
        GameError: (illegal) more than is owed; (insufficient) more than the debtor's cash.
    """
    if not 0 < amount <= debtor.debt:
        raise illegal(f"{debtor.name} owes {debtor.debt}; it cannot repay {amount}")
    if amount > debtor.cash:
        raise insufficient(f"{debtor.name} has {debtor.cash}, not the {amount} to repay")
    pay(debtor, bank, amount, ev.Why.REPAYMENT)
    debtor.debt -= amount
    ev.emit(ev.LoanChanged(debtor.party, -amount, "debt"))


def liabilities(corp: Corporation, rules: LoanRules) -> int:
    """What ``corp`` owes the bank: its loans at their size, and its other debt."""
    return corp.loans * rules.size + corp.debt
