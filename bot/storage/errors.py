"""Exceptions raised by the storage layer.

Every failure is a specific subclass of :class:`StorageError`; storage methods never return ``None`` or
``False`` to signal that something went wrong. Messages carry the ids involved, so a log line is enough to
reproduce the problem.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of all storage errors."""


class SchemaError(StorageError):
    """The database schema cannot be used by this code (for example it was written by a newer version)."""


class NotFoundError(StorageError, LookupError):
    """A row the caller named by id does not exist.

    ``entity`` is a short noun (``"game"``, ``"seat"``, ``"consent"``, ``"outbox item"``) and ``key`` the id.
    """

    def __init__(self, entity: str, key: object) -> None:
        super().__init__(f"{entity} {key!r} not found")
        self.entity = entity
        self.key = key


class ConflictError(StorageError):
    """A write was refused because it conflicts with what is already stored."""


class StaleStateError(ConflictError):
    """An action was appended against a stale view of the game's log (optimistic concurrency failure).

    ``expected_seq`` is the seq the caller tried to write, ``last_seq`` the seq actually stored last. The
    caller must reload the game (``last_seq + 1`` is the next free seq) and re-validate the action before
    retrying.
    """

    def __init__(self, game_id: int, expected_seq: int, last_seq: int) -> None:
        super().__init__(
            f"game {game_id}: cannot append action seq {expected_seq}, the log ends at seq {last_seq} "
            f"(next is {last_seq + 1}); reload the game and retry"
        )
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.last_seq = last_seq


class ChannelBusyError(ConflictError):
    """The chat channel already hosts a game that is open or active."""

    def __init__(self, platform: str, channel: str, game_id: int | None) -> None:
        super().__init__(f"{platform} channel {channel!r} already has a game in progress (game {game_id})")
        self.platform = platform
        self.channel = channel
        self.game_id = game_id


class SeatTakenError(ConflictError):
    """The seat is occupied, the user already sits at the game, or the engine player id is assigned twice."""

    def __init__(self, game_id: int, detail: str) -> None:
        super().__init__(f"game {game_id}: {detail}")
        self.game_id = game_id


class GameFullError(ConflictError):
    """Every seat of the game is taken."""

    def __init__(self, game_id: int, max_seats: int) -> None:
        super().__init__(f"game {game_id} is full ({max_seats} seats)")
        self.game_id = game_id
        self.max_seats = max_seats


class StatusConflictError(ConflictError):
    """A status transition was refused because the row is not in the status the caller expected."""

    def __init__(self, entity: str, key: object, expected: str, actual: str) -> None:
        super().__init__(f"{entity} {key!r} is {actual!r}, expected {expected!r}")
        self.entity = entity
        self.key = key
        self.expected = expected
        self.actual = actual
