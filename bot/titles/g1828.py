"""1828's own moves: a system moves a train between its two shells (``swap``), and a company buys a coal marker
at the Virginia Coalfields (``buy coal``).

Its other moves are the core ones: ``merge`` (:mod:`bot.core.verbs.decisions`) and ``train ... shell CORP``
(:mod:`bot.core.verbs.operating`).
"""

from __future__ import annotations

from bot.core.move_spec import SPECIAL, Action, Arg, Candidates, Intent, MoveSpec
from bot.core.reading import listing, train_name
from bot.core.refusals import illegal, malformed
from engine.core import query
from engine.core.entities import Player
from engine.core.game import Game


def _buy_coal(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    ent = candidates[0][0]
    options = query.choices(game, ent, "special_buy")
    if not options:
        raise illegal(f"{game.describe(ent)} cannot buy a coal marker now{_why_no_coal(game, player)}")
    return Intent(options[0], ent, player)


def _why_no_coal(game: Game, player: Player) -> str:
    return (": a company may when it reaches the Virginia Coalfields with a marker left there, holds none and has "
            "the price")


def _swap(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    ent = candidates[0][0]
    options = query.choices(game, ent, "swap_train")
    labels = [_swap_word(game, options, c) for c in options]
    if not args:
        raise malformed(f"say which train moves to the other shell: `swap TRAIN`, one of: {listing(labels)}")
    want = args[0].lower()
    hit = next((c for c, label in zip(options, labels, strict=True) if label.lower() == want), None)
    if hit is None:
        hit = next((c for c in options if str(c["train"]).lower() == want), None)
    if hit is None:
        raise illegal(f"{ent.sym} cannot move a {args[0]} train between its shells; it can move: "
                      f"{listing(labels) or 'none'}")
    return Intent(hit, ent, player)


def _swap_word(game: Game, options: list[Action], action: Action) -> str:
    """The train's name, or its id when two trains of that name could move."""
    name = train_name(game, action["train"])
    same = [c for c in options if train_name(game, c["train"]) == name]
    return name if len(same) == 1 else str(action["train"])


def _write_swap(game: Game, action: Action) -> str:
    options = query.choices(game, game.resolve_entity(action), "swap_train")
    return f"swap {_swap_word(game, options, action)}"


MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        'buy coal',
        types=('special_buy',),
        usage='buy coal',
        summary='your company buys a coal marker from the Virginia Coalfields',
        details='It must reach the Coalfields, hold no marker yet and pay the price; a marker left there is needed.',
        examples=('buy coal',),
        max_words=0,
        read=_buy_coal,
        write=lambda game, action: "buy coal",
        why_not=_why_no_coal,
        titles=('1828',),
    ),
    MoveSpec(
        'swap',
        types=('swap_train',),
        usage='swap TRAIN',
        summary='an 1828 system moves a train to its other shell',
        details="Each of a system's two shells runs its own trains, within the train limit per shell.",
        examples=('swap 6', 'swap 3+D'),
        max_words=1,
        group=SPECIAL,
        args=(
            Arg('train', 'train', 'the train that moves to the other shell', required=True, completed=True),
        ),
        read=_swap,
        write=_write_swap,
        titles=('1828',),
    ),
)
