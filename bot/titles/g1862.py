"""1862's own moves: a company redeems its shares (``redeem``), a player closes a private (``close``)."""

from __future__ import annotations

from bot.core.move_spec import SPECIAL, Candidates, Intent, MoveSpec
from bot.core.reading import simple
from engine.core.entities import Player
from engine.core.game import Game


def _redeem(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    kind = args[0].lower() if args else "debt"
    return simple("redeem_shares", {"kind": kind})(game, player, candidates, args)


def _close(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    sym = args[0].upper() if args else ""
    return simple("close_company", {"company": sym})(game, player, candidates, args)


MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        'redeem',
        types=('redeem_shares',),
        usage='redeem debt|treasury',
        summary='your company buys back half of every share (1862, from the green phase)',
        details=(
            'With debt it takes a debt certificate whose cash pays the shareholders, repaid at the end '
            'of the game; from the treasury only when it holds the whole payment.'
        ),
        examples=('redeem debt', 'redeem treasury'),
        max_words=1,
        group=SPECIAL,
        read=_redeem,
        write=lambda game, action: f"redeem {action['kind']}",
        titles=('1862',),
    ),
    MoveSpec(
        'close',
        types=('close_company',),
        usage='close PRIVATE',
        summary='close one of your privates (1862; closing B&O lifts its marker)',
        examples=('close B&O',),
        max_words=1,
        group=SPECIAL,
        read=_close,
        write=lambda game, action: f"close {action['company']}",
        titles=('1862',),
    ),
)
