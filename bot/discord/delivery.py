"""Personal pings: delivering the service's notifications, now (after a command) or when due (reminders).

The service decides who is pinged and where (channel mention, direct message, both) after applying each
user's preferences; this module only sends. A channel ping mentions exactly its user
(``allowed_mentions`` lists only them), so a ping never notifies anyone else, whatever its text says.

Reminders live in the service's storage outbox: :class:`ReminderLoop` asks the service for those that are
due once a minute. The service hands each one out once (it marks it sent), so a restart neither loses a
pending reminder nor repeats one.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Protocol

import discord

from bot.core.replies import Notification
from bot.discord.buttons import view_for
from bot.discord.messages import channel_link, link_channel, mentions_only, split_text

log = logging.getLogger(__name__)

PLATFORM = "discord"
REMINDER_INTERVAL = 60.0  # seconds between two looks at the outbox


class Transport(Protocol):
    """Where messages go: a channel or thread by id, a user (for direct messages) by id."""

    async def channel(self, channel_id: str) -> discord.abc.Messageable | None: ...

    async def user(self, user_id: str) -> discord.abc.Messageable | None: ...


class ClientTransport:
    """The :class:`Transport` of a logged-in client: cached objects first, then one API fetch."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def channel(self, channel_id: str) -> discord.abc.Messageable | None:
        if not channel_id.isdigit():
            return None
        found: Any = self.client.get_channel(int(channel_id))
        if found is None:
            try:
                found = await self.client.fetch_channel(int(channel_id))
            except discord.HTTPException:
                log.warning("channel %s cannot be fetched", channel_id)
                return None
        return found if isinstance(found, discord.abc.Messageable) else None

    async def user(self, user_id: str) -> discord.abc.Messageable | None:
        if not user_id.isdigit():
            return None
        found = self.client.get_user(int(user_id))
        if found is None:
            try:
                found = await self.client.fetch_user(int(user_id))
            except discord.HTTPException:
                log.warning("user %s cannot be fetched", user_id)
                return None
        return found


def incident_id() -> str:
    return secrets.token_hex(4)


class Notifier:
    """Sends one notification: a mention in the game's channel, a direct message, or both."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    async def deliver(self, note: Notification) -> None:
        if note.platform and note.platform != PLATFORM:
            return
        to_channel = note.to_channel
        if note.to_dm and not await self._direct(note) and note.delivery == "dm" and not note.mentioned:
            to_channel = True  # their DMs are closed: a mention in the game's channel rather than nothing
        if to_channel:
            await self._in_channel(note)

    async def _direct(self, note: Notification) -> bool:
        user = await self.transport.user(note.user_id)
        if user is None:
            return False
        text = link_channel(note.text, note.channel)
        if note.channel and channel_link(note.channel) not in text:
            text += f"\nGame: {channel_link(note.channel)}"
        pieces = split_text(text)
        try:
            for i, piece in enumerate(pieces):
                last = i == len(pieces) - 1
                view = view_for(note.game_id, note.buttons) if last else None
                await user.send(piece, **_extras(discord.AllowedMentions.none(), view))
        except discord.HTTPException as exc:  # Forbidden when the user does not accept DMs from us
            log.info("direct message to %s failed: %s", note.user_id, exc)
            return False
        return True

    async def _in_channel(self, note: Notification) -> None:
        channel = await self.transport.channel(note.channel)
        if channel is None:
            log.warning("no channel %r for a ping of %s in game %s", note.channel, note.user_id, note.game_id)
            return
        pieces = split_text(link_channel(f"<@{note.user_id}> {note.text}", note.channel))
        for i, piece in enumerate(pieces):
            view = view_for(note.game_id, note.buttons) if i == len(pieces) - 1 else None
            await channel.send(piece, **_extras(mentions_only([note.user_id]), view))


def _extras(allowed: discord.AllowedMentions, view: discord.ui.View | None) -> dict[str, Any]:
    extras: dict[str, Any] = {"allowed_mentions": allowed}
    if view is not None:
        extras["view"] = view
    return extras


class DueSource(Protocol):
    async def due_notifications(
        self, now: float | None = None, *, platforms: Collection[str] | None = None
    ) -> list[Notification]: ...


class ReminderLoop:
    """Once a minute: the notifications that came due (reminders, pings held over quiet hours), delivered.

    :meth:`tick` is one round and what tests call after moving the injected clock; :meth:`run` repeats it.
    """

    def __init__(
        self,
        source: DueSource,
        notifier: Notifier,
        clock: Callable[[], float],
        *,
        interval: float = REMINDER_INTERVAL,
    ) -> None:
        self.source = source
        self.notifier = notifier
        self.clock = clock
        self.interval = interval

    async def tick(self) -> list[Notification]:
        """Deliver what is due now; returns what was delivered (a failed one is logged and skipped)."""
        delivered: list[Notification] = []
        # Only our platform's items: a Slack bot on the same database takes its own.
        for note in await self.source.due_notifications(now=self.clock(), platforms=(PLATFORM,)):
            try:
                await self.notifier.deliver(note)
            except Exception:
                log.exception("incident %s: delivering a %s ping to %s failed", incident_id(), note.kind, note.user_id)
                continue
            delivered.append(note)
        return delivered

    async def run(self, ready: Callable[[], Awaitable[Any]] | None = None) -> None:
        if ready is not None:
            await ready()
        while True:
            try:
                await self.tick()
            except Exception:  # a broken round must not end the loop: reminders are retried next minute
                log.exception("incident %s: the reminder round failed", incident_id())
            await asyncio.sleep(self.interval)
