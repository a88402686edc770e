"""The ``/18xx`` subcommands: their options, where they sit in the command tree, and the text they send.

Every verb of the service's command language (:data:`bot.core.commands.VERBS`) becomes one subcommand, so
a verb added to the service shows up here without code: verbs without an entry in :data:`OPTIONS` get one
free-text ``args`` option (none if the verb takes no words). The entries here only say how Discord should
ask for the words of a verb (typed options, fixed choices, autocomplete from the engine's legal choices)
and how to write them back as the command line the service reads, e.g. ``lay hex:E9 tile:57 rotation:2``
-> ``lay E9 57 2``.

Discord allows 25 subcommands per level, fewer than our verbs, so the moves and undo verbs (the ones typed
all game long) sit directly under ``/18xx`` and the rest in the ``game``, ``info`` and ``prefs`` groups.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.commands import VERBS, Command, verb_named
from bot.core.grammar import MOVES, SPECIAL, Arg

#: Subgroup of each service verb group; None means directly under /18xx.
GROUP_OF: dict[str, str | None] = {"move": None, "undo": None, "auto": None, "game": "game", "info": "info"}
OTHER_GROUP = "prefs"  # verbs of any other group (notification preferences and whatever comes next)
#: Moves only some titles have, grouped so that /18xx keeps within Discord's 25 entries.
SPECIAL_GROUP = SPECIAL
SPECIAL_VERBS = frozenset(m.verb for m in MOVES if m.group == SPECIAL_GROUP)

GROUP_DESCRIPTIONS: dict[str, str] = {
    "game": "create, join, start, import or export a game",
    "info": "look at the game: status, who acts, legal moves, log, map, market",
    "prefs": "your pings: channel or DM, reminders, quiet hours, away",
    SPECIAL_GROUP: "moves of some titles: merge, swap (1828, 1822), redeem, close (1862), repay (1822)",
}

NOTIFY_MODES = ("channel", "dm", "both", "off", "test")
MAX_DESCRIPTION = 100  # Discord's limit for command and option descriptions


def shorten(text: str, width: int = MAX_DESCRIPTION) -> str:
    return textwrap.shorten(text, width=width, placeholder="…")


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a subcommand, in the order its value is written into the command line.

    ``kind`` is ``str``, ``int``, ``bool`` or ``"file"`` (an attachment, sent to the service as bytes, never
    as text). ``suggest`` asks the service for legal values while typing; ``after`` names the options whose
    values come before this one in the command (the service needs them, e.g. the hex before the tile).
    ``render`` writes the value: a format string, or a function for words that depend on the value.
    A ``bool`` option writes ``render`` (its flag word) when true and nothing otherwise.
    """

    name: str
    description: str
    kind: type | str = str
    required: bool = False
    choices: tuple[str, ...] = ()
    suggest: bool = False
    after: tuple[str, ...] = ()
    render: str | Callable[[Any], str] = "{}"
    min_value: int | None = None
    max_value: int | None = None

    def write(self, value: Any) -> str:
        if value is None or value == "":
            return ""
        if self.kind is bool:
            return str(self.render) if value else ""
        if callable(self.render):
            return self.render(value)
        return self.render.format(value)


@dataclass(frozen=True, slots=True)
class Subcommand:
    """A subcommand of /18xx: the service verb it sends, its options and its place in the tree."""

    name: str
    verb: str
    description: str
    group: str | None
    options: tuple[Option, ...] = ()
    lead: bool = True  # False: the command line starts with the first option (a private's symbol)
    opens_game: bool = False  # creates a game: gets a thread of its own before the service sees it

    def text(self, values: Mapping[str, Any]) -> str:
        """The command line for the service, e.g. ``lay E9 57 2``."""
        words = [self.verb] if self.lead else []
        for option in self.options:
            if option.kind == "file":
                continue
            word = option.write(values.get(option.name))
            if word:
                words.append(word.strip())
        return " ".join(w for w in words if w)

    def command(self, values: Mapping[str, Any]) -> Command:
        """The move or request as the service reads it, built from the typed options (no line to re-read):
        each option gives its own words, in the declared order."""
        words: list[str] = []
        for option in self.options:
            if option.kind == "file":
                continue
            words.extend(option.write(values.get(option.name)).split())
        text = self.text(values)
        if not self.lead:  # the first option is a private's symbol: it stands where the verb does
            return Command(words[0].lower(), tuple(words[1:]), text) if words else Command("help", (), text)
        verb = verb_named(self.verb)
        return Command(verb.name if verb is not None else self.verb, tuple(words), text)

    @property
    def path(self) -> str:
        return f"{self.group} {self.name}" if self.group else self.name


_KINDS: dict[str, type] = {"text": str, "number": int, "flag": bool}


def _option(arg: Arg) -> Option:
    """The Discord option for a declared argument of a move (bot.core.grammar)."""
    return Option(arg.name, arg.description, _KINDS[arg.kind], arg.required, arg.choices, arg.completed, arg.after,
                  arg.render, arg.min_value, arg.max_value)


