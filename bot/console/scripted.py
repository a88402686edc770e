"""Whole games as console scripts: a seeded policy plays the engine and writes the chat lines it would send.

Used by the end-to-end tests and the benchmarks, and handy for demos::

    python -m bot.console.scripted --seed 3 > game.txt
    python -m bot console --db demo.db --no-images < game.txt

Every move is chosen among the engine's legal choices, turned into command text with
:func:`bot.core.intents.to_command`, read back with :func:`bot.core.intents.translate` (exactly what the bot
will do with the line) and applied to a mirror game, so the script and the bot stay in step.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.core.commands import CommandError, parse
from bot.core.intents import Intent, deciding_player, split_move, to_command, translate
from bot.core.replies import Outcome
from engine import GameError, new_game
from engine.api import Game
from engine.core import query
from engine.core.actions import filter_undo
from engine.core.entities import Player

#: Move kinds the policy prefers, so that games move on (shares and trains are bought, companies run).
PROGRESS = ("buy_shares", "buy_train", "par", "lay_tile", "place_token", "run_routes", "dividend", "bid")


@dataclass(frozen=True, slots=True)
class Move:
    """One accepted move: who sent it, its command text and the engine action it stands for."""

    user: str
    command: str
    action: dict[str, Any]
    approver: str | None = None  # another player who must approve the deal first


class Policy:
    """Seeded choice among the legal moves, biased toward progress and paying out."""

    def __init__(self, seed: int, progress_bias: float = 0.85) -> None:
        self.rng = random.Random(seed)
        self.progress_bias = progress_bias

    def order(self, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
        options = list(options)
        self.rng.shuffle(options)
        progress = [a for a in options if a["type"] in PROGRESS]
        other = [a for a in options if a["type"] not in PROGRESS]
        ordered = progress + other if self.rng.random() < self.progress_bias else other + progress
        payout = [a for a in ordered if a["type"] == "dividend" and a.get("kind") == "payout"]
        return payout + [a for a in ordered if a not in payout]


def command_intent(game: Game, player: Player, text: str) -> Intent:
    """What the bot makes of ``text`` sent by ``player`` (raises CommandError if it refuses)."""
    split = split_move(parse(text))
    if split is None:
        raise CommandError(Outcome.MALFORMED, f"{text!r} is not a move")
    command, company = split
    return translate(game, player, command, company=company)


def next_move(game: Game, policy: Policy, names: dict[int, str]) -> Move | None:
    """The policy's next move on ``game`` (applied to it), or None if nobody can move."""
    for ent in query.deciding_entities(game):
        player = deciding_player(game, ent)
        if player is None:
            continue
        options = query.all_choices(game, ent)
        for choice in policy.order(options):
            try:
                text = to_command(game, choice)
                intent = command_intent(game, player, text)
            except (CommandError, KeyError, ValueError):
                continue
            try:
                game.process(intent.action)
            except GameError:
                continue
            approver = names[intent.counterparty.id] if intent.counterparty is not None else None
            return Move(names[player.id], text, game.raw_actions[-1], approver)
    return None


@dataclass(slots=True)
class Script:
    """Console lines for one game and the mirror game they lead to."""

    lines: list[str]
    game: Game
    users: list[str]
    moves: int = 0
    checks: list[tuple[int, str]] = field(default_factory=list)  # (line index, text the reply must contain)
    stored: list[int] = field(default_factory=list)  # per line: actions the bot has stored after it

    def add(self, user: str, command: str, stored: int) -> None:
        self.lines.append(line(user, command))
        self.stored.append(stored)

    def expect(self, text: str) -> None:
        self.checks.append((len(self.lines) - 1, text))

    def resume_after(self, stored: int) -> int:
        """Index of the first line to send again when the bot has stored ``stored`` actions."""
        if stored == 0:
            return 0
        for index, count in enumerate(self.stored):
            if count == stored:
                return index + 1
        raise ValueError(f"no line leaves {stored} actions stored")


def line(user: str, command: str, prefix: str = "/18xx") -> str:
    return f"{user}: {prefix} {command}"


