"""Slack may deliver one request twice; a game action must still apply once.

Slack retries an event it got no timely answer for (marked by an ``x-slack-retry-num`` header) and a
network hiccup can replay anything. Every inbound request is reduced to a key that a redelivery shares
(the ``trigger_id`` of commands and clicks, the ``event_id`` of events, else a hash of the body) and the
key is claimed in a small SQLite table before any work is done. The claim is one ``INSERT OR IGNORE``, so
two copies racing each other, or arriving on both sides of a restart, still run once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS handled_requests (
    key TEXT PRIMARY KEY,
    handled_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS handled_requests_at ON handled_requests (handled_at);
"""
PRUNE_EVERY = 200  # claims between two sweeps of old keys


def request_key(body: Mapping[str, Any], raw_body: str) -> str:
    """The key that a redelivery of this request shares with the original.

    >>> request_key({"trigger_id": "1.2.abc"}, "")
    'trigger:1.2.abc'
    >>> request_key({"event_id": "Ev1"}, "")
    'event:Ev1'
    """
    payload = body.get("payload")
    if isinstance(payload, str):  # a form body that Bolt did not unpack
        try:
            body = json.loads(payload)
        except ValueError:
            body = {}
    trigger = body.get("trigger_id")
    if trigger:
        return f"trigger:{trigger}"
    event_id = body.get("event_id")
    if event_id:
        return f"event:{event_id}"
    # Socket Mode hands Bolt a parsed body and no raw text: hash a canonical dump of it instead.
    text = raw_body or json.dumps(body, sort_keys=True, default=str)
    return "body:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


class HandledRequests:
    """Keys of the requests already taken on, remembered for ``keep_seconds``."""

    def __init__(
        self, db: aiosqlite.Connection, *, keep_seconds: float, clock: Callable[[], float] = time.time
    ) -> None:
        self._db = db
        self.keep_seconds = keep_seconds
        self.clock = clock
        self._claims = 0

    @classmethod
    async def open(
        cls, path: str, *, keep_seconds: float = 86_400.0, clock: Callable[[], float] = time.time
    ) -> HandledRequests:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            if path != ":memory:":
                await db.execute("PRAGMA journal_mode = WAL")  # the bot's other process may share the file
            await db.executescript(_SCHEMA)
        except BaseException:
            await db.close()
            raise
        return cls(db, keep_seconds=keep_seconds, clock=clock)

    async def close(self) -> None:
        await self._db.close()

    async def claim(self, key: str) -> bool:
        """True the first time ``key`` is claimed (the caller handles the request), False for a repeat."""
        now = self.clock()
        self._claims += 1
        if self._claims % PRUNE_EVERY == 0:
            await self._db.execute("DELETE FROM handled_requests WHERE handled_at < ?", (now - self.keep_seconds,))
        try:
            cursor = await self._db.execute(
                "INSERT OR IGNORE INTO handled_requests (key, handled_at) VALUES (?, ?)", (key, now)
            )
        except sqlite3.Error:
            # The guard must not stop the bot: without it a rare redelivery may apply twice, which the
            # service's own checks (acting seat, current step) mostly refuse anyway.
            log.exception("the handled-request log failed; handling %s without the retry guard", key)
            return True
        return cursor.rowcount == 1

    async def count(self) -> int:
        rows = list(await self._db.execute_fetchall("SELECT COUNT(*) FROM handled_requests"))
        return int(rows[0][0])
