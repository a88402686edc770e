"""The one error type the engine raises for any illegal or malformed move."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable codes: chat adapters and tests match on these, never on message text."""

    MALFORMED = "malformed"  # the action is not well formed (missing field, unknown id)
    NOT_YOUR_TURN = "not_your_turn"  # someone else must act now
    ILLEGAL = "illegal"  # well formed but against the rules
    INSUFFICIENT_FUNDS = "insufficient_funds"
    GAME_OVER = "game_over"
    NOTHING_TO_UNDO = "nothing_to_undo"
    INTERNAL = "internal"  # a bug in the engine met this move; it was refused and the state left as it was


class GameError(Exception):
    """Raised for every move the engine refuses; the game state is unchanged afterwards.

    ``message`` is written for players ("CPR cannot afford the 4-train: treasury $210, price $300").
    """

    code: ErrorCode

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


def malformed(message: str) -> GameError:
    return GameError(ErrorCode.MALFORMED, message)


def illegal(message: str) -> GameError:
    return GameError(ErrorCode.ILLEGAL, message)


def not_your_turn(message: str) -> GameError:
    return GameError(ErrorCode.NOT_YOUR_TURN, message)


def insufficient(message: str) -> GameError:
    return GameError(ErrorCode.INSUFFICIENT_FUNDS, message)


class DataError(ValueError):
    """A title's data says something the engine cannot use (an unknown game-end reason, say).

    Raised while a title loads, never for a move: it is a fault in the title, not in anyone's play, so it is
    not a :class:`GameError`. The message names the file, the table and the key.
    """
