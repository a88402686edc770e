"""Records returned by :class:`bot.storage.Storage`: plain frozen dataclasses, decoupled from sqlite rows.

All times are unix seconds as ``float``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeAlias

JsonObject: TypeAlias = dict[str, Any]


class GameStatus(StrEnum):
    OPEN = "open"  # waiting for players
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


#: Statuses that occupy a chat channel: at most one such game per (platform, channel).
LIVE_STATUSES: frozenset[GameStatus] = frozenset({GameStatus.OPEN, GameStatus.ACTIVE})


class ConsentStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class ReplayFailure:
    """The first stored action of a game that the engine refuses when the log is replayed."""

    seq: int  # its stored seq; 0 when the engine refuses to set the game up at all
    action_id: int | None  # the engine's action id, as stored
    action_type: str
    message: str  # the engine's message
    engine_version: str  # the engine that refused it


@dataclass(frozen=True, slots=True)
class BrokenMark:
    """Why a game cannot continue with the engine that found it broken, and whether its channel was told."""

    failure: ReplayFailure
    found_at: float
    noticed_at: float | None  # when the notice was posted in the game's channel (None: not yet)


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    platform: str
    channel: str  # opaque key of the chat channel or thread
    title: str
    seed: int
    options: JsonObject
    engine_version: str
    status: GameStatus
    created_by: str
    created_at: float
    updated_at: float
    broken: BrokenMark | None = None  # set while the stored log does not replay (the game cannot continue)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    game_id: int
    seat: int
    platform: str
    user_id: str
    display_name: str
    player_id: int | None  # the engine's player id; None until assigned


@dataclass(frozen=True, slots=True)
class ActionRecord:
    game_id: int
    seq: int
    data: JsonObject  # the engine action dict, exactly as appended
    actor: str  # chat user id of whoever sent the command
    created_at: float


@dataclass(frozen=True, slots=True)
class SnapshotRecord:
    game_id: int
    seq: int  # the snapshot reflects actions 1..seq
    data: bytes  # opaque to storage
    created_at: float


@dataclass(frozen=True, slots=True)
class OutboxItem:
    id: int
    game_id: int | None
    platform: str
    user_id: str
    kind: str
    payload: JsonObject
    due_at: float
    sent_at: float | None
    dedupe_key: str
    attempts: int  # how many times delivery was rescheduled after a failure
    created_at: float


@dataclass(frozen=True, slots=True)
class ConsentRecord:
    id: int
    game_id: int
    kind: str  # e.g. "undo", "kick"
    requested_by: str
    payload: JsonObject
    approvers: dict[str, bool | None]  # user id -> vote (None = not voted yet)
    status: ConsentStatus
    expires_at: float
    created_at: float
    resolved_at: float | None


@dataclass(frozen=True, slots=True)
class SeatMove:
    """A seat handed from one user to another (same seat number and engine player)."""

    old_user: str
    platform: str
    user_id: str
    display_name: str


@dataclass(frozen=True, slots=True)
class TableChange:
    """What :meth:`bot.storage.Storage.commit` stores for one game in one transaction, all or nothing.

    ``actions`` are ``(data, actor)`` pairs appended from the expected seq on (notes of the bot, a move);
    ``seat`` hands a seat on (and the seat's votes on pending requests pass to its new holder); ``consent``
    settles a pending request as ``(id, final status)``; ``status`` moves the game from active to that status.
    """

    actions: tuple[tuple[JsonObject, str], ...] = ()
    seat: SeatMove | None = None
    consent: tuple[int, ConsentStatus] | None = None
    status: GameStatus | None = None


@dataclass(frozen=True, slots=True)
class Committed:
    """What :meth:`bot.storage.Storage.commit` stored: the log's last seq, the moved seat, the settled request."""

    last_seq: int
    seat: SeatRecord | None = None
    consent: ConsentRecord | None = None
