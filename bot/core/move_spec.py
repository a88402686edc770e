"""What declaring a move takes: :class:`MoveSpec` and its typed :class:`Arg` s, and the reading and writing
functions a declaration carries.

A move's declaration is the one place that says everything about it: its verb, the engine action types it
produces, its typed arguments with how each is completed, its help, where Discord files it, how its words are
read into an engine action (``read``) and how an engine action is written back as its words (``write``), with
any other spellings the language accepts for the same action (``variants``). The core moves are declared in
:mod:`bot.core.verbs`, each title's own in :mod:`bot.titles`; :mod:`bot.core.grammar` gathers them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from engine.core.entities import Player
from engine.core.game import Game

Action = dict[str, Any]
#: The seat's entities that may make a move now, each with the action type it would take (tried in order).
Candidates = list[tuple[Any, str]]


@dataclass(frozen=True, slots=True)
class Intent:
    """A move ready for the engine. ``counterparty`` must approve first (a deal with another player)."""

    action: Action
    entity: Any
    player: Player
    counterparty: Player | None = None
    deal: str = ""  # what the counterparty is asked to approve


#: Reads the words after the verb into the engine action the seat takes (raises CommandError to refuse).
Reader = Callable[[Game, Player, Candidates, tuple[str, ...]], Intent]
#: Writes one of the engine's legal actions as the move's words, or None when another declaration writes it.
Writer = Callable[[Game, Action], "str | None"]
#: Why a move is not open to the player now, as a clause (": ..."), or "" when it has nothing to add.
WhyNot = Callable[[Game, Player], str]
#: Other spellings of one legal action that the move also reads (raised bids, prices within a range).
Variants = Callable[[Game, Any, Action], list[str]]


#: What an argument names, which says how it is completed: from the engine's legal choices (``completed``), from
#: fixed ``choices``, or typed freely.
ArgType = Literal["private", "company", "hex", "tile", "rotation", "city", "amount", "count", "train", "choice",
                  "routes", "word", "flag"]
SPECIAL = "special"  # the Discord group of moves only some titles have


@dataclass(frozen=True, slots=True)
class Arg:
    """One typed argument of a move, in the order it is written after the verb.

    ``kind`` is how it is typed (``text``, ``number``, or a ``flag`` word present or not); ``completed``: its
    values come from the engine's legal choices, given those of the arguments named in ``after``.
    ``render`` writes the value into the command line: a format string or a function.
    """

    name: str
    type: ArgType
    description: str
    kind: Literal["text", "number", "flag"] = "text"
    required: bool = False
    choices: tuple[str, ...] = ()
    completed: bool = False
    after: tuple[str, ...] = ()
    render: str | Callable[[object], str] = "{}"
    min_value: int | None = None
    max_value: int | None = None


@dataclass(frozen=True, slots=True)
class MoveSpec:
    """One move verb: what it produces, how it is typed and explained, and where Discord files it.

    ``verb`` may be a phrase of two words (1828's ``buy coal``): a title's move said with a core verb and a fixed
    word, read before the core verb's own reader; Discord reaches it through the core verb's first option.
    """

    verb: str
    types: tuple[str, ...]  # engine action types, in the order tried
    usage: str
    summary: str
    details: str = ""
    examples: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    args: tuple[Arg, ...] = ()
    max_words: int | None = None  # the most words after the verb (None: any number)
    group: str | None = None  # Discord: None is directly under /18xx
    own_verb: bool = True  # False: said only after a private's symbol (``nwr remove G11``)
    read: Reader | None = None
    write: Writer | None = None
    writes: tuple[str, ...] = ()  # the action types ``write`` writes (default: ``types``)
    variants: Variants | None = None
    why_not: WhyNot | None = None  # why the move is not open when the seat may not make it at all
    titles: tuple[str, ...] = ()  # the titles that have this move (empty: every title)

    @property
    def written(self) -> tuple[str, ...]:
        return self.writes or self.types

    @property
    def head(self) -> str:
        """The word the move starts with (its verb, or a phrase's first word)."""
        return self.verb.split()[0]

    @property
    def is_phrase(self) -> bool:
        return " " in self.verb

    def in_title(self, title: str) -> bool:
        return not self.titles or title in self.titles


