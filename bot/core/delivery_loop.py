"""Once a minute: the notifications that came due (reminders, turn pings held over quiet hours), delivered.

Reminders live in the service's storage outbox and the service hands each one out once (it marks it sent),
so a restart neither loses a pending reminder nor repeats one. Each chat adapter runs one loop for its own
platform's items and supplies only how one notification is sent. :meth:`ReminderLoop.tick` is one round,
which tests call after moving the injected clock; :meth:`ReminderLoop.run` repeats it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Protocol

from bot import metrics
from bot.core.replies import Notification

log = logging.getLogger(__name__)

REMINDER_INTERVAL = 60.0  # seconds between two looks at the outbox


def incident_id() -> str:
    """A short random id that ties a player's apology to the log line with the traceback (and counts it)."""
    metrics.error("adapter")
    return secrets.token_hex(4)


class DueSource(Protocol):
    async def due_notifications(
        self, now: float | None = None, *, platforms: Collection[str] | None = None
    ) -> list[Notification]: ...


class ReminderLoop:
    def __init__(
        self,
        source: DueSource,
        deliver: Callable[[Notification], Awaitable[Any]],
        clock: Callable[[], float],
        *,
        platform: str,
        interval: float = REMINDER_INTERVAL,
    ) -> None:
        self.source = source
        self.deliver = deliver
        self.clock = clock
        self.platform = platform
        self.interval = interval

    async def tick(self) -> list[Notification]:
        """Deliver what is due now; returns what was delivered (a failed one is logged and skipped)."""
        delivered: list[Notification] = []
        # Only this platform's items: a bot of another platform on the same database takes its own.
        for note in await self.source.due_notifications(now=self.clock(), platforms=(self.platform,)):
            try:
                await self.deliver(note)
            except Exception:
                log.exception("incident %s: delivering a %s ping to %s failed", incident_id(), note.kind, note.user_id)
                retry = getattr(self.source, "retry_later", None)
                if retry is not None:
                    try:
                        await retry(note)
                    except Exception:
                        log.exception("a failed ping to %s could not be queued again", note.user_id)
                continue
            delivered.append(note)
        return delivered

    async def run(self, ready: Callable[[], Awaitable[Any]] | None = None) -> None:
        if ready is not None:
            await ready()
        while True:
            try:
                await self.tick()
            except Exception:  # a broken round must not end the loop: what is due is retried next minute
                log.exception("incident %s: the reminder round failed", incident_id())
            await asyncio.sleep(self.interval)
