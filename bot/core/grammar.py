"""The move verbs of the command language, gathered from their declarations.

Each move is declared once, with everything about it (:class:`bot.core.move_spec.MoveSpec`): the core moves in
:mod:`bot.core.verbs`, each title's own moves in its module of :mod:`bot.titles`. The parser and ``moves``
(:mod:`bot.core.intents`), the help (:mod:`bot.core.commands`), autocomplete and buttons
(:mod:`bot.core.choices`) and the Discord command schema (:mod:`bot.discord.subcommands`) all read
:data:`MOVES`; a title adds a move by adding its declaration to its module's ``MOVES``.
"""

from __future__ import annotations

from bot.core.move_spec import SPECIAL as SPECIAL
from bot.core.move_spec import Arg as Arg
from bot.core.move_spec import MoveSpec
from bot.core.verbs import decisions, market, operating, track
from bot.titles import g1822, g1828, g1862, g1882

MOVES: tuple[MoveSpec, ...] = (
    *market.MOVES, *operating.MOVES[:1], *track.MOVES, *operating.MOVES[1:], *decisions.MOVES,
    *g1828.MOVES, *g1822.MOVES, *g1862.MOVES, *g1882.MOVES,
)

MOVE_BY_VERB: dict[str, MoveSpec] = {m.verb: m for m in MOVES}

#: The phrase moves by their first word: ``buy`` -> {``coal``: 1828's ``buy coal``}.
PHRASES: dict[str, dict[str, MoveSpec]] = {}
for _move in MOVES:
    if _move.is_phrase:
        PHRASES.setdefault(_move.head, {})[_move.verb.split()[1]] = _move

#: Action types each first word may produce, its phrases' included (what autocomplete offers after ``buy``).
HEAD_TYPES: dict[str, tuple[str, ...]] = {}
for _move in MOVES:
    HEAD_TYPES[_move.head] = (*HEAD_TYPES.get(_move.head, ()), *_move.types)


def phrase(title: str, verb: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The move a verb and its words name in ``title``: ``buy coal`` is 1828's phrase move, not the core ``buy``
    of a company called "coal"."""
    move = PHRASES.get(verb, {}).get(args[0].lower()) if args else None
    if move is None or not move.in_title(title):
        return verb, args
    return move.verb, args[1:]


def phrase_words(title: str, verb: str) -> list[str]:
    """The fixed words that follow ``verb`` in ``title``'s phrase moves (``coal`` after 1828's ``buy``)."""
    return [word for word, move in PHRASES.get(verb, {}).items() if move.in_title(title)]

#: The declarations that write each engine action type, in the order tried (the first that writes it wins).
WRITERS: dict[str, tuple[MoveSpec, ...]] = {
    kind: tuple(m for m in MOVES if kind in m.written) for kind in dict.fromkeys(k for m in MOVES for k in m.written)
}

_unread = [m.verb for m in MOVES if m.read is None or m.write is None]
if _unread or len(MOVE_BY_VERB) != len(MOVES):  # every move is read and written, and declared once
    raise RuntimeError(f"moves declared without a reader or writer, or twice: {_unread or MOVES}")


def type_words() -> dict[str, str]:
    """How to say each engine action type as a command (``dividend``: ``pay/withhold``), for refusals: the verbs
    that try it first, else every verb that produces it."""
    out: dict[str, str] = {}
    for kind in dict.fromkeys(k for m in MOVES for k in m.types):
        first = [m.verb for m in MOVES if m.types[0] == kind]
        out[kind] = "/".join(first or [m.verb for m in MOVES if kind in m.types])
    return out


#: How to say each engine action type in the command language (for "you can: ..." hints).
TYPE_WORDS: dict[str, str] = type_words()
