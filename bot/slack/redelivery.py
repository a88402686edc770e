"""Slack may deliver one request twice; a game action must still apply once.

Slack retries an event it got no timely answer for (marked by an ``x-slack-retry-num`` header) and a
network hiccup can replay anything. Every inbound request is reduced to a key that a redelivery shares
(the ``trigger_id`` of commands and clicks, the ``event_id`` of events, else a hash of the body) and the
key is claimed in the game database (table ``handled_requests``) before any work is done. The claim is one
``INSERT ... ON CONFLICT DO NOTHING``, so two copies racing each other, in one process or in two processes
sharing a PostgreSQL database, or arriving on both sides of a restart, still run once.
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

from bot.storage import Storage, StorageError, is_postgres_url

log = logging.getLogger(__name__)

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
    """Keys of the requests already taken on, remembered for ``keep_seconds`` in the game database.

    Every process serving the same Slack app on the same database (HTTP mode behind a load balancer, on one
    PostgreSQL) shares the one table, so a retry that reaches another process is still carried out once.
    """

    def __init__(
        self, storage: Storage, *, keep_seconds: float = 86_400.0, clock: Callable[[], float] = time.time,
        owned: bool = False,
    ) -> None:
        self.storage = storage
        self.keep_seconds = keep_seconds
        self.clock = clock
        self._owned = owned
        self._claims = 0

    @classmethod
    async def open(
        cls, path: str, *, keep_seconds: float = 86_400.0, clock: Callable[[], float] = time.time
    ) -> HandledRequests:
        """A record of its own in another database (``requests_db`` set in the config)."""
        if path != ":memory:" and not is_postgres_url(path):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        storage = await Storage.open(path, clock=clock)
        return cls(storage, keep_seconds=keep_seconds, clock=clock, owned=True)

    async def close(self) -> None:
        if self._owned:
            await self.storage.close()

    async def claim(self, key: str) -> bool:
        """True the first time ``key`` is claimed (the caller handles the request), False for a repeat."""
        now = self.clock()
        self._claims += 1
        try:
            if self._claims % PRUNE_EVERY == 0:
                await self.storage.forget_requests(now - self.keep_seconds)
            return await self.storage.claim_request(key, now=now)
        except (StorageError, OSError, sqlite3.Error):
            # The guard must not stop the bot: without it a rare redelivery may apply twice, which the
            # service's own checks (acting seat, current step) mostly refuse anyway.
            log.exception("the handled-request log failed; handling %s without the retry guard", key)
            return True

    async def count(self) -> int:
        return await self.storage.count_requests()
