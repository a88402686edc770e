"""What a replay's rounds remember: their steps' answers while the state stays as it is.

The round asks its steps after every action which one blocks (``Round.settle``), and asks the same steps again as
the next action comes, with nothing changed in between: the second answers are the first ones. While a game
replays (``replaying``), its rounds share a ``Memory`` that keeps those answers (``Round.recall``, the actions a
step offers an entity). It is open from each ``settle`` on, and every change of the state closes it first
(``Round.forget``): a step taking an action, a step skipped, a new turn, a new entity, a new round. A rule that
changes the state outside those (a title's ``action_processed``, a query that records something as it reads, like
``routes_seen``) calls ``game.round.forget()``. Outside a replay, where a caller may change the state between two
calls, the rounds have no memory. ``python -m engine.replay_check`` proves a replay with it equals one without.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol


class Remembering(Protocol):
    """A round: what it holds of a memory."""

    memory: Memory | None


class Replayed(Protocol):
    @property
    def round(self) -> Remembering: ...


class Memory:
    """The answers of one game's steps since its state last changed, and the rounds that share them."""

    __slots__ = ("answers", "game", "open", "rounds")

    def __init__(self, game: object) -> None:
        self.game = game
        self.answers: dict[Any, Any] = {}
        self.open = False
        self.rounds: list[Remembering] = []

    def attach(self, rnd: Remembering) -> None:
        rnd.memory = self
        self.rounds.append(rnd)


_REPLAYING: ContextVar[Memory | None] = ContextVar("replaying", default=None)


def memory_for(game: object) -> Memory | None:
    """The memory of ``game``'s replay in progress, if it is replaying."""
    memory = _REPLAYING.get()
    return memory if memory is not None and memory.game is game else None


@contextmanager
def replaying(game: Replayed) -> Iterator[None]:
    """Give ``game``'s rounds a memory while the caller applies actions one after another, changing the game in
    no other way."""
    memory = Memory(game)
    token = _REPLAYING.set(memory)
    memory.attach(game.round)
    try:
        yield
    finally:
        _REPLAYING.reset(token)
        memory.open = False
        memory.answers.clear()
        for rnd in memory.rounds:
            rnd.memory = None
