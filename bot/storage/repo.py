"""The bot's persistent state in one SQLite file, behind an async :class:`Storage` object.

The append-only action log is the source of truth for every game; everything else (seats, snapshots, outbox,
prefs, consents) is bookkeeping around it. ``append_action`` is the optimistic-concurrency guard: the caller
names the seq it computed its new state from, and the write is refused if the log moved in the meantime.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.storage.backends import (
    INTEGRITY_ERRORS,
    Backend,
    Db,
    Row,
    SqliteBackend,
    connect_postgres,
    enable_wal,
    is_foreign_key_error,
    is_postgres_url,
)
from bot.storage.errors import (
    ChannelBusyError,
    GameFullError,
    NotFoundError,
    SchemaError,
    SeatTakenError,
    StaleStateError,
    StatusConflictError,
)
from bot.storage.migrations import MIGRATIONS, Migration, apply_migrations, apply_postgres_migrations
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

Clock = Callable[[], float]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
#: SQLite's synchronous settings that keep a WAL database consistent; FULL also keeps every commit.
SYNCHRONOUS_MODES = ("FULL", "NORMAL", "EXTRA")
#: What ``Storage.open`` uses unless told otherwise (see the durability note there).
DEFAULT_SYNCHRONOUS = "FULL"
#: PostgreSQL connections one bot process keeps open (commands for different games run side by side).
DEFAULT_POOL_SIZE = 8
_GAME_COLUMNS = (
    "id, platform, channel, title, seed, options, engine_version, status, created_by, created_at, updated_at,"
    " broken, broken_noticed_at"
)
_OUTBOX_COLUMNS = (
    "id, game_id, platform, user_id, kind, payload, due_at, sent_at, dedupe_key, attempts, created_at"
)
_CONSENT_COLUMNS = (
    "id, game_id, kind, requested_by, payload, approvers, status, expires_at, created_at, resolved_at"
)


def _dumps(value: object) -> str:
    # Strict JSON (no NaN/Infinity) so every stored document passes SQLite's json_valid().
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _checked_game(seed: int, options: Mapping[str, Any]) -> str:
    """The options of a new game as JSON, once its seed is known to fit the database (else ValueError)."""
    if not _INT64_MIN <= seed <= _INT64_MAX:
        raise ValueError(f"seed {seed} does not fit in a signed 64-bit integer")
    return _dumps_object(options, "options")


def _dumps_object(value: Mapping[str, Any], what: str) -> str:
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a JSON object (a mapping), got {type(value).__name__}")
    return _dumps(dict(value))


def _game(row: Row) -> GameRecord:
    return GameRecord(
        id=row["id"],
        platform=row["platform"],
        channel=row["channel"],
        title=row["title"],
        seed=row["seed"],
        options=json.loads(row["options"]),
        engine_version=row["engine_version"],
        status=GameStatus(row["status"]),
        created_by=row["created_by"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        broken=_broken(row["broken"], row["broken_noticed_at"]),
    )


def _broken(data: str | None, noticed_at: float | None) -> BrokenMark | None:
    if data is None:
        return None
    mark = json.loads(data)
    failure = ReplayFailure(
        seq=int(mark["seq"]),
        action_id=mark.get("action_id"),
        action_type=str(mark["type"]),
        message=str(mark["message"]),
        engine_version=str(mark["engine_version"]),
    )
    return BrokenMark(failure, float(mark["found_at"]), noticed_at)


def _seat(row: Row) -> SeatRecord:
    return SeatRecord(
        game_id=row["game_id"],
        seat=row["seat"],
        platform=row["platform"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        player_id=row["player_id"],
    )


def _outbox(row: Row) -> OutboxItem:
    return OutboxItem(
        id=row["id"],
        game_id=row["game_id"],
        platform=row["platform"],
        user_id=row["user_id"],
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        due_at=row["due_at"],
        sent_at=row["sent_at"],
        dedupe_key=row["dedupe_key"],
        attempts=row["attempts"],
        created_at=row["created_at"],
    )


def _consent(row: Row) -> ConsentRecord:
    return ConsentRecord(
        id=row["id"],
        game_id=row["game_id"],
        kind=row["kind"],
        requested_by=row["requested_by"],
        payload=json.loads(row["payload"]),
        approvers=json.loads(row["approvers"]),
        status=ConsentStatus(row["status"]),
        expires_at=row["expires_at"],
        created_at=row["created_at"],
        resolved_at=row["resolved_at"],
    )


class Storage:
    """Async access to the bot's database (SQLite or PostgreSQL). Create with :meth:`open`, not the constructor.

    On SQLite one instance owns one connection; calls from concurrent tasks are serialised by an
    ``asyncio.Lock`` so a transaction never interleaves with another task's statements, and several processes
    may share the file (SQLite's own locking plus ``busy_timeout`` arbitrate). On PostgreSQL an instance holds
    a pool of connections, and any number of processes on any number of machines may share the database.
    On both, ``append_action`` and the check-then-act methods stay race-free across processes.

    All times are unix seconds. Methods that stamp a time use the injected ``clock``; methods that select by
    time take ``now`` explicitly (defaulting to the clock).
    """

    def __init__(self, backend: Backend, *, path: str, clock: Clock) -> None:
        self._backend = backend
        self._clock = clock
        self.path = path
        self.dialect = backend.dialect
        #: Appended to the SELECTs of rows a write transaction checks before it changes them.
        self._for_update = backend.for_update

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = time.time,
        busy_timeout: float = 5.0,
        migrations: Collection[Migration] = MIGRATIONS,
        synchronous: str | None = None,
        pool_size: int = DEFAULT_POOL_SIZE,
    ) -> Self:
        """Open the database at ``path`` (a SQLite file, created if needed, or a ``postgresql://`` URL) and
        bring its schema up to date.

        ``synchronous`` applies to SQLite, ``pool_size`` (connections kept open) to PostgreSQL.

        Raises:
            SchemaError: if the database was migrated by newer code, or a SQLite file is not in WAL mode.
            sqlite3.Error, asyncpg.PostgresError: if the database cannot be used or a migration fails (that
                migration is rolled back).
        """
        if is_postgres_url(path):
            return await cls._open_postgres(str(path), clock, busy_timeout, tuple(migrations), pool_size)
        synchronous = synchronous or DEFAULT_SYNCHRONOUS
        if synchronous not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}, not {synchronous!r}")
        path_str = os.fspath(path)
        # isolation_level=None: autocommit; we issue BEGIN IMMEDIATE/COMMIT ourselves.
        db = await aiosqlite.connect(path_str, isolation_level=None, timeout=busy_timeout)
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA foreign_keys = ON")
            mode = await enable_wal(db, busy_timeout)
            if mode != "wal" and path_str != ":memory:" and path_str:
                raise SchemaError(f"could not switch {path_str!r} to WAL journal mode (got {mode!r})")
            # Durability: an acknowledged move must survive a power cut, not only a crash of this process.
            # With WAL and synchronous=NORMAL a COMMIT reaches the OS but is fsynced only at checkpoints, so
            # an OS crash or power cut can roll back the last moves the players were told were stored.
            # FULL fsyncs the WAL at every commit. benchmarks/storage.py measures both: FULL costs about
            # one fsync per append (a few ms on an SSD), far below what a chat message takes anyway.
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            fk_rows = list(await db.execute_fetchall("PRAGMA foreign_keys"))
            if not fk_rows or fk_rows[0][0] != 1:
                raise SchemaError("this SQLite build cannot enforce foreign keys")
            await apply_migrations(db, tuple(migrations), now=clock())
        except BaseException:
            await db.close()
            raise
        return cls(SqliteBackend(db), path=path_str, clock=clock)

    @classmethod
    async def _open_postgres(
        cls, url: str, clock: Clock, timeout: float, migrations: tuple[Migration, ...], pool_size: int
    ) -> Self:
        backend = await connect_postgres(url, pool_size=pool_size, timeout=timeout)
        try:
            async with backend.pool.acquire() as conn:
                await apply_postgres_migrations(conn, migrations, now=clock())
        except BaseException:
            await backend.close()
            raise
        return cls(backend, path=url, clock=clock)

    async def close(self) -> None:
        """Close the connection. Idempotent."""
        await self._backend.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ plumbing
    #
    # Every aiosqlite call is a round trip to its worker thread (~0.1-0.3 ms), and every PostgreSQL statement
    # one over the network, so hot paths use one statement per call, with RETURNING instead of a follow-up
    # SELECT. A single statement in autocommit mode (``session()``) is its own atomic transaction;
    # multi-statement work uses ``write()`` (see :mod:`bot.storage.backends`).

    async def integrity_check(self) -> list[str]:
        """SQLite's ``PRAGMA integrity_check`` (PostgreSQL: the tables can be read); ``["ok"]`` when healthy."""
        return await self._backend.integrity_check()

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        platform: str,
        channel: str,
        title: str,
        seed: int,
        options: Mapping[str, Any],
        engine_version: str,
        created_by: str,
        status: GameStatus = GameStatus.OPEN,
    ) -> int:
        """Create a game and return its id.

        Raises:
            ChannelBusyError: if the channel already has an open or active game (and ``status`` is live).
            ValueError: if ``seed`` does not fit in a signed 64-bit integer.
        """
        options_json = _checked_game(seed, options)
        now = self._clock()
        try:
            async with self._backend.session() as db:
                return await self._insert_game(
                    db,
                    (platform, channel, title, seed, options_json, engine_version, GameStatus(status), created_by),
                    now,
                )
        except INTEGRITY_ERRORS:
            await self._raise_if_channel_busy(platform, channel)
            raise

    async def _raise_if_channel_busy(self, platform: str, channel: str) -> None:
        """After a refused games insert: ChannelBusyError if a live game holds the channel (the unique index)."""
        async with self._backend.session() as db:
            existing = await self._live_game_id(db, platform, channel)
        if existing is not None:
            raise ChannelBusyError(platform, channel, existing) from None

    async def _insert_game(self, db: Db, fields: tuple[Any, ...], now: float) -> int:
        """Insert a game row (platform, channel, title, seed, options, engine version, status, creator)."""
        row = await db.one(
            "INSERT INTO games (platform, channel, title, seed, options, engine_version, status,"
            " created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (*fields, now, now),
        )
        assert row is not None
        return int(row[0])

    async def import_game(
        self,
        *,
        platform: str,
        channel: str,
        title: str,
        seed: int,
        options: Mapping[str, Any],
        engine_version: str,
        created_by: str,
        actions: Sequence[Mapping[str, Any]],
        actor: str,
        snapshot: bytes | None = None,
    ) -> int:
        """Create an open game with its whole action log (and a snapshot after it) in one transaction.

        Either all of it is stored or nothing is (a crash, a kill -9 or an unstorable action in the middle
        leaves no half game behind). Raises like :meth:`create_game`, and TypeError/ValueError for an action
        that is not a JSON object (NaN included).
        """
        options_json = _checked_game(seed, options)
        rows = [_dumps_object(action, f"action {n}") for n, action in enumerate(actions, start=1)]
        now = self._clock()
        try:
            async with self._backend.write() as db:
                busy = await self._live_game_id(db, platform, channel)
                if busy is not None:
                    raise ChannelBusyError(platform, channel, busy)
                game_id = await self._insert_game(
                    db,
                    (platform, channel, title, seed, options_json, engine_version, GameStatus.OPEN, created_by),
                    now,
                )
                await db.executemany(
                    "INSERT INTO actions (game_id, seq, data, actor, created_at) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, seq, data, actor, now) for seq, data in enumerate(rows, start=1)],
                )
                if snapshot is not None and rows:
                    await db.execute(
                        "INSERT INTO snapshots (game_id, seq, data, created_at) VALUES (?, ?, ?, ?)",
                        (game_id, len(rows), bytes(snapshot), now),
                    )
        except INTEGRITY_ERRORS:
            # PostgreSQL: a game created in the channel since our check (SQLite's write lock rules that out).
            await self._raise_if_channel_busy(platform, channel)
            raise
        return game_id

    async def _live_game_id(self, db: Db, platform: str, channel: str) -> int | None:
        row = await db.one(
            "SELECT id FROM games WHERE platform = ? AND channel = ? AND status IN ('open', 'active')",
            (platform, channel),
        )
        return None if row is None else int(row[0])

    async def get_game(self, game_id: int) -> GameRecord:
        """Raises: NotFoundError if there is no such game."""
        async with self._backend.session() as db:
            return await self._get_game(db, game_id)

    async def _get_game(self, db: Db, game_id: int, *, lock: bool = False) -> GameRecord:
        """The game's row; with ``lock`` (in a write transaction) no other writer changes it until the end."""
        lock_sql = self._for_update if lock else ""
        row = await db.one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?{lock_sql}", (game_id,))
        if row is None:
            raise NotFoundError("game", game_id)
        return _game(row)

    async def find_game(self, platform: str, channel: str) -> GameRecord | None:
        """The open or active game in a channel, or ``None`` if the channel is free."""
        async with self._backend.session() as db:
            row = await db.one(
                f"SELECT {_GAME_COLUMNS} FROM games"
                " WHERE platform = ? AND channel = ? AND status IN ('open', 'active')",
                (platform, channel),
            )
        return None if row is None else _game(row)

    async def list_games_for_user(
        self, platform: str, user_id: str, *, statuses: Collection[GameStatus] | None = None
    ) -> list[GameRecord]:
        """Games the user is seated at, most recently updated first; optionally only those in ``statuses``."""
        sql = (
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))}"
            " FROM games g JOIN seats s ON s.game_id = g.id WHERE s.platform = ? AND s.user_id = ?"
        )
        params: list[Any] = [platform, user_id]
        if statuses is not None:
            wanted = sorted(GameStatus(s) for s in statuses)
            sql += f" AND g.status IN ({', '.join('?' * len(wanted))})" if wanted else " AND 1 = 0"
            params.extend(wanted)
        sql += " ORDER BY g.updated_at DESC, g.id DESC"
        async with self._backend.session() as db:
            return [_game(row) for row in await db.all(sql, params)]

    async def update_game_status(
        self, game_id: int, status: GameStatus, *, expected: GameStatus | None = None
    ) -> GameRecord:
        """Set a game's status and return the updated record.

        With ``expected``, the change only happens if the game is currently in that status (compare-and-set),
        so e.g. two players pressing "start" cannot both start it.

        Raises:
            NotFoundError: no such game.
            StatusConflictError: the game is not in ``expected``.
            ChannelBusyError: reviving a game into a live status while another game occupies its channel.
        """
        status = GameStatus(status)
        expected = None if expected is None else GameStatus(expected)
        async with self._backend.session() as db:
            try:
                row = await db.one(
                    "UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status = coalesce(?, status)"
                    f" RETURNING {_GAME_COLUMNS}",
                    (status, self._clock(), game_id, expected),
                )
            except INTEGRITY_ERRORS:
                if status not in LIVE_STATUSES:
                    raise
                game = await self._get_game(db, game_id)
                existing = await self._live_game_id(db, game.platform, game.channel)
                raise ChannelBusyError(game.platform, game.channel, existing) from None
            if row is None:
                game = await self._get_game(db, game_id)  # raises NotFoundError
                raise StatusConflictError("game", game_id, str(expected), str(game.status))
        return _game(row)

    async def list_games(self, *, statuses: Collection[GameStatus] | None = None) -> list[GameRecord]:
        """Every game (only those in ``statuses`` if given), by id."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        params: list[Any] = []
        if statuses is not None:
            wanted = sorted(GameStatus(s) for s in statuses)
            sql += f" WHERE status IN ({', '.join('?' * len(wanted))})" if wanted else " WHERE 1 = 0"
            params.extend(wanted)
        async with self._backend.session() as db:
            return [_game(row) for row in await db.all(sql + " ORDER BY id", params)]

    # ------------------------------------------------------------------ games whose log no longer replays

    async def mark_broken(self, game_id: int, failure: ReplayFailure) -> GameRecord:
        """Record that a game's stored log no longer replays; ``failure`` names the action the engine refuses.

        Marking a game again with the same refused action (seq, type and message) keeps the first mark, so its
        channel is told once (:meth:`claim_broken_notice`); a different failure replaces the mark and needs a
        new notice. The action log is not touched. Returns the updated record. Raises: NotFoundError.
        """
        mark = {
            "seq": failure.seq,
            "action_id": failure.action_id,
            "type": failure.action_type,
            "message": failure.message,
            "engine_version": failure.engine_version,
            "found_at": self._clock(),
        }
        async with self._backend.write() as db:
            game = await self._get_game(db, game_id, lock=True)
            old = None if game.broken is None else game.broken.failure
            if old is not None and (old.seq, old.action_type, old.message) == (
                failure.seq,
                failure.action_type,
                failure.message,
            ):
                return game
            row = await db.one(
                f"UPDATE games SET broken = ?, broken_noticed_at = NULL WHERE id = ? RETURNING {_GAME_COLUMNS}",
                (_dumps(mark), game_id),
            )
        assert row is not None
        return _game(row)

    async def clear_broken(self, game_id: int) -> GameRecord:
        """Drop the mark of a game that replays again (e.g. after an engine fix). Raises: NotFoundError."""
        async with self._backend.session() as db:
            row = await db.one(
                "UPDATE games SET broken = NULL, broken_noticed_at = NULL WHERE id = ?"
                f" RETURNING {_GAME_COLUMNS}",
                (game_id,),
            )
            if row is None:
                raise NotFoundError("game", game_id)
        return _game(row)

    async def claim_broken_notice(self, game_id: int, *, now: float | None = None) -> bool:
        """True for exactly one caller per mark: the one that posts the notice in the game's channel."""
        now = self._clock() if now is None else now
        async with self._backend.session() as db:
            claimed = await db.all(
                "UPDATE games SET broken_noticed_at = ?"
                " WHERE id = ? AND broken IS NOT NULL AND broken_noticed_at IS NULL RETURNING id",
                (now, game_id),
            )
        return bool(claimed)

    # ------------------------------------------------------------------ seats

    async def add_seat(
        self,
        game_id: int,
        *,
        platform: str,
        user_id: str,
        display_name: str,
        seat: int | None = None,
        player_id: int | None = None,
        max_seats: int | None = None,
        open_only: bool = False,
    ) -> SeatRecord:
        """Seat a user at a game; with ``seat=None`` the lowest free seat number (from 0) is taken.

        ``max_seats`` is checked in the same transaction as the insert, so racing joins (from any number of
        processes) never seat more players than that; so is ``open_only`` (the game has not started).

        Raises:
            NotFoundError: no such game.
            SeatTakenError: the seat is occupied, the user is already seated, or ``player_id`` is in use.
            GameFullError: ``max_seats`` users are seated already.
            StatusConflictError: ``open_only`` and the game has started or ended.
        """
        async with self._backend.write() as db:
            game = await self._get_game(db, game_id, lock=True)
            if open_only and game.status != GameStatus.OPEN:
                raise StatusConflictError("game", game_id, str(GameStatus.OPEN), str(game.status))
            rows = await db.all("SELECT seat, user_id, player_id FROM seats WHERE game_id = ?", (game_id,))
            taken = {row["seat"]: row for row in rows}
            if any(row["user_id"] == user_id for row in rows):
                raise SeatTakenError(game_id, f"user {user_id!r} already has a seat")
            if max_seats is not None and len(rows) >= max_seats:
                raise GameFullError(game_id, max_seats)
            if player_id is not None and any(row["player_id"] == player_id for row in rows):
                raise SeatTakenError(game_id, f"player id {player_id} is already assigned")
            if seat is None:
                seat = next(n for n in range(len(rows) + 1) if n not in taken)
            elif seat in taken:
                raise SeatTakenError(game_id, f"seat {seat} is taken by {taken[seat]['user_id']!r}")
            await db.execute(
                "INSERT INTO seats (game_id, seat, platform, user_id, display_name, player_id)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, platform, user_id, display_name, player_id),
            )
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self._clock(), game_id))
        return SeatRecord(game_id, seat, platform, user_id, display_name, player_id)

    async def remove_seat(self, game_id: int, user_id: str) -> None:
        """Raises: NotFoundError if the user has no seat at the game."""
        async with self._backend.write() as db:
            deleted = await db.all(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ? RETURNING seat", (game_id, user_id)
            )
            if not deleted:
                raise NotFoundError("seat", (game_id, user_id))
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self._clock(), game_id))

    async def replace_seat(
        self, game_id: int, old_user: str, *, platform: str, user_id: str, display_name: str
    ) -> SeatRecord:
        """Give ``old_user``'s seat (and engine player) to another user, in one transaction.

        Raises: NotFoundError if ``old_user`` has no seat; SeatTakenError if the new user already has one;
        StatusConflictError if the game is finished or abandoned.
        """
        async with self._backend.write() as db:
            game = await self._get_game(db, game_id, lock=True)
            if game.status not in LIVE_STATUSES:
                raise StatusConflictError("game", game_id, "open or active", str(game.status))
            return await self._move_seat(db, game_id, SeatMove(old_user, platform, user_id, display_name))

    async def last_action_at(self, game_id: int, *, skip_actor: str | None = None) -> float | None:
        """When the last action of a game was stored (None for an empty log); ``skip_actor``'s are not counted
        (the bot's own notes do not make a game look played)."""
        sql = "SELECT max(created_at) FROM actions WHERE game_id = ?"
        params: list[Any] = [game_id]
        if skip_actor is not None:
            sql += " AND actor <> ?"
            params.append(skip_actor)
        async with self._backend.session() as db:
            row = await db.one(sql, params)
        return None if row is None or row[0] is None else float(row[0])

    async def list_seats(self, game_id: int) -> list[SeatRecord]:
        """Seats ordered by seat number (empty for an unknown game)."""
        async with self._backend.session() as db:
            return await self._list_seats(db, game_id)

    async def _list_seats(self, db: Db, game_id: int) -> list[SeatRecord]:
        rows = await db.all(
            "SELECT game_id, seat, platform, user_id, display_name, player_id FROM seats"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [_seat(row) for row in rows]

    async def assign_player_ids(self, game_id: int, player_ids: Mapping[int, int]) -> list[SeatRecord]:
        """Set the engine player id of each seat (``{seat: player_id}``) atomically; returns all seats.

        Seats not in the mapping keep their id. Raises: NotFoundError for an unknown seat;
        SeatTakenError if two seats would share a player id.
        """
        async with self._backend.write() as db:
            # Hold the game's row (PostgreSQL) so racing assignments and joins take turns.
            await db.all(f"SELECT 1 FROM games WHERE id = ?{self._for_update}", (game_id,))
            rows = await db.all("SELECT seat, player_id FROM seats WHERE game_id = ?", (game_id,))
            current = {row["seat"]: row["player_id"] for row in rows}
            for seat in player_ids:
                if seat not in current:
                    raise NotFoundError("seat", (game_id, seat))
            final = current | dict(player_ids)
            assigned = [p for p in final.values() if p is not None]
            if len(assigned) != len(set(assigned)):
                raise SeatTakenError(game_id, f"player ids would not be unique: {final}")
            # Clear first so swapping two ids does not trip UNIQUE(game_id, player_id) midway.
            await db.executemany(
                "UPDATE seats SET player_id = NULL WHERE game_id = ? AND seat = ?",
                [(game_id, seat) for seat in player_ids],
            )
            await db.executemany(
                "UPDATE seats SET player_id = ? WHERE game_id = ? AND seat = ?",
                [(pid, game_id, seat) for seat, pid in player_ids.items()],
            )
            return await self._list_seats(db, game_id)

    # ------------------------------------------------------------------ action log

    async def append_action(
        self, game_id: int, expected_seq: int, data: Mapping[str, Any], actor: str
    ) -> int:
        """Append one engine action as row ``expected_seq`` and return that seq.

        ``expected_seq`` must be exactly ``last_seq + 1``: the caller computed its new state from the log as
        of ``expected_seq - 1``. The write is a single INSERT, atomic by itself; the database refuses it if
        the seq exists (primary key) or would leave a gap (trigger ``actions_contiguous``), so of several
        racing appends for the same seq, from any number of tasks or processes, exactly one succeeds.

        Raises:
            StaleStateError: a row with that seq exists already, or ``expected_seq`` would leave a gap.
            StatusConflictError: the game is finished or abandoned (its log is closed).
            NotFoundError: no such game.
            TypeError, ValueError: ``data`` is not a JSON-serialisable object.
        """
        data_json = _dumps_object(data, "action data")
        async with self._backend.session() as db:
            try:
                # The status test is part of the same statement: no action can land in a game that was
                # finished or abandoned a moment ago (a request approved late, another process).
                # The casts tell PostgreSQL the parameters' types (SQLite takes them as they come); there, the
                # game's row stays locked until the insert commits, so a racing status change waits for it.
                inserted = await db.all(
                    "INSERT INTO actions (game_id, seq, data, actor, created_at)"
                    " SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT),"
                    " CAST(? AS DOUBLE PRECISION) WHERE EXISTS (SELECT 1 FROM games WHERE id = ?"
                    f" AND status IN ('open', 'active'){self._for_update}) RETURNING seq",
                    (game_id, expected_seq, data_json, actor, self._clock(), game_id),
                )
            except INTEGRITY_ERRORS:
                # Slow path: explain the refusal. The log only grows, so reading it now is conclusive.
                last = await self._last_seq(db, game_id)  # NotFoundError if the game does not exist
                if expected_seq != last + 1:
                    raise StaleStateError(game_id, expected_seq, last) from None
                raise
            if not inserted:
                game = await self._get_game(db, game_id)  # NotFoundError if the game does not exist
                raise StatusConflictError("game", game_id, "open or active", str(game.status))
        return expected_seq

    async def commit(self, game_id: int, expected_seq: int | None, change: TableChange) -> Committed:
        """Store ``change`` in one transaction: every part of it, or (on any error) nothing.

        The game's row is locked first, so a racing move, vote or seat change of any process waits for this
        transaction and then finds what it stored. Checks, in this order: the game is open or active; the
        request in ``change.consent`` is still pending; the log ends at ``expected_seq - 1`` (the position
        the caller computed its notes and move from; None: no position is checked, which needs no actions).

        Raises:
            NotFoundError: no such game, consent or seat.
            StatusConflictError: the game has ended (``entity == "game"``), or the request was settled already
                (``entity == "consent"``).
            StaleStateError: the log moved on since ``expected_seq - 1``.
            SeatTakenError: the seat's new holder already has a seat at this game.
        """
        if change.actions and expected_seq is None:
            raise ValueError("actions need the seq they were computed for")
        rows = [(_dumps_object(data, "action data"), actor) for data, actor in change.actions]
        now = self._clock()
        async with self._backend.write() as db:
            game = await self._get_game(db, game_id, lock=True)
            if game.status not in LIVE_STATUSES:
                raise StatusConflictError("game", game_id, "open or active", str(game.status))
            consent = None
            if change.consent is not None:
                consent = await self._settle(db, game_id, *change.consent, now=now)
            last = await self._last_seq(db, game_id)
            if expected_seq is not None and expected_seq != last + 1:
                raise StaleStateError(game_id, expected_seq, last)
            for data_json, actor in rows:
                last += 1
                await db.execute(
                    "INSERT INTO actions (game_id, seq, data, actor, created_at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, last, data_json, actor, now),
                )
            seat = await self._move_seat(db, game_id, change.seat) if change.seat is not None else None
            if change.status is not None:
                if game.status != GameStatus.ACTIVE:
                    raise StatusConflictError("game", game_id, str(GameStatus.ACTIVE), str(game.status))
                await db.execute(
                    "UPDATE games SET status = ?, updated_at = ? WHERE id = ?",
                    (GameStatus(change.status), now, game_id),
                )
        return Committed(last, seat, consent)

    async def _settle(
        self, db: Db, game_id: int, consent_id: int, status: ConsentStatus, *, now: float
    ) -> ConsentRecord:
        row = await db.one(
            "UPDATE consents SET status = ?, resolved_at = ? WHERE id = ? AND game_id = ? AND status = 'pending'"
            f" RETURNING {_CONSENT_COLUMNS}",
            (ConsentStatus(status), now, consent_id, game_id),
        )
        if row is None:
            current = await self._get_consent(db, consent_id)  # raises NotFoundError
            raise StatusConflictError("consent", consent_id, "pending", str(current.status))
        return _consent(row)

    async def _move_seat(self, db: Db, game_id: int, move: SeatMove) -> SeatRecord:
        """Hand a seat on; the old holder's place among the voters of pending requests goes with it."""
        seats = await self._list_seats(db, game_id)
        if any(s.user_id == move.user_id for s in seats):
            raise SeatTakenError(game_id, f"user {move.user_id!r} already has a seat")
        row = await db.one(
            "UPDATE seats SET platform = ?, user_id = ?, display_name = ? WHERE game_id = ? AND user_id = ?"
            " RETURNING game_id, seat, platform, user_id, display_name, player_id",
            (move.platform, move.user_id, move.display_name, game_id, move.old_user),
        )
        if row is None:
            raise NotFoundError("seat", (game_id, move.old_user))
        pending = await db.all(
            f"SELECT {_CONSENT_COLUMNS} FROM consents WHERE game_id = ? AND status = 'pending'{self._for_update}",
            (game_id,),
        )
        for consent in map(_consent, pending):
            if move.old_user in consent.approvers:
                # The new holder is asked afresh: a vote belongs to the seat's current holder.
                votes = {(move.user_id if u == move.old_user else u): (None if u == move.old_user else v)
                         for u, v in consent.approvers.items()}
                await db.execute("UPDATE consents SET approvers = ? WHERE id = ?", (_dumps(votes), consent.id))
        await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self._clock(), game_id))
        return _seat(row)

    async def _last_seq(self, db: Db, game_id: int) -> int:
        row = await db.one(
            "SELECT (SELECT 1 FROM games WHERE id = ?),"
            " (SELECT coalesce(max(seq), 0) FROM actions WHERE game_id = ?)",
            (game_id, game_id),
        )
        if row is None or row[0] is None:
            raise NotFoundError("game", game_id)
        return int(row[1])

    async def last_seq(self, game_id: int) -> int:
        """Seq of the last stored action (0 if none). Raises: NotFoundError if there is no such game."""
        async with self._backend.session() as db:
            return await self._last_seq(db, game_id)

    async def load_actions(self, game_id: int, after_seq: int = 0) -> list[tuple[int, JsonObject]]:
        """Actions with seq > ``after_seq`` as ``(seq, data)`` in log order.

        Raises: NotFoundError if there is no such game.
        """
        async with self._backend.session() as db:
            rows = await db.all(
                "SELECT seq, data FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after_seq),
            )
            if not rows:
                await self._last_seq(db, game_id)  # raises NotFoundError for an unknown game
        return [(seq, json.loads(data)) for seq, data in rows]

    async def load_action_records(self, game_id: int, after_seq: int = 0) -> list[ActionRecord]:
        """Like :meth:`load_actions` but with actor and timestamp. Raises: NotFoundError."""
        async with self._backend.session() as db:
            rows = await db.all(
                "SELECT seq, data, actor, created_at FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after_seq),
            )
            if not rows:
                await self._last_seq(db, game_id)
        return [ActionRecord(game_id, seq, json.loads(data), actor, at) for seq, data, actor, at in rows]

    # ------------------------------------------------------------------ snapshots

    async def save_snapshot(self, game_id: int, seq: int, data: bytes) -> None:
        """Store an opaque snapshot of the state after action ``seq``, replacing an older one.

        A snapshot older than the stored one is ignored, so a slow writer cannot regress it.

        Raises:
            NotFoundError: no such game.
            ValueError: ``seq`` is negative or beyond the end of the log.
        """
        payload = bytes(data)
        async with self._backend.write() as db:
            last = await self._last_seq(db, game_id)
            if not 0 <= seq <= last:
                raise ValueError(f"game {game_id}: snapshot seq {seq} outside the log 0..{last}")
            await db.execute(
                "INSERT INTO snapshots (game_id, seq, data, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, data = excluded.data,"
                " created_at = excluded.created_at WHERE excluded.seq >= snapshots.seq",
                (game_id, seq, payload, self._clock()),
            )

    async def load_snapshot(self, game_id: int) -> SnapshotRecord | None:
        """The latest snapshot of a game, or ``None`` if none was saved."""
        async with self._backend.session() as db:
            row = await db.one("SELECT seq, data, created_at FROM snapshots WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        return SnapshotRecord(game_id, row["seq"], bytes(row["data"]), row["created_at"])

    # ------------------------------------------------------------------ outbox

    async def outbox_enqueue(
        self,
        dedupe_key: str,
        *,
        platform: str,
        user_id: str,
        kind: str,
        payload: Mapping[str, Any],
        due_at: float,
        game_id: int | None = None,
    ) -> int | None:
        """Queue a message for delivery at ``due_at``; return its id, or ``None`` if ``dedupe_key`` was seen.

        A key stays taken after the message is sent (until purged), so re-enqueueing is always safe.
        Raises: ValueError if ``due_at`` is not finite; NotFoundError if ``game_id`` names no game.
        """
        if not math.isfinite(due_at):
            raise ValueError(f"due_at must be finite, got {due_at}")
        payload_json = _dumps_object(payload, "payload")
        async with self._backend.session() as db:
            try:
                row = await db.one(
                    "INSERT INTO outbox (game_id, platform, user_id, kind, payload, due_at, dedupe_key,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
                    (game_id, platform, user_id, kind, payload_json, due_at, dedupe_key, self._clock()),
                )
            except INTEGRITY_ERRORS as exc:
                if is_foreign_key_error(exc):
                    raise NotFoundError("game", game_id) from None
                raise
        return None if row is None else int(row[0])

    async def outbox_due(self, now: float | None = None, *, limit: int = 100) -> list[OutboxItem]:
        """Unsent items with ``due_at <= now``, earliest first (ties in enqueue order).

        Every process may see the same items: claim each with :meth:`outbox_mark_sent` and deliver it only if
        that returns True, or move it with :meth:`outbox_reschedule`
        after a failure.
        """
        now = self._clock() if now is None else now
        async with self._backend.session() as db:
            rows = await db.all(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE sent_at IS NULL AND due_at <= ?"
                " ORDER BY due_at, id LIMIT ?",
                (now, limit),
            )
        return [_outbox(row) for row in rows]

    async def outbox_get(self, item_id: int) -> OutboxItem:
        """Raises: NotFoundError."""
        async with self._backend.session() as db:
            row = await db.one(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id = ?", (item_id,))
        if row is None:
            raise NotFoundError("outbox item", item_id)
        return _outbox(row)

    async def outbox_mark_sent(self, item_id: int, *, now: float | None = None) -> bool:
        """Mark an item delivered; True for exactly one caller per item, the one that hands it out.

        This is the claim that makes delivery exactly-once across bot processes: several may find the same
        item due, and each marks it before delivering; the others get False (the first ``sent_at`` is kept)
        and drop it. Raises: NotFoundError.
        """
        now = self._clock() if now is None else now
        async with self._backend.session() as db:
            # One statement: under PostgreSQL's READ COMMITTED a racing UPDATE waits for the row, then finds
            # sent_at set and updates nothing; SQLite runs one writer at a time anyway.
            claimed = await db.all(
                "UPDATE outbox SET sent_at = ? WHERE id = ? AND sent_at IS NULL RETURNING id", (now, item_id)
            )
            if not claimed and await db.one("SELECT 1 FROM outbox WHERE id = ?", (item_id,)) is None:
                raise NotFoundError("outbox item", item_id)
        return bool(claimed)

    async def outbox_reschedule(self, item_id: int, due_at: float) -> int:
        """Move an unsent item to ``due_at`` after a failed attempt; returns the new attempt count.

        Raises: NotFoundError; StatusConflictError if the item was already sent.
        """
        if not math.isfinite(due_at):
            raise ValueError(f"due_at must be finite, got {due_at}")
        async with self._backend.session() as db:
            row = await db.one(
                "UPDATE outbox SET due_at = ?, attempts = attempts + 1 WHERE id = ? AND sent_at IS NULL"
                " RETURNING attempts",
                (due_at, item_id),
            )
            if row is None:
                if await db.one("SELECT 1 FROM outbox WHERE id = ?", (item_id,)) is None:
                    raise NotFoundError("outbox item", item_id)
                raise StatusConflictError("outbox item", item_id, "unsent", "sent")
        return int(row[0])

    async def outbox_pending(self, game_id: int, user_id: str | None = None) -> list[OutboxItem]:
        """Unsent items of one game (only ``user_id``'s if given), earliest first."""
        sql = f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE sent_at IS NULL AND game_id = ?"
        params: list[Any] = [game_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        async with self._backend.session() as db:
            rows = await db.all(sql + " ORDER BY due_at, id", params)
        return [_outbox(row) for row in rows]

    async def outbox_cancel(self, dedupe_key: str) -> bool:
        """Drop an unsent item (e.g. a reminder made moot); True if one was dropped. Frees the key."""
        async with self._backend.session() as db:
            deleted = await db.all(
                "DELETE FROM outbox WHERE dedupe_key = ? AND sent_at IS NULL RETURNING id", (dedupe_key,)
            )
        return bool(deleted)

    async def outbox_purge_sent(self, before: float) -> int:
        """Delete items sent before ``before``; returns how many. Their dedupe keys become reusable."""
        async with self._backend.session() as db:
            deleted = await db.all(
                "DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < ? RETURNING id", (before,)
            )
        return len(deleted)

    # ------------------------------------------------------------------ user prefs

    async def get_prefs(self, platform: str, user_id: str) -> JsonObject:
        """A user's preferences (``{}`` if never set)."""
        async with self._backend.session() as db:
            row = await db.one(
                "SELECT data FROM user_prefs WHERE platform = ? AND user_id = ?", (platform, user_id)
            )
        return {} if row is None else dict(json.loads(row[0]))

    async def set_prefs(self, platform: str, user_id: str, data: Mapping[str, Any]) -> None:
        """Replace a user's preferences."""
        data_json = _dumps_object(data, "prefs")
        async with self._backend.session() as db:
            await db.execute(
                "INSERT INTO user_prefs (platform, user_id, data, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (platform, user_id) DO UPDATE SET data = excluded.data,"
                " updated_at = excluded.updated_at",
                (platform, user_id, data_json, self._clock()),
            )

    # ------------------------------------------------------------------ the operator's view

    async def ping(self) -> None:
        """One trivial query: raises when the database cannot be reached."""
        async with self._backend.session() as db:
            await db.one("SELECT 1")

    async def operator_counts(self) -> dict[str, int]:
        """Games open and active, and unsent outbox items (the gauges of :mod:`bot.metrics`)."""
        async with self._backend.session() as db:
            row = await db.one(
                "SELECT (SELECT count(*) FROM games WHERE status = 'open'),"
                " (SELECT count(*) FROM games WHERE status = 'active'),"
                " (SELECT count(*) FROM outbox WHERE sent_at IS NULL)"
            )
        assert row is not None
        return {"open": int(row[0]), "active": int(row[1]), "outbox": int(row[2])}

    # ------------------------------------------------------------------ handled chat requests

    async def claim_request(self, key: str, *, now: float | None = None) -> bool:
        """True the first time ``key`` is claimed (by any process sharing this database), False after that.

        One INSERT: of two copies of a request racing in two processes, exactly one wins the claim.
        """
        now = self._clock() if now is None else now
        async with self._backend.session() as db:
            rows = await db.all(
                "INSERT INTO handled_requests (key, handled_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING"
                " RETURNING key",
                (key, now),
            )
        return bool(rows)

    async def forget_requests(self, before: float) -> int:
        """Forget the keys claimed before ``before``; returns how many."""
        async with self._backend.session() as db:
            rows = await db.all("DELETE FROM handled_requests WHERE handled_at < ? RETURNING key", (before,))
        return len(rows)

    async def count_requests(self) -> int:
        async with self._backend.session() as db:
            row = await db.one("SELECT count(*) FROM handled_requests")
        return int(row[0]) if row is not None else 0

    # ------------------------------------------------------------------ consents

    async def create_consent(
        self,
        *,
        game_id: int,
        kind: str,
        requested_by: str,
        approvers: Iterable[str],
        payload: Mapping[str, Any],
        expires_at: float,
    ) -> int:
        """Open a pending request (undo, kick, ...) that ``approvers`` must vote on; returns its id.

        Raises: NotFoundError if there is no such game.
        """
        votes: dict[str, bool | None] = dict.fromkeys(approvers)
        payload_json = _dumps_object(payload, "payload")
        async with self._backend.session() as db:
            try:
                row = await db.one(
                    "INSERT INTO consents (game_id, kind, requested_by, payload, approvers, status,"
                    " expires_at, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?) RETURNING id",
                    (game_id, kind, requested_by, payload_json, _dumps(votes), expires_at, self._clock()),
                )
            except INTEGRITY_ERRORS as exc:
                if is_foreign_key_error(exc):
                    raise NotFoundError("game", game_id) from None
                raise
        assert row is not None
        return int(row[0])

    async def get_consent(self, consent_id: int) -> ConsentRecord:
        """Raises: NotFoundError."""
        async with self._backend.session() as db:
            return await self._get_consent(db, consent_id)

    async def _get_consent(self, db: Db, consent_id: int, *, lock: bool = False) -> ConsentRecord:
        lock_sql = self._for_update if lock else ""
        row = await db.one(f"SELECT {_CONSENT_COLUMNS} FROM consents WHERE id = ?{lock_sql}", (consent_id,))
        if row is None:
            raise NotFoundError("consent", consent_id)
        return _consent(row)

    async def list_consents(
        self, game_id: int, *, status: ConsentStatus | None = ConsentStatus.PENDING
    ) -> list[ConsentRecord]:
        """A game's consents in creation order, by default only pending ones (``status=None``: all)."""
        sql = f"SELECT {_CONSENT_COLUMNS} FROM consents WHERE game_id = ?"
        params: list[Any] = [game_id]
        if status is not None:
            sql += " AND status = ?"
            params.append(ConsentStatus(status))
        async with self._backend.session() as db:
            return [_consent(row) for row in await db.all(sql + " ORDER BY id", params)]

    async def record_vote(
        self, consent_id: int, user_id: str, approve: bool, *, now: float | None = None
    ) -> ConsentRecord:
        """Record an approver's vote on a pending consent and return the updated record.

        Deciding the outcome (all approved? anyone rejected?) is the caller's policy: follow up with
        :meth:`resolve_consent`.

        Raises:
            NotFoundError: no such consent, or ``user_id`` is not one of its approvers.
            StatusConflictError: the consent is no longer pending, or has passed ``expires_at``.
        """
        now = self._clock() if now is None else now
        async with self._backend.write() as db:
            consent = await self._get_consent(db, consent_id, lock=True)
            if consent.status != ConsentStatus.PENDING:
                raise StatusConflictError("consent", consent_id, "pending", str(consent.status))
            if now >= consent.expires_at:
                raise StatusConflictError("consent", consent_id, "pending", "expired")
            if user_id not in consent.approvers:
                raise NotFoundError("approver", (consent_id, user_id))
            votes = consent.approvers | {user_id: bool(approve)}
            row = await db.one(
                f"UPDATE consents SET approvers = ? WHERE id = ? RETURNING {_CONSENT_COLUMNS}",
                (_dumps(votes), consent_id),
            )
        assert row is not None
        return _consent(row)

    async def resolve_consent(
        self, consent_id: int, status: ConsentStatus, *, now: float | None = None
    ) -> ConsentRecord:
        """Move a pending consent to a final status (approved, rejected, cancelled or expired).

        Only one resolution can win: raises StatusConflictError if it is no longer pending, and NotFoundError
        if there is no such consent.
        """
        status = ConsentStatus(status)
        if status == ConsentStatus.PENDING:
            raise ValueError("resolve_consent needs a final status, not 'pending'")
        now = self._clock() if now is None else now
        async with self._backend.session() as db:
            row = await db.one(
                "UPDATE consents SET status = ?, resolved_at = ? WHERE id = ? AND status = 'pending'"
                f" RETURNING {_CONSENT_COLUMNS}",
                (status, now, consent_id),
            )
            if row is None:
                consent = await self._get_consent(db, consent_id)  # raises NotFoundError
                raise StatusConflictError("consent", consent_id, "pending", str(consent.status))
        return _consent(row)

    async def expire_consents(self, now: float | None = None) -> list[ConsentRecord]:
        """Mark every pending consent with ``expires_at <= now`` as expired and return them (by id)."""
        now = self._clock() if now is None else now
        async with self._backend.session() as db:
            rows = await db.all(
                "UPDATE consents SET status = 'expired', resolved_at = ?"
                f" WHERE status = 'pending' AND expires_at <= ? RETURNING {_CONSENT_COLUMNS}",
                (now, now),
            )
        return sorted((_consent(row) for row in rows), key=lambda c: c.id)