def play(
    seed: int,
    users: tuple[str, ...] = ("alice", "bob"),
    *,
    policy_seed: int | None = None,
    max_moves: int = 3000,
    extras: bool = True,
    title: str = "1882",
) -> Script:
    """Play a whole game of ``title`` with the policy; with ``extras`` (1882's script) add refusals and undos along
    the way."""
    game = new_game(title, [(i + 1, u) for i, u in enumerate(users)], seed=seed)
    names = {i + 1: u for i, u in enumerate(users)}
    pids = {u: i + 1 for i, u in enumerate(users)}
    policy = Policy(seed if policy_seed is None else policy_seed)
    script = Script([], game, list(users))
    script.add(users[0], f"new {title} seed={seed}", 0)
    for user in users[1:]:
        script.add(user, "join", 0)
    script.add(users[0], "start", 0)
    script.expect("starts. Seat order")
    consents = 0
    done_refusals = done_stock_refusals = done_free_undo = done_consent_undo = False
    last: Move | None = None
    while not game.finished and script.moves < max_moves:
        round_before = game.round.name()
        move = next_move(game, policy, names)  # already applied to the mirror
        if move is None:
            raise RuntimeError(f"seed {seed}: nobody can move in {game.round.name()}")
        script.moves += 1
        count = len(game.raw_actions)
        if extras and not done_refusals and script.moves == 3:
            # Refused commands in the auction, each with its message; none of them may be stored.
            other = next(u for u in users if u != move.user)
            script.add(other, move.command, count - 1)
            script.expect("[not_your_turn] it's not your turn")
            script.add("carol", "pass", count - 1)
            script.expect("[not_seated] you are not playing in this game")
            script.add(move.user, "biy HB", count - 1)
            script.expect("Did you mean `buy`?")
            script.add(move.user, "bid TB", count - 1)
            script.expect("[malformed] not enough to go on")
            script.add(move.user, "lay E9 57 2", count - 1)
            script.expect("[illegal]")
            done_refusals = True
        in_stock = round_before.startswith("Stock")
        if extras and not done_stock_refusals and move.action["type"] == "par" and in_stock:
            script.add(move.user, "buy CRP", count - 1)
            script.expect("no company CRP, did you mean CPR?")
            script.add(move.user, f"par {move.action['corporation']} 55", count - 1)
            script.expect("[illegal] $55 is not a par price")
            done_stock_refusals = True
        if move.approver is not None:
            consents += 1
            script.add(move.user, move.command, count - 1)
            script.expect(f"`approve {consents}`")
            script.add(move.approver, "approve", count)
            script.expect(f"approves request {consents}")
        else:
            script.add(move.user, move.command, count)
        if (
            extras
            and not done_free_undo
            and game.round.name().startswith("Operating")
            and move.action["type"] == "lay_tile"
            and move.approver is None
        ):
            # Take a move back at once (free: nobody acted since), then make it again.
            game.process({"type": "undo", "entity": pids[move.user], "entity_type": "player"})
            script.add(move.user, "undo", len(game.raw_actions))
            script.expect("Taken back")
            game.process(_without_id(move.action))
            script.add(move.user, move.command, len(game.raw_actions))
            done_free_undo = True
        elif (
            extras
            and done_free_undo
            and not done_consent_undo
            and last is not None
            and last.user != move.user
            and last.approver is None
            and move.approver is None
            and game.round.name().startswith("Stock")
            and script.moves > 60
        ):
            # The previous player takes back their move after this one: this player must approve.
            standing = [a for a in filter_undo(game.raw_actions) if a.get("type") != "message"]
            index = next(i for i, a in enumerate(standing) if a["id"] == last.action["id"])
            before = int(standing[index - 1]["id"]) if index > 0 else 0
            undo = {"type": "undo", "entity": pids[last.user], "entity_type": "player", "action_id": before}
            game.process(undo)
            consents += 1
            script.add(last.user, "undo", len(game.raw_actions) - 1)
            script.expect(f"`approve {consents}`")
            script.add(move.user, "approve", len(game.raw_actions))
            script.expect(f"approves request {consents}")
            done_consent_undo = True
            last = None
            continue
        last = move
    return script


def _without_id(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "id"}


def finishing_script(
    seeds: Iterator[int] | range, users: tuple[str, ...] = ("alice", "bob"), **kwargs: Any
) -> Script:
    """The first seed whose game ends within ``max_moves``."""
    for seed in seeds:
        script = play(seed, users, **kwargs)
        if script.game.finished:
            return script
    raise RuntimeError("no seed led to a finished game")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.console.scripted", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="alice,bob", help="comma-separated user names")
    parser.add_argument("--title", default="1882", help="the title to play (refusals and undos are 1882's: use "
                                                        "--plain for another title)")
    parser.add_argument("--plain", action="store_true", help="no refusals or undos, only moves")
    parser.add_argument("--export", action="store_true", help="end with an export command")
    args = parser.parse_args(argv)
    users = tuple(u.strip() for u in args.players.split(",") if u.strip())
    script = play(args.seed, users, extras=not args.plain, title=args.title)
    lines = script.lines + ([line(users[0], "export")] if args.export else [])
    sys.stdout.write("\n".join(lines) + "\n")
    state = "finished" if script.game.finished else "unfinished"
    print(
        f"# seed {args.seed}: {script.moves} moves, {state}, result {script.game.result()}", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
