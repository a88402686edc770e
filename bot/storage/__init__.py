"""Persistent state of the bot: games, seats, the append-only action log, outbox, prefs and consents.

Usage (a SQLite file, or a ``postgresql://`` URL for a database several bot processes share)::

    async with await Storage.open("data/roundhouse.db") as storage:
        game_id = await storage.create_game(platform="discord", channel="123", title="1882", ...)
        await storage.append_action(game_id, 1, {"type": "pass", "entity": "P1"}, actor="u1")
"""

from bot.storage.backends import is_postgres_url
from bot.storage.errors import (
    ChannelBusyError,
    ConflictError,
    GameFullError,
    NotFoundError,
    SchemaError,
    SeatTakenError,
    StaleStateError,
    StatusConflictError,
    StorageError,
)
from bot.storage.records import (
    LIVE_STATUSES,
    ActionRecord,
    BrokenMark,
    Committed,
    ConsentRecord,
    ConsentStatus,
    GameRecord,
    GameStatus,
    JsonObject,
    OutboxItem,
    ReplayFailure,
    SeatMove,
    SeatRecord,
    SnapshotRecord,
    TableChange,
)
from bot.storage.repo import Clock, Storage

__all__ = [
    "LIVE_STATUSES",
    "ActionRecord",
    "BrokenMark",
    "ChannelBusyError",
    "Clock",
    "Committed",
    "ConflictError",
    "ConsentRecord",
    "ConsentStatus",
    "GameFullError",
    "GameRecord",
    "GameStatus",
    "JsonObject",
    "NotFoundError",
    "OutboxItem",
    "ReplayFailure",
    "SchemaError",
    "SeatMove",
    "SeatRecord",
    "SeatTakenError",
    "SnapshotRecord",
    "StaleStateError",
    "StatusConflictError",
    "Storage",
    "StorageError",
    "TableChange",
    "is_postgres_url",
]
