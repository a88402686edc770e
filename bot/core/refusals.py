"""A refused command and its message for the player, and the nearest name for a near miss.

Kept apart from the command language (:mod:`bot.core.commands`) so that the moves' declarations, which the
language is built from, can refuse without importing it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from bot.core.replies import Outcome


class CommandError(Exception):
    """A command that cannot be carried out; ``message`` is written for the player."""

    def __init__(self, outcome: Outcome, message: str) -> None:
        super().__init__(message)
        self.outcome = outcome
        self.message = message


def malformed(message: str) -> CommandError:
    return CommandError(Outcome.MALFORMED, message)


def illegal(message: str) -> CommandError:
    return CommandError(Outcome.ILLEGAL, message)


def suggest(word: str, options: Iterable[str], *, cutoff: float = 0.5) -> str | None:
    """The option nearest to ``word`` (compared case-insensitively), or None if nothing is close."""
    by_lower: dict[str, str] = {}
    for opt in options:
        by_lower.setdefault(str(opt).lower(), str(opt))
    hits = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=cutoff)
    return by_lower[hits[0]] if hits else None


def did_you_mean(word: str, options: Iterable[str]) -> str:
    hit = suggest(word, options)
    return f", did you mean {hit}?" if hit else ""
