"""Moves in the command language <-> engine actions, through the moves' declarations (:mod:`bot.core.grammar`).

:func:`translate` turns a move such as ``lay E9 57 2`` into the engine action a seated player may take now, by
the reader its declaration carries. Every action it returns is one of the engine's own legal choices
(``engine.core.query``), with at most a price or a count filled in, so a refused move is explained with the legal
alternatives and the engine is only asked to apply moves that should succeed. :func:`to_command` is the inverse,
by the declarations' writers. :func:`listed_moves` is the one enumeration of what a seat may send: ``moves``,
autocomplete and buttons are all cut from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.commands import Command, CommandError, illegal, malformed, verb_named
from bot.core.grammar import MOVE_BY_VERB, MOVES, TYPE_WORDS, WRITERS, phrase
from bot.core.move_spec import Action as Action
from bot.core.move_spec import Candidates
from bot.core.move_spec import Intent as Intent
from bot.core.reading import buyable_outright as buyable_outright
from bot.core.reading import choice_question as choice_question
from bot.core.reading import company_prefix, match_private, verb_words, waiting_for
from bot.core.reading import deciding_player as deciding_player
from bot.core.reading import entities_of as entities_of
from bot.core.reading import match_hex as match_hex
from bot.core.reading import to_int as to_int
from bot.core.reading import with_label as with_label
from bot.core.replies import Outcome
from engine.core import query
from engine.core.entities import Player
from engine.core.game import Game

#: Action types each move verb may produce, in the order they are tried.
VERB_TYPES: dict[str, tuple[str, ...]] = {m.verb: m.types for m in MOVES}
MOVE_VERBS = frozenset(VERB_TYPES)
#: The most words a move verb takes after it (verbs not named take any number).
MAX_WORDS: dict[str, int] = {m.verb: m.max_words for m in MOVES if m.max_words is not None}
__all__ = ["TYPE_WORDS", "waiting_for"]


def translate(game: Game, player: Player | None, command: Command, *, company: str | None = None) -> Intent:
    """The engine action for a move by ``player``; raises CommandError explaining any refusal.

    ``company`` names a private whose power is used (``nwr token C3``: company "NWR", verb "token").
    """
    verb = command.verb
    if verb not in MOVE_VERBS:
        raise malformed(f"`{verb}` is not a move")
    verb, args = phrase(game.TITLE, verb, command.args)
    if game.finished:
        raise CommandError(Outcome.GAME_OVER, "the game is over")
    if player is None:
        raise CommandError(Outcome.NOT_SEATED, "you are not playing in this game")
    mine = entities_of(game, player)
    if company is not None:
        comp = match_private(game, company)
        if deciding_player(game, comp) is not player:
            raise CommandError(Outcome.DENIED, f"{comp.sym} is not yours to use")
        if comp not in mine:
            raise illegal(f"{comp.sym} has nothing to do now")
        mine = [comp]
    if not mine:
        raise CommandError(Outcome.NOT_YOUR_TURN, f"it's not your turn: waiting for {waiting_for(game)}")
    wanted = VERB_TYPES[verb]
    allowed_by = {id(ent): game.actions_for(ent) for ent in mine}
    candidates = [(ent, t) for ent in mine for t in wanted if t in allowed_by[id(ent)]]
    if not candidates:
        allowed = [t for ent in mine for t in allowed_by[id(ent)]]
        who = game.describe(mine[0])
        instead = list(dict.fromkeys(m.command for m in listed_moves(game, player)))
        shown = ", ".join(f"`{c}`" for c in instead[:6]) + (" …" if len(instead) > 6 else "")
        why_not = MOVE_BY_VERB[verb].why_not
        reason = why_not(game, player) if why_not is not None else ""
        raise illegal(f"{who} cannot {verb} now{reason}; you can: {shown or verb_words(allowed)}")
    read = MOVE_BY_VERB[verb].read
    assert read is not None  # grammar refuses a move without a reader
    try:
        most = MAX_WORDS.get(verb)
        if most is not None and len(args) > most:
            extra = " ".join(args[most:])
            raise malformed(f"`{verb}` takes {'no' if most == 0 else f'at most {most}'} more word"
                            f"{'' if most == 1 else 's'}, not `{extra}`")
        intent = read(game, player, candidates, args)
    except CommandError as exc:
        raise _with_examples(game, player, candidates, company, exc) from None
    return intent


def _with_examples(game: Game, player: Player, candidates: Candidates, company: str | None,
                   exc: CommandError) -> CommandError:
    """A refusal of a move the seat may make in some other way names a few of the ways, unless it does already."""
    if exc.outcome not in (Outcome.MALFORMED, Outcome.ILLEGAL):
        return exc
    examples: list[str] = []
    for ent, kind in candidates:
        for choice in query.choices(game, ent, kind)[:40]:
            try:
                text = _price_left_open(game, choice, to_command(game, choice))
            except (KeyError, ValueError):
                continue
            if text not in examples:
                examples.append(text)
    if not examples:  # the verb's step lists nothing after all: what the seat can do instead
        examples = list(dict.fromkeys(m.command for m in listed_moves(game, player)))
    said = exc.message.lower().replace("`", " ").replace(",", " ").replace(":", " ").split()
    if not examples or any(w.lower() in said for e in examples for w in e.split()[1 if company else 0:][:2]):
        return exc
    shown = ", ".join(f"`{e}`" for e in examples[:4]) + (" …" if len(examples) > 4 else "")
    return CommandError(exc.outcome, f"{exc.message}; you can: {shown}")


def to_command(game: Game, action: Action) -> str:
    """The command text for an engine action (the inverse of :func:`translate` for legal choices), written by
    the first declaration that writes its type."""
    kind = action["type"]
    prefix = company_prefix(action)
    for move in WRITERS.get(kind, ()):
        text = move.write(game, action) if move.write is not None else None
        if text:
            return prefix + text
    raise ValueError(f"no command for action type {kind!r}")


@dataclass(frozen=True, slots=True)
class Listed:
    """One legal move as ``moves`` lists it: the command (``PRICE`` where the player names the price) and the
    engine action it stands for."""

    entity: Any
    command: str
    action: Action
    #: The commands that produce it, for autocomplete and buttons: as written, then the other spellings its
    #: declaration reads (raised bids, a private's prices).
    spellings: tuple[str, ...] = ()


def listed_moves(game: Game, player: Player, *, runs: bool = False, kinds: set[str] | None = None) -> list[Listed]:
    """Every legal action of the entities ``player`` decides for, each with the command that produces it and
    its other spellings (``kinds``: only actions of these types).

    A run is listed as ``run auto`` without asking the autorouter for it (slow) unless ``runs`` is set.
    """
    out: list[Listed] = []
    for ent in entities_of(game, player):
        for kind in game.actions_for(ent):
            if kinds is not None and kind not in kinds:
                continue
            if kind == "run_routes" and not runs:
                action = query.entity_action(game, ent, kind)
                text = to_command(game, action)
                out.append(Listed(ent, text, action, (text,)))
                continue
            for choice in query.choices(game, ent, kind, limit=100_000):
                try:
                    text = to_command(game, choice)
                except (KeyError, ValueError):
                    continue
                spellings = (text, *_variants(game, ent, choice))
                out.append(Listed(ent, _price_left_open(game, choice, text), choice, spellings))
    return out


def _variants(game: Game, ent: Any, action: Action) -> list[str]:
    prefix = company_prefix(action)
    return [prefix + text for move in WRITERS.get(action["type"], ()) if move.variants is not None
            for text in move.variants(game, ent, action)]


def _price_left_open(game: Game, action: Action, text: str) -> str:
    """A private bought from a player, or a train from another company, has a price the players agree on."""
    kind = action["type"]
    if kind == "buy_company" or (
        kind == "buy_train" and " from " in text and not text.endswith(" upgrade")
    ):
        words = text.split()
        price = str(action.get("price"))
        return " ".join("PRICE" if w == price and i == len(words) - 1 else w for i, w in enumerate(words))
    return text


def move_verb(word: str) -> str | None:
    """The canonical move verb for a word (``remove`` only exists after a private's symbol)."""
    low = word.lower()
    if low == "remove":
        return "remove"
    verb = verb_named(low)
    return verb.name if verb is not None and verb.name in MOVE_VERBS else None


def split_move(command: Command) -> tuple[Command, str | None] | None:
    """A move and the private whose power it uses: ``nwr token C3`` is ``token C3`` by NWR.

    None if the command is not a move at all.
    """
    if command.verb in MOVE_VERBS:
        return command, None
    if command.args and move_verb(command.args[0]) is not None:
        sub = Command(move_verb(command.args[0]) or "", command.args[1:], command.text)
        return sub, command.verb
    return None


