"""1882's own moves: the North West Rebellion private removes a station (``nwr remove G11``)."""

from __future__ import annotations

from bot.core.move_spec import Candidates, Intent, MoveSpec
from bot.core.verbs.track import city_choice, city_words
from engine.core.entities import Player
from engine.core.game import Game


def _remove(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    ent = candidates[0][0]
    return Intent(city_choice(game, ent, "remove_token", args, "remove HEX [CITY]"), ent, player)


MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        'remove',
        types=('remove_token',),
        usage='PRIVATE remove HEX [CITY]',
        summary="a private's power removes a station (1882's NWR)",
        examples=('nwr remove G11',),
        own_verb=False,
        read=_remove,
        write=city_words,
        titles=('1882',),
    ),
)
