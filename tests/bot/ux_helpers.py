"""Driving a game to a wanted position through any front end: a seeded policy plays a mirror game and sends
its moves as the players would type them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.console.scripted import Policy, next_move
from engine import new_game
from engine.core import query
from tests.bot.conftest import Table, started

#: Sends one command line as a user (by name); fails the test if the command is refused.
Say = Callable[[str, str], Awaitable[None]]


class Driven:
    """A started game and the mirror its moves are chosen on."""

    def __init__(self, say: Say, users: tuple[str, ...], seed: int) -> None:
        self.say = say
        self.users = users
        self.mirror: Any = new_game("1882", [(i + 1, u) for i, u in enumerate(users)], seed=seed)
        self.names = {i + 1: u for i, u in enumerate(users)}
        self.policy = Policy(seed)

    async def until(self, wanted: Callable[[Any], bool], max_moves: int = 800) -> None:
        """Play moves until ``wanted(mirror)`` holds (the bot's game is then at the same position)."""
        for _ in range(max_moves):
            if wanted(self.mirror):
                return
            move = next_move(self.mirror, self.policy, self.names)
            assert move is not None, "nobody can move"
            await self.say(move.user, move.command)
            if move.approver is not None:
                await self.say(move.approver, "approve")
        raise AssertionError("the wanted position never came")

    def acting_user(self) -> str:
        pid = query.actors(self.mirror)[0].player_id
        assert pid is not None
        return self.names[pid]


def table_say(table: Table) -> Say:
    async def say(user: str, text: str) -> None:
        reply = await table.say(user, text)
        assert reply.ok, (text, reply.text)

    return say


async def driven(table: Table, users: tuple[str, ...] = ("alice", "bob"), seed: int = 7) -> Driven:
    await started(table, users, seed)
    return Driven(table_say(table), users, seed)


def in_lay_step(game: Any) -> bool:
    return game.round.name().startswith("Oper") and any("lay_tile" in game.actions_for(e) for e in game.acting())


def lay_choices(game: Any) -> list[dict[str, Any]]:
    return [c for e in game.acting() if "lay_tile" in game.actions_for(e) for c in query.choices(game, e, "lay_tile")]
