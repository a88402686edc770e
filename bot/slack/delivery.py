"""Sending the service's answers to Slack: messages, ephemeral refusals, pictures, pings and reminders.

Public replies go to the game's channel with ``chat.postMessage`` (Block Kit: the text, then the buttons of
the next step), followed by the pictures that changed, uploaded through Slack's external-upload flow
(``files_upload_v2``: files.getUploadURLExternal, a POST of the bytes, files.completeUploadExternal).
Refusals and private answers go with ``chat.postEphemeral`` to the sender only.

When the bot is not a member of the channel, Slack refuses both calls; a slash command or click still has
its ``response_url`` then, which can answer in the channel without membership (pictures and pings need the
bot invited, which the answer says).

The service decides who is pinged and where; :class:`Poster` only sends. A channel ping mentions exactly one
user, so it never notifies anyone else.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.core.pictures import PictureMemory
from bot.core.replies import Attachment, Button, Notification, Reply
from bot.slack import blocks

log = logging.getLogger(__name__)

PLATFORM = "slack"
# Errors meaning "the bot cannot post here": not invited, or a private channel it cannot see.
_NO_ACCESS = {"not_in_channel", "channel_not_found", "is_archived", "restricted_action"}
INVITE_HINT = "Invite me to this channel (`/invite @Roundhouse`) so I can post pictures and pings here."


@dataclass(frozen=True, slots=True)
class Origin:
    """Who sent a command or clicked a button, and where the answer goes.

    ``channel`` is the game's channel (the service's key). ``here`` is where the user is looking: the
    same channel, or a direct message holding a reminder's buttons. ``thread_ts`` keeps answers to a
    click in a thread inside that thread.
    """

    channel: str
    user_id: str
    user_name: str
    here: str = ""
    thread_ts: str | None = None
    response_url: str | None = None

    @property
    def where(self) -> str:
        return self.here or self.channel


def split_place(place: str) -> tuple[str, str | None]:
    """A game's place as the service keys it: a channel id, or ``C123/1700000000.000100`` for a game in a
    thread of that channel (several games can share a channel that way). Returns (channel, thread ts)."""
    channel, sep, thread = place.partition("/")
    return channel, (thread or None) if sep else None


def thread_place(channel: str, thread_ts: str) -> str:
    return f"{channel}/{thread_ts}"


def _error(exc: SlackApiError) -> str:
    data: Any = exc.response.data if exc.response is not None else {}
    return str(data.get("error", "")) if isinstance(data, dict) else ""


class Poster:
    """Posts replies and notifications through one Web API client."""

    def __init__(self, client: AsyncWebClient, pictures: PictureMemory | None = None) -> None:
        self.client = client
        self.pictures = pictures or PictureMemory()
        self._dm: dict[str, str] = {}
        # Per channel and game, the ts of the game's board message: pinned once, then updated after each move. A restart
        # posts a fresh one (timestamps are not stored).
        self._boards: dict[str, str] = {}
        #: Queues a ping Slack refused for another try (the service's ``retry_later``); None: log only.
        self.retry: Callable[[Notification], Awaitable[bool]] | None = None

    # ------------------------------------------------------------------ replies

    async def reply(self, reply: Reply, origin: Origin) -> None:
        """Deliver one of the service's replies to a command or click from ``origin``."""
        if reply.ephemeral:
            await self.ephemeral(origin, reply.text, reply.buttons, reply.game_id)
            if reply.attachments:  # files cannot be ephemeral: they go to the sender directly
                await self._upload(reply.attachments, await self._dm_channel(origin.user_id), None)
            return
        channel, game_thread = split_place(origin.channel)
        thread = game_thread or (origin.thread_ts if origin.where == origin.channel else None)
        text, body = blocks.message(
            reply.text, mentions=reply.mentions, buttons=reply.buttons, game_id=reply.game_id, channel=origin.channel
        )
        posted = await self._post(channel, text, body, thread, origin)
        if posted:
            files = self.pictures.to_post(reply)
            if files:
                await self._upload(files, channel, thread)
            if reply.board and reply.game_id is not None:
                await self.update_board(channel, reply.board, thread, reply.game_id)
        await self.notify_all(reply.notify, default_channel=origin.channel)

    async def notify_all(self, notes: Sequence[Notification], *, default_channel: str = "") -> None:
        """Each ping in turn; one Slack refuses is queued for another try and does not stop the others."""
        for note in notes:
            try:
                await self.notify(note, default_channel=default_channel)
            except SlackApiError as exc:
                log.warning("a %s ping to %s was refused (%s); queued again", note.kind, note.user_id, _error(exc))
                if self.retry is not None:
                    await self.retry(note)

    async def update_board(self, channel: str, text: str, thread: str | None = None, game_id: int = 0) -> None:
        """Edit the game's pinned board message in place, or post (in the game's thread, if it has one) and pin it
        the first time. Several games may share a channel, each in its thread, so boards are kept per game."""
        plain, body = blocks.message(text, channel=channel)
        key = f"{channel}:{game_id}"
        ts = self._boards.get(key)
        if ts is not None:
            try:
                await self.client.chat_update(channel=channel, ts=ts, text=plain, blocks=body)
                return
            except SlackApiError as exc:
                log.info("updating the board in %s failed (%s); posting a new one", channel, _error(exc))
        ts = await self._send(channel, plain, body, thread)
        self._boards[key] = ts
        try:
            await self.client.pins_add(channel=channel, timestamp=ts)
        except SlackApiError as exc:  # needs the pins:write scope; the message is there anyway
            log.info("pinning the board in %s failed (%s)", channel, _error(exc))

    async def ephemeral(
        self, origin: Origin, text: str, buttons: Sequence[Button] = (), game_id: int | None = None
    ) -> None:
        """Something only ``origin``'s user sees, where they are looking."""
        plain, body = blocks.message(text, buttons=buttons, game_id=game_id, channel=origin.channel)
        where, game_thread = split_place(origin.where)
        try:
            await self.client.chat_postEphemeral(
                channel=where, user=origin.user_id, text=plain, blocks=body, thread_ts=origin.thread_ts or game_thread
            )
            return
        except SlackApiError as exc:
            if _error(exc) not in _NO_ACCESS and _error(exc) != "user_not_in_channel":
                raise
            log.info("ephemeral answer in %s refused (%s); trying the response_url", origin.where, _error(exc))
        if origin.response_url:
            await AsyncWebhookClient(origin.response_url).send(text=plain, blocks=body, response_type="ephemeral")
        else:
            await self._send(await self._dm_channel(origin.user_id), plain, body, None)

    async def _post(
        self, channel: str, text: str, body: list[blocks.Block], thread: str | None, origin: Origin
    ) -> bool:
        """Post in ``channel``; True if the bot could (and so may upload and ping there too)."""
        try:
            await self._send(channel, text, body, thread)
            return True
        except SlackApiError as exc:
            if _error(exc) not in _NO_ACCESS or not origin.response_url:
                raise
            log.info("posting in %s refused (%s); answering through the response_url", channel, _error(exc))
        hint = [*body, {"type": "context", "elements": [{"type": "mrkdwn", "text": INVITE_HINT}]}]
        await AsyncWebhookClient(origin.response_url).send(
            text=text, blocks=hint[: blocks.MAX_MESSAGE_BLOCKS], response_type="in_channel"
        )
        return False

    async def _send(self, channel: str, text: str, body: list[blocks.Block], thread: str | None) -> str:
        response = await self.client.chat_postMessage(
            channel=channel, text=text, blocks=body, thread_ts=thread, unfurl_links=False, unfurl_media=False
        )
        return str(response.get("ts", ""))

    async def _upload(self, files: Sequence[Attachment], channel: str, thread: str | None) -> None:
        uploads = [
            {"file": f.data, "filename": f.filename, "title": f.alt or f.filename, "alt_txt": f.alt or None}
            for f in files
        ]
        # files_upload_v2 is the external-upload flow; the old files.upload method is gone (2025-11).
        await self.client.files_upload_v2(file_uploads=uploads, channel=channel, thread_ts=thread)

    async def _dm_channel(self, user_id: str) -> str:
        channel = self._dm.get(user_id)
        if channel is None:
            response = await self.client.conversations_open(users=user_id)
            data: Any = response.get("channel") or {}
            channel = self._dm[user_id] = str(data["id"])
        return channel

    # ------------------------------------------------------------------ pings

    async def notify(self, note: Notification, *, default_channel: str = "") -> None:
        """Deliver one ping: a mention of only its user in the game's channel, a direct message, or both."""
        if note.platform and note.platform != PLATFORM:
            return
        place = note.channel or default_channel
        channel, thread = split_place(place)
        to_channel = note.to_channel
        if note.to_dm and not await self._direct(note, place) and note.delivery == "dm" and not note.mentioned:
            to_channel = True  # their DMs are closed to us: a mention in the channel rather than nothing
        if to_channel and channel:
            text, body = blocks.message(
                note.text, mentions=[note.user_id], buttons=note.buttons, game_id=note.game_id, channel=place
            )
            await self._send(channel, text, body, thread)

    async def _direct(self, note: Notification, channel: str) -> bool:
        text = note.text
        if channel and channel not in text:
            text += f"\nGame channel: {split_place(channel)[0]}"
        plain, body = blocks.message(text, buttons=note.buttons, game_id=note.game_id, channel=channel)
        try:
            await self._send(await self._dm_channel(note.user_id), plain, body, None)
        except SlackApiError as exc:
            log.info("direct message to %s failed: %s", note.user_id, _error(exc))
            return False
        return True
