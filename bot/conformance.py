"""Conformance: the bot offers exactly what the engine allows, in every position of seeded games.

``python -m bot.conformance TITLE N SEED_BASE [--players P] [--optional-rules A,B]`` plays N seeded random games
(seeds SEED_BASE .. SEED_BASE+N-1) through the engine's query API and checks, at every position:

1. while the game is not over, the acting seat's ``moves`` is not empty;
2. every command ``moves`` lists is accepted: it reads back (``intents.translate``) to an action the engine lists
   as legal now, and a sample of them is applied to a copy of the game;
3. every legal engine action of the acting seat has a listed command that produces it;
4. a sample of refused moves carries a reason: the refusal names something the seat can do instead;
5. autocomplete and buttons offer the same enumeration: every spelling autocomplete offers (raised bids, a
   private's prices) and every button reads back to a legal engine action, autocomplete walks to a sample of the
   listed commands word by word, and (on a sample of positions) offers exactly the listed spellings.

The last line is ``TITLE: K/N games conform (first failure: ...)``; the exit status is 0 only when all conform.
Enumerating the engine's choices is the costly part, so within one position each entity's choices are computed
once and shared by every check.
"""

from __future__ import annotations

import argparse
import contextlib
import pickle
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.core import choices, intents
from bot.core.commands import CommandError, parse, split_position
from bot.core.intents import Action, Listed, deciding_player, listed_moves
from bot.core.moves_text import move_lines
from bot.core.replies import Outcome
from engine.core import query
from engine.core.entities import Player
from engine.core.errors import GameError
from engine.core.game import Game
from engine.playout import _weight
from engine.titles import title_class

#: At this share of positions one listed command is applied to a pickled copy of the game (check 2).
COPY_SAMPLE = 0.05
#: Refusals tried per position (check 4).
REFUSALS_PER_POSITION = 1
#: Listed commands walked word by word through autocomplete per position, and the share of positions where
#: autocomplete's whole enumeration is compared with the listed one (check 5).
COMPLETIONS_PER_POSITION = 3
ENUMERATION_SAMPLE = 0.1


@dataclass
class GameReport:
    seed: int
    actions: int = 0
    positions: int = 0
    commands: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


