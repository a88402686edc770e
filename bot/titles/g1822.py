"""1822's own moves: a director repays the loan taken for a train (``repay``)."""

from __future__ import annotations

from bot.core.move_spec import SPECIAL, Action, Arg, Candidates, Intent, MoveSpec
from bot.core.reading import to_int
from bot.core.refusals import illegal
from engine.core import query
from engine.core.entities import Player
from engine.core.game import Game


def _repay(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    """1822: a player in debt repays it, all they can (``repay``) or a part (``repay 50``)."""
    ent = candidates[0][0]
    whole = query.choices(game, ent, "payoff_player_debt")
    if not args:
        if not whole:
            raise illegal(f"{game.describe(ent)} cannot repay now")
        return Intent(whole[0], ent, player)
    amount = to_int(args[0].lstrip("£$"), "the amount")
    most = min(int(ent.cash), int(ent.debt))
    if not 1 <= amount <= most:
        raise illegal(f"{game.describe(ent)} may repay {game.format_money(1)} to {game.format_money(most)} "
                      f"(debt {game.format_money(ent.debt)}, cash {game.format_money(ent.cash)}); `repay` pays "
                      "all it can")
    if amount == most and whole:
        return Intent(whole[0], ent, player)
    head = query.entity_action(game, ent, "payoff_player_debt_partial")
    return Intent({**head, "amount": amount}, ent, player)


def _write_repay(game: Game, action: Action) -> str:
    return "repay" if action["type"] == "payoff_player_debt" else f"repay {action['amount']}"


MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        'repay',
        types=('payoff_player_debt', 'payoff_player_debt_partial'),
        usage='repay [AMOUNT]',
        summary='repay your loan (1822, in a stock round): all you can, or AMOUNT of it',
        details=(
            'A director who borrowed for a train owes the loan, grown by half every stock round, before '
            'buying shares again.'
        ),
        examples=('repay', 'repay 50'),
        max_words=1,
        group=SPECIAL,
        args=(
            Arg('amount', 'amount', 'how much (default: all you can)', kind="number", min_value=1),
        ),
        read=_repay,
        write=_write_repay,
        titles=('1822',),
    ),
)
