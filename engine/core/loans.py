"""Loans and debts: money the bank lends, as entity data (``Corporation.loans``, ``debt`` on players and companies).

Lending moves cash from the bank to the borrower, so the money in the game stays the same; what is owed is a
liability that scoring and bankruptcy read (``liabilities``, ``Game.player_value``). When a title allows a loan
is its own rule; these functions only keep the books.
"""

from __future__ import annotations

from . import events as ev
from .config import LoanRules
from .entities import Bank, Corporation, Player, pay
from .errors import illegal, insufficient


def take_loan(bank: Bank, corp: Corporation, rules: LoanRules) -> None:
    """``corp`` borrows one loan of the title's size from the bank.

    Raises:
        GameError: (illegal) the title has no loans, or the company already holds its limit.
    """
    if rules.size <= 0:
        raise illegal("this game has no company loans")
    if rules.limit and corp.loans >= rules.limit:
        raise illegal(f"{corp.sym} already holds {corp.loans} loans, the most a company may take")
    bank.spend(rules.size, corp, ev.Why.LOAN)
    corp.loans += 1
    ev.emit(ev.LoanChanged(corp.party, rules.size))


def repay_loan(bank: Bank, corp: Corporation, rules: LoanRules) -> None:
    """``corp`` pays one loan back to the bank.

    Raises:
        GameError: (illegal) it holds no loan; (insufficient) its treasury is short of the loan's size.
    """
    if corp.loans <= 0:
        raise illegal(f"{corp.sym} has no loan to repay")
    if corp.cash < rules.size:
        raise insufficient(f"{corp.sym} needs {rules.size} to repay a loan and has {corp.cash}")
    pay(corp, bank, rules.size, ev.Why.REPAYMENT)
    corp.loans -= 1
    ev.emit(ev.LoanChanged(corp.party, -rules.size))


def interest_due(corp: Corporation, rules: LoanRules) -> int:
    return rules.interest(corp.loans)


def pay_interest(bank: Bank, corp: Corporation, rules: LoanRules) -> int:
    """``corp`` pays the interest on its loans to the bank; returns the amount.

    Raises:
        GameError: (insufficient) the treasury cannot pay it all (what then happens is the title's rule).
    """
    due = interest_due(corp, rules)
    if due > corp.cash:
        raise insufficient(f"{corp.sym} owes {due} interest and has {corp.cash}")
    pay(corp, bank, due, ev.Why.INTEREST)
    return due


def lend(bank: Bank, debtor: Player | Corporation, amount: int) -> None:
    """The bank pays ``amount`` to ``debtor``, who owes it from now on (1822's emergency loans, 1862's debt)."""
    if amount <= 0:
        raise illegal(f"a loan must be of a positive amount, not {amount}")
    bank.spend(amount, debtor, ev.Why.LOAN)
    debtor.debt += amount
    ev.emit(ev.LoanChanged(debtor.party, amount, "debt"))


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