class _Memo:
    """Within one position the engine's answers never change: each entity's action types and choices, and who
    decides, are computed once and shared by every check (cleared after every move; off while a copy plays)."""

    def __init__(self) -> None:
        self.cache: dict[tuple[object, ...], Any] = {}
        self.on = True

    def clear(self) -> None:
        self.cache.clear()

    def wrap(self, name: str, call: Callable[..., Any], key: Callable[..., tuple[object, ...]]) -> Callable[..., Any]:
        def memo(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return call(*args, **kwargs)
            k = (name, *key(*args, **kwargs))
            if k not in self.cache:
                self.cache[k] = call(*args, **kwargs)
            return self.cache[k]

        return memo


@contextlib.contextmanager
def _memo_engine() -> Iterator[_Memo]:
    memo = _Memo()
    choices, deciding, actions_for = query.choices, query.deciding_entities, Game.actions_for
    query.choices = memo.wrap(
        "choices", choices, lambda game, entity, kind, limit=500: (id(entity), kind, limit))
    query.deciding_entities = memo.wrap("deciding", deciding, lambda game: ())
    Game.actions_for = memo.wrap("actions_for", actions_for, lambda game, entity: (id(entity),))  # type: ignore[method-assign]
    try:
        yield memo
    finally:
        query.choices, query.deciding_entities = choices, deciding
        Game.actions_for = actions_for  # type: ignore[method-assign]


def same_move(game: Game, a: Action, b: Action) -> bool:
    """Whether two actions are the same move: equal, or differing only in which of identical pieces they use
    (two 10% shares from the same holder, two copies of a tile, two new trains of one kind)."""
    return canonical(game, a) == canonical(game, b)


def canonical(game: Game, action: Action) -> tuple[tuple[str, str], ...]:
    out: dict[str, str] = {}
    for key, value in action.items():
        if value is None or key in ("id", "created_at"):
            continue
        if key == "routes" and action.get("type") == "run_routes":
            # `run auto` is the autorouter's best run, which it finds within a time budget: on a loaded machine
            # two searches may stop at different runs. The command stands for whichever it finds.
            continue
        if key == "shares":
            shares = [game.share_by_id(str(s)) for s in value]
            value = sorted((s.corp, _holder(game, s.owner), s.percent, s.president) for s in shares)
        elif key == "tile":
            value = str(value).rsplit("-", 1)[0]
        elif key in ("train", "exchange") and str(value) in game.all_trains:
            train = game.all_trains[str(value)]
            holder = train.owner
            # New trains of one kind are alike; a company's own trains are told apart by id.
            # Trains of one name held by one holder are alike.
            value = (train.name, "depot" if holder is None else _holder(game, holder))
        out[key] = repr(value)
    return tuple(sorted(out.items()))


def _holder(game: Game, owner: Any) -> str:
    if owner is game.pool:
        return "pool"
    return str(getattr(owner, "sym", getattr(owner, "id", owner)))


def _with_price(listed: Listed) -> str:
    """A listed command whose price is left to the player (``buyprivate P3 PRICE``), with the action's price."""
    return listed.command.replace("PRICE", str(listed.action.get("price", 1)))


def _read(game: Game, player: Player, text: str) -> intents.Intent:
    split = intents.split_move(parse(text))
    if split is None:
        raise CommandError(Outcome.MALFORMED, f"{text!r} is not a move")
    command, company = split
    return intents.translate(game, player, command, company=company)


def check_position(game: Game, rng: random.Random, report: GameReport, memo: _Memo) -> None:
    """Checks 1-4 at the current position of ``game``; failures go into ``report``."""
    seats = [p for p in (deciding_player(game, e) for e in game.acting()) if isinstance(p, Player)]
    if not seats:
        report.failures.append(f"action {len(game.raw_actions)}: nobody decides for {game.acting()}")
        return
    for player in dict.fromkeys(seats):
        where = f"action {len(game.raw_actions)} ({game.round.name()}, {player.name})"
        if not move_lines(game, player):
            report.failures.append(f"{where}: `moves` is empty")
            continue
        listed = listed_moves(game, player, runs=True)
        tried = rng.choice(listed) if rng.random() < COPY_SAMPLE else None
        for item in listed:
            report.commands += 1
            text = _with_price(item)
            try:
                intent = _read(game, player, text)
            except CommandError as exc:
                report.failures.append(f"{where}: `{text}` is listed but refused: {exc.message}")
                continue
            if not same_move(game, intent.action, item.action):
                report.failures.append(f"{where}: `{text}` reads as {intent.action}, not {item.action}")
                continue
            if item is tried:
                memo.on = False
                copy: Game = pickle.loads(pickle.dumps(game))
                try:
                    copy.process(intent.action)
                except GameError as exc:
                    report.failures.append(f"{where}: `{text}` is refused by the engine: {exc.message}")
                finally:
                    memo.on = True
        _check_reachable(game, player, listed, where, report)
        _check_refusals(game, player, listed, rng, where, report)
        _check_offers(game, player, listed, rng, where, report)


def _check_reachable(game: Game, player: Player, listed: list[Listed], where: str, report: GameReport) -> None:
    """Check 3: each legal action of the seat's entities is one of the listed moves."""
    keys = {canonical(game, item.action) for item in listed}
    for ent in intents.entities_of(game, player):
        for kind in game.actions_for(ent):
            for action in query.choices(game, ent, kind, limit=100_000):
                if canonical(game, action) not in keys:
                    report.failures.append(f"{where}: no listed command for the legal {action}")
                    return


def _check_offers(game: Game, player: Player, listed: list[Listed], rng: random.Random, where: str,
                  report: GameReport) -> None:
    """Check 5: autocomplete and buttons offer the listed moves' spellings, each read back to a legal action."""
    spelled: dict[str, Listed] = {}
    for item in listed:
        for text in item.spellings:
            spelled.setdefault(text, item)
    for text, item in spelled.items():
        if text == _with_price(item):
            continue  # read back by check 2
        report.commands += 1
        problem = _offered_problem(game, player, text, item)
        if problem:
            report.failures.append(f"{where}: autocomplete offers `{text}`, {problem}")
            return
    for button in choices.move_buttons(game, [player], len(game.raw_actions)):
        text = split_position(button.command)[1]
        if text not in spelled:
            report.failures.append(f"{where}: button {button.label!r} sends `{text}`, which no listed move spells")
            return
        problem = _offered_problem(game, player, text, spelled[text])
        if problem:
            report.failures.append(f"{where}: button {button.label!r} sends `{text}`, {problem}")
            return
    entries = list(dict.fromkeys(tuple(text.split()) for text in spelled))
    if rng.random() < ENUMERATION_SAMPLE:
        offered = set(choices.command_words(game, player))
        if offered != set(entries):
            odd = sorted(" ".join(w) for w in offered ^ set(entries))[:3]
            report.failures.append(f"{where}: autocomplete's enumeration differs from the listed moves: {odd}")
            return
    for words in rng.sample(entries, min(COMPLETIONS_PER_POSITION, len(entries))):
        for i in range(1, len(words)):
            if words[i] not in choices.complete(entries, words[0], words[1:i], words[i]):
                report.failures.append(f"{where}: autocomplete does not offer `{words[i]}` after "
                                       f"`{' '.join(words[:i])}` (listed: `{' '.join(words)}`)")
                return


def _offered_problem(game: Game, player: Player, text: str, item: Listed) -> str:
    """Why an offered command is not the listed action it spells ("" when it is): refused, another action, or
    the same action at a price outside the range the engine allows."""
    try:
        action = _read(game, player, text).action
    except CommandError as exc:
        return f"refused: {exc.message}"
    if same_move(game, action, item.action):
        return ""
    unpriced = [tuple(kv for kv in canonical(game, a) if kv[0] != "price") for a in (action, item.action)]
    if unpriced[0] != unpriced[1]:
        return f"read as {action}, not {item.action}"
    span = query.price_range(game, item.entity, item.action)
    price = int(action.get("price", 0))
    if span is not None and not span[0] <= price <= span[1]:
        return f"a price of {price} outside {span[0]}-{span[1]}"
    return ""


def _check_refusals(game: Game, player: Player, listed: list[Listed], rng: random.Random, where: str,
                    report: GameReport) -> None:
    """Check 4: a move that is not legal now is refused with a reason naming what the seat can do."""
    verbs = sorted({item.command.split()[0] for item in listed})
    allowed = {intents.TYPE_WORDS.get(item.action["type"], item.action["type"]) for item in listed}
    for _ in range(REFUSALS_PER_POSITION):
        attempts = [v for v in intents.MOVE_VERBS if v not in verbs and v not in allowed]
        sample = rng.choice(listed).command.split()
        # A listed move's verb with words that name nothing, and a verb the seat cannot use now.
        lead = 2 if intents.split_move(parse(" ".join(sample)))[1] is not None else 1  # type: ignore[index]
        tries = [" ".join([*sample[:lead], "zz9", "zz9"])]
        if attempts:
            tries.append(f"{rng.choice(sorted(attempts))} zz9")
        for text in tries:
            try:
                _read(game, player, text)
            except CommandError as exc:
                if not _has_reason(exc.message, listed):
                    report.failures.append(f"{where}: `{text}` refused without a reason: {exc.message}")
                continue
            report.failures.append(f"{where}: `{text}` was accepted")


def _has_reason(message: str, listed: list[Listed]) -> bool:
    """A refusal gives a reason when it names a command, a word of a command or a value the seat may use."""
    low = message.lower()
    words = {w.lower() for item in listed for w in item.command.split()[:2]}
    said = low.replace("`", " ").replace(",", " ").replace(":", " ").replace("/", " ").split()
    return any(w in said for w in words)


def play_checked(title: str, players: int, seed: int, *, optional_rules: list[str] | None = None,
                 max_actions: int = 4000) -> GameReport:
    """One seeded random game (choices weighted as ``engine.playout``'s), checked at every position."""
    rng = random.Random(seed)
    settings = {"optional_rules": list(optional_rules)} if optional_rules else None
    game = title_class(title)([(i + 1, f"Player {i + 1}") for i in range(players)], seed, settings)
    report = GameReport(seed)
    with _memo_engine() as memo:
        while not game.finished and report.actions < max_actions:
            report.positions += 1
            check_position(game, rng, report, memo)
            if report.failures:
                break
            options = [c for ent in query.deciding_entities(game) for c in query.reference_choices(game, ent)]
            if not options:
                report.failures.append(f"action {len(game.raw_actions)}: the engine offers no action")
                break
            action = rng.choices(options, [_weight(o, "random") for o in options])[0]
            memo.on = False  # the engine asks itself while it moves on
            memo.clear()
            try:
                game.process(action)
            except GameError as exc:
                report.failures.append(f"action {len(game.raw_actions)}: engine refused its own {action}: "
                                       f"{exc.message}")
                break
            memo.on = True
            report.actions += 1
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.conformance", description=__doc__.split("\n\n")[0])
    parser.add_argument("title")
    parser.add_argument("games", type=int)
    parser.add_argument("seed_base", type=int)
    parser.add_argument("--players", type=int, default=0, help="seats (default: 3, or the title's minimum)")
    parser.add_argument("--optional-rules", default="", help="comma-separated optional rules")
    parser.add_argument("--max-actions", type=int, default=4000)
    parser.add_argument("--quiet", action="store_true", help="print only the summary line")
    args = parser.parse_args(argv)
    cls = title_class(args.title)
    rules = [r for r in args.optional_rules.split(",") if r]
    unknown = [r for r in rules if r not in cls.OPTIONAL_RULES]
    if unknown:
        print(f"error: {cls.TITLE} has no optional rule {', '.join(unknown)}; it has: "
              f"{', '.join(cls.OPTIONAL_RULES) or 'none'}", file=sys.stderr)
        return 2
    low = int(cls.data()["game"].get("min_players", 2))
    players = args.players or max(3, low)
    name = cls.TITLE + (f"+{','.join(rules)}" if rules else "")
    good = 0
    first = ""
    for seed in range(args.seed_base, args.seed_base + args.games):
        report = play_checked(cls.TITLE, players, seed, optional_rules=rules, max_actions=args.max_actions)
        good += report.ok
        if not report.ok and not first:
            first = f"seed {seed}: {report.failures[0]}"
        if not args.quiet:
            state = "conforms" if report.ok else f"FAILS: {report.failures[0]}"
            print(f"{name} seed {seed}: {report.actions} actions, {report.positions} positions, "
                  f"{report.commands} commands: {state}", flush=True)
    print(f"{name}: {good}/{args.games} games conform (first failure: {first or 'none'})")
    return 0 if good == args.games else 1


if __name__ == "__main__":
    raise SystemExit(main())