#: How Discord asks for each verb's words. Order = order in the command line.
OPTIONS: dict[str, tuple[Option, ...]] = {
    **{m.verb: tuple(_option(a) for a in m.args) for m in MOVES if m.args},
    "join": (Option("player", "for an imported game: the player whose seat you take", suggest=True),),
    "start": (Option("shuffle", "random seat order instead of join order", bool, render="shuffle"),),
    "import": (Option("file", "the game's 18xx.games JSON export", "file", required=True),),
    "history": (
        Option("game", "a game number you played in (finished ones too)", int, min_value=1, render="#{}"),
        Option("page", "1 is the newest page", int, min_value=1),
    ),
    "games": (Option("which", "open: games waiting for players; finished: yours, with results",
                     choices=("open", "finished"), render="--{}"),),
    "moves": (Option("only", "a hex (its tiles, drawn), a company, or all (nothing cut)"),),
    "map": (Option("where", "a hex or a company for a close-up (nothing: the whole map)"),),
    "chart": (
        Option("which", "one chart (nothing: all three)", choices=("value", "prices", "revenue")),
        Option("game", "a game number you played in (finished ones too)", int, min_value=1, render="#{}"),
    ),
    "summary": (Option("game", "a finished game you played in", int, min_value=1, render="#{}"),),
    "help": (Option("command", "explain one command", suggest=True),),
    "approve": (Option("request", "the request number (default: the one waiting for you)", int, suggest=True),),
    "decline": (Option("request", "the request number (default: the one waiting for you)", int, suggest=True),),
}

HERE = Option("here", "only for the game in this thread", bool, render="here")


def _extra(privates: list[str]) -> tuple[Subcommand, ...]:
    """Subcommands that are not verbs of the service's table: private companies' powers (``nwr lay C3 57 1``
    becomes ``/18xx ability private:NWR move:lay hex:C3 detail:57 rotation:1``) and the notification
    preferences (the ``prefs`` group)."""
    return (
        Subcommand(
            "ability",
            "ability",
            "use a private company's power, e.g. NWR: remove, token, lay",
            None,
            (
                # Autocompleted from the game's own companies: titles bring more privates than the 25 static
                # choices Discord allows (1822 alone has over 20).
                Option("private", "the private company", required=True, suggest=True),
                Option("move", "what its power does now", required=True, suggest=True, after=("private",)),
                Option("hex", "where", suggest=True, after=("private", "move")),
                Option(
                    "detail",
                    "the tile (for lay) or the city (for token)",
                    suggest=True,
                    after=("private", "move", "hex"),
                ),
                Option("rotation", "0-5 (for lay)", int, suggest=True, after=("private", "move", "hex", "detail")),
            ),
            lead=False,
        ),
        Subcommand(
            "notify",
            "notify",
            "how you are pinged when it is your turn (test: send a test ping)",
            OTHER_GROUP,
            (
                Option(
                    "mode", "channel mention, direct message, both, off, or a test", required=True, choices=NOTIFY_MODES
                ),
                HERE,
            ),
        ),
        Subcommand(
            "remind",
            "remind",
            "ping again when your turn has waited this many hours",
            OTHER_GROUP,
            (Option("hours", "hours, or off", required=True, suggest=True), HERE),
        ),
        Subcommand(
            "quiet",
            "quiet",
            "no pings during these hours (they wait until the end)",
            OTHER_GROUP,
            (
                Option("hours", "HH:MM-HH:MM, or off", required=True, suggest=True),
                Option("timezone", "your time zone, e.g. Europe/Paris", suggest=True, after=("hours",)),
            ),
        ),
        Subcommand(
            "away",
            "away",
            "away mode: no pings in any game until you are back",
            OTHER_GROUP,
            (Option("state", "on or off", required=True, choices=("on", "off")),),
        ),
        Subcommand("show", "prefs", "your notification settings", OTHER_GROUP),
    )


@dataclass(frozen=True, slots=True)
class CommandSet:
    """Every subcommand, keyed by its path (``"lay"``, ``"game new"``)."""

    subcommands: dict[str, Subcommand] = field(default_factory=dict)


def build(titles: list[str], privates: list[str]) -> CommandSet:
    """The subcommands for the service's verb table plus the extra ones; ``titles`` are offered by ``new``,
    ``privates`` (the private companies of every title) by ``ability``."""
    out: dict[str, Subcommand] = {}
    specs = {**OPTIONS, "new": _new_options(titles)}
    extra = _extra(privates)
    taken = {s.verb for s in extra}
    for verb in VERBS:
        if verb.name in taken:
            continue  # the service learnt a verb we already offer with our own options
        if " " in verb.name:
            continue  # a phrase move (``buy coal``) is its first word's subcommand with the word as first option
        options = specs.get(verb.name) or _free_text(verb.usage)
        group = SPECIAL_GROUP if verb.name in SPECIAL_VERBS else GROUP_OF.get(verb.group, OTHER_GROUP)
        sub = Subcommand(
            verb.name,
            verb.name,
            shorten(verb.summary),
            group,
            options,
            opens_game=verb.name in ("new", "import"),
        )
        out[sub.path] = sub
    for sub in extra:
        out[sub.path] = sub
    return CommandSet(out)


def _free_text(usage: str) -> tuple[Option, ...]:
    """One text option for the words of a verb we have no typed options for; none if it takes no words."""
    if len(usage.split()) < 2:
        return ()
    return (Option("args", shorten(f"the rest of: {usage}")),)


def _new_options(titles: list[str]) -> tuple[Option, ...]:
    return (
        Option("title", "the game", required=True, suggest=True),
        Option("seed", "fixes the random draws (for a rematch)", int, render="seed={}", min_value=1),
        Option("players", "at most this many seats", int, render="players={}", min_value=1, max_value=8),
        Option("rules", "optional rules of the title, separated by spaces"),
    )
