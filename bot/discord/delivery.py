"""Personal pings: delivering the service's notifications, now (after a command) or when due (reminders).

The service decides who is pinged and where (channel mention, direct message, both) after applying each
user's preferences; this module only sends. A channel ping mentions exactly its user
(``allowed_mentions`` lists only them), so a ping never notifies anyone else, whatever its text says.

Reminders are delivered through the same :class:`Notifier` by :class:`bot.core.delivery_loop.ReminderLoop`.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from bot.core.replies import Notification
from bot.discord.buttons import view_for
from bot.discord.messages import channel_link, link_channel, mentions_only, split_text

log = logging.getLogger(__name__)

PLATFORM = "discord"


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
