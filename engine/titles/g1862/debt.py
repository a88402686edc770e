"""1862's debt (§9.3, §9.6): a company pays a redemption with a debt certificate bought at the phase's rate;
after the last operating round every company repays its debt, its president covering a shortfall, and what he
cannot pay is deducted from his score."""

from __future__ import annotations

from ...core import events as ev
from ...core import loans
from ...core.entities import Corporation, Player, pay
from . import rules
from .state import Game1862


def take_debt(game: Game1862, corp: Corporation, needed: int) -> None:
    """A debt certificate whose price at the phase's rate pays ``needed``."""
    rate = int(game.phase["debt_rate"])
    face = rules.debt_face(needed, rate)
    cash = face * rate // 100
    loans.lend(game.bank, corp, cash, owed=face)
    game.log(f"{corp.sym} takes a debt certificate of {game.format_money(face)} for "
             f"{game.format_money(cash)}")


def repay_debts(game: Game1862) -> None:
    """After the last operating round every company repays its debt; its president covers a shortfall
    from his cash, and what he cannot pay is deducted from his score (§9.6). No price moves."""
    for corp in [c for c in game.corporations.values() if c.debt and not c.closed]:
        paid = min(corp.cash, corp.debt)
        pay(corp, game.bank, paid, ev.Why.REPAYMENT)
        rest = corp.debt - paid
        corp.debt = 0
        player = corp.owner
        if rest and isinstance(player, Player) and not player.bankrupt:
            cash = min(player.cash, rest)
            pay(player, game.bank, cash, ev.Why.REPAYMENT)
            player.debt += rest - cash
            game.log(f"{player.name} pays {game.format_money(cash)} of {corp.sym}'s debt"
                     + (f"; {game.format_money(rest - cash)} is deducted from the score" if rest > cash else ""))
        game.log(f"{corp.sym} repays its debt")
