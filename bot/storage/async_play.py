"""The tables of asynchronous play (migration ``m0004_async_play``): pace spans, away periods, per-game extras,
programmed auto-actions and practice forks.

Kept apart from :mod:`bot.storage.repo` so the game log's own code stays as it is; it runs on the same backend
(SQLite or PostgreSQL) through the same ``?``-placeholder statements. Every write here is one statement or one
transaction, so several bot processes on one database agree: at most one open pace span per game and player
(a partial unique index), an auto-action ends once (``ended_at IS NULL`` in the UPDATE's condition).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.storage.repo import Storage

JsonObject = dict[str, Any]


def _dumps(value: Mapping[str, Any]) -> str:
    return json.dumps(dict(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True, slots=True)
class PaceSpan:
    """A stretch of time a game waited on one player (``ended_at`` None: it still does)."""

    id: int
    game_id: int
    user_id: str
    started_at: float
    ended_at: float | None
    waking: float | None  # waking seconds in it, written when it ends


@dataclass(frozen=True, slots=True)
class AutoRecord:
    id: int
    game_id: int
    user_id: str
    spec: JsonObject
    created_at: float
    ended_at: float | None
    ended_why: str | None


@dataclass(frozen=True, slots=True)
class ForkRecord:
    game_id: int  # the practice copy
    source_id: int
    at_seq: int
    owner: str
    expires_at: float
    closed_at: float | None


_SPAN = "id, game_id, user_id, started_at, ended_at, waking"
_AUTO = "id, game_id, user_id, spec, created_at, ended_at, ended_why"
_FORK = "game_id, source_id, at_seq, owner, expires_at, closed_at"


def _span(row: Any) -> PaceSpan:
    return PaceSpan(int(row[0]), int(row[1]), str(row[2]), float(row[3]),
                    None if row[4] is None else float(row[4]), None if row[5] is None else float(row[5]))


def _auto(row: Any) -> AutoRecord:
    return AutoRecord(int(row[0]), int(row[1]), str(row[2]), dict(json.loads(row[3])), float(row[4]),
                      None if row[5] is None else float(row[5]), row[6])


def _fork(row: Any) -> ForkRecord:
    return ForkRecord(int(row[0]), int(row[1]), int(row[2]), str(row[3]), float(row[4]),
                      None if row[5] is None else float(row[5]))


class AsyncPlayStore:
    """Reads and writes the asynchronous-play tables of one :class:`Storage`."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        # The same backend the game log uses (as bot.storage.transfer does): one connection pool, one lock.
        self._backend = storage._backend

    # ------------------------------------------------------------------ pace spans

    async def move_spans(
        self, game_id: int, closes: list[tuple[int, float, float]], opens: list[tuple[str, float]]
    ) -> list[str]:
        """End spans (id, at, waking seconds) and start others (user, at) in one transaction; returns the users
        whose span this call opened (one that another process opened first is left as it is)."""
        opened: list[str] = []
        async with self._backend.write() as db:
            for span_id, at, waking in closes:
                await db.execute(
                    "UPDATE pace_spans SET ended_at = ?, waking = ? WHERE id = ? AND ended_at IS NULL",
                    (max(at, 0.0), waking, span_id),
                )
            for user_id, at in opens:
                rows = await db.all(
                    "INSERT INTO pace_spans (game_id, user_id, started_at) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING RETURNING id",
                    (game_id, user_id, at),
                )
                if rows:
                    opened.append(user_id)
        return opened

    async def spans(self, game_id: int, *, open_only: bool = False) -> list[PaceSpan]:
        sql = f"SELECT {_SPAN} FROM pace_spans WHERE game_id = ?"
        if open_only:
            sql += " AND ended_at IS NULL"
        async with self._backend.session() as db:
            rows = await db.all(sql + " ORDER BY started_at, id", (game_id,))
        return [_span(r) for r in rows]

    async def closed_spans_of_platform(self, platform: str) -> list[PaceSpan]:
        """Every ended span of the games on one platform (for ``stats``)."""
        async with self._backend.session() as db:
            rows = await db.all(
                f"SELECT {', '.join('s.' + c for c in _SPAN.split(', '))} FROM pace_spans s"
                " JOIN games g ON g.id = s.game_id WHERE g.platform = ? AND s.ended_at IS NOT NULL"
                " ORDER BY s.id",
                (platform,),
            )
        return [_span(r) for r in rows]

    # ------------------------------------------------------------------ away periods

    async def set_away(self, platform: str, user_id: str, away: bool, at: float) -> None:
        """Record ``away on`` (a period starts unless one is open) or ``away off`` (the open one ends)."""
        async with self._backend.write() as db:
            row = await db.one(
                "SELECT started_at FROM away_spans WHERE platform = ? AND user_id = ? AND ended_at IS NULL",
                (platform, user_id),
            )
            if away and row is None:
                await db.execute(
                    "INSERT INTO away_spans (platform, user_id, started_at) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (platform, user_id, at),
                )
            elif not away and row is not None:
                await db.execute(
                    "UPDATE away_spans SET ended_at = ? WHERE platform = ? AND user_id = ? AND ended_at IS NULL",
                    (max(at, float(row[0])), platform, user_id),
                )

    async def away_spans(self, platform: str, user_id: str, now: float) -> list[tuple[float, float]]:
        """The user's away periods (an open one runs to ``now``)."""
        async with self._backend.session() as db:
            rows = await db.all(
                "SELECT started_at, ended_at FROM away_spans WHERE platform = ? AND user_id = ?"
                " ORDER BY started_at",
                (platform, user_id),
            )
        return [(float(r[0]), now if r[1] is None else float(r[1])) for r in rows]

    # ------------------------------------------------------------------ per-game extras

    async def extras(self, game_id: int) -> JsonObject:
        async with self._backend.session() as db:
            row = await db.one("SELECT data FROM game_extras WHERE game_id = ?", (game_id,))
        return {} if row is None else dict(json.loads(row[0]))

    async def set_extra(self, game_id: int, key: str, value: Any, at: float) -> None:
        async with self._backend.write() as db:
            row = await db.one(f"SELECT data FROM game_extras WHERE game_id = ?{self._backend.for_update}",
                               (game_id,))
            data = {} if row is None else dict(json.loads(row[0]))
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
            await db.execute(
                "INSERT INTO game_extras (game_id, data, updated_at) VALUES (?, ?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
                (game_id, _dumps(data), at),
            )

    # ------------------------------------------------------------------ auto-actions

    async def arm(self, game_id: int, user_id: str, spec: Mapping[str, Any], at: float) -> int:
        async with self._backend.session() as db:
            rows = await db.all(
                "INSERT INTO auto_actions (game_id, user_id, spec, created_at) VALUES (?, ?, ?, ?) RETURNING id",
                (game_id, user_id, _dumps(spec), at),
            )
        return int(rows[0][0])

    async def armed(self, game_id: int, user_id: str | None = None) -> list[AutoRecord]:
        sql = f"SELECT {_AUTO} FROM auto_actions WHERE game_id = ? AND ended_at IS NULL"
        params: list[Any] = [game_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        async with self._backend.session() as db:
            rows = await db.all(sql + " ORDER BY id", params)
        return [_auto(r) for r in rows]

    async def disarm(self, auto_id: int, why: str, at: float) -> bool:
        """End one auto-action; False if it had ended already (another process, or a second reason)."""
        async with self._backend.session() as db:
            rows = await db.all(
                "UPDATE auto_actions SET ended_at = ?, ended_why = ? WHERE id = ? AND ended_at IS NULL RETURNING id",
                (at, why, auto_id),
            )
        return bool(rows)

    # ------------------------------------------------------------------ forks

    async def add_fork(self, fork: ForkRecord) -> None:
        async with self._backend.session() as db:
            await db.execute(
                f"INSERT INTO forks ({_FORK}) VALUES (?, ?, ?, ?, ?, ?)",
                (fork.game_id, fork.source_id, fork.at_seq, fork.owner, fork.expires_at, fork.closed_at),
            )

    async def fork(self, game_id: int) -> ForkRecord | None:
        async with self._backend.session() as db:
            row = await db.one(f"SELECT {_FORK} FROM forks WHERE game_id = ?", (game_id,))
        return None if row is None else _fork(row)

    async def forks_of(self, owner: str) -> list[ForkRecord]:
        async with self._backend.session() as db:
            rows = await db.all(
                f"SELECT {_FORK} FROM forks WHERE owner = ? AND closed_at IS NULL ORDER BY game_id", (owner,)
            )
        return [_fork(r) for r in rows]

    async def expired_forks(self, now: float) -> list[ForkRecord]:
        async with self._backend.session() as db:
            rows = await db.all(
                f"SELECT {_FORK} FROM forks WHERE closed_at IS NULL AND expires_at <= ? ORDER BY game_id", (now,)
            )
        return [_fork(r) for r in rows]

    async def close_fork(self, game_id: int, at: float) -> bool:
        async with self._backend.session() as db:
            rows = await db.all(
                "UPDATE forks SET closed_at = ? WHERE game_id = ? AND closed_at IS NULL RETURNING game_id",
                (at, game_id),
            )
        return bool(rows)
