"""The Slack adapter: the ``/18xx`` command, button clicks and the App Home tab, on a Bolt ``AsyncApp``.

Every command and click is acknowledged first (Slack wants an answer within 3 s; drawing pictures takes
longer), then the text goes to the game service as the user typed it (a click sends its button's command as
the clicking user), and :class:`~bot.slack.delivery.Poster` posts what the service answers. The service
alone decides what is legal and who may act: a click from anyone but the acting seat comes back as a
refusal, shown only to the clicker.

Bolt's own middleware checks every HTTP request's signature and timestamp before anything here runs. Ours
comes right after it and claims each request's key (:mod:`bot.slack.redelivery`), so a request Slack
delivers twice is carried out once. Anything unexpected in this module is logged with an incident id, and
the user gets a short apology naming it.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.delivery_loop import ReminderLoop, incident_id
from bot.core.fork_verbs import FORK_VERBS, INTO
from bot.core.replies import Reply
from bot.core.service import GameService
from bot.slack import blocks, http_guard
from bot.slack.delivery import PLATFORM, Origin, Poster, split_place, thread_place
from bot.slack.redelivery import HandledRequests, request_key
from bot.slack.settings import SlackSettings
from bot.storage import NotFoundError

log = logging.getLogger(__name__)

_GAME_REF = re.compile(r"^#(?P<id>[0-9]{1,12})(?:\s+(?P<rest>.*))?$", re.S)
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")

Next = Callable[[], Awaitable[BoltResponse]]


def apology(incident: str, command: str) -> str:
    return (
        f"Sorry, something went wrong on our side (incident {incident}). "
        f"Check `{command} status` before trying again, and tell the bot's operator this id if it keeps happening."
    )


class SlackBot:
    """Connects a Bolt app to a :class:`GameService`: build it, then serve ``bot.app`` (Socket Mode or HTTP)."""

    def __init__(
        self,
        service: GameService,
        client: AsyncWebClient,
        handled: HandledRequests,
        settings: SlackSettings,
        *,
        clock: Callable[[], float] = time.time,
        process_before_response: bool = False,
    ) -> None:
        self.service = service
        self.settings = settings
        self.handled = handled
        self.poster = Poster(client)
        self.poster.retry = getattr(service, "retry_later", None)
        self.reminders = ReminderLoop(
            service, self.poster.notify, clock, platform=PLATFORM, interval=settings.reminder_seconds
        )
        self.app = AsyncApp(
            client=client,
            signing_secret=settings.signing_secret,
            # Never switched off: unsigned or stale (> 5 min) HTTP requests are answered 401 before any
            # listener runs. Socket Mode requests come over the app's own authenticated connection.
            request_verification_enabled=True,
            process_before_response=process_before_response,
            name="roundhouse",
        )
        self.app.use(self._once)
        self.app.command(settings.command)(self._on_command)
        self.app.action(blocks.ACTION_PATTERN)(self._on_click)
        self.app.event("app_home_opened")(self._on_home)
        self.app.event("app_mention")(self._on_mention)
        self.app.error(self._on_error)

    def web_app(self, path: str = "/slack/events", port: int = 3000) -> web.Application:
        """Bolt's aiohttp app for HTTP mode, behind :mod:`bot.slack.http_guard` (401/400 before parsing)."""
        app = self.app.web_app(path=path, port=port)
        app.middlewares.append(http_guard.guard(self.settings.signing_secret))
        return app

    # ------------------------------------------------------------------ middleware

    async def _once(self, req: AsyncBoltRequest, resp: BoltResponse, next: Next) -> BoltResponse:
        """Carry out each request once, whatever Slack redelivers (``x-slack-retry-num``) or replays."""
        key = request_key(req.body, req.raw_body)
        if not await self.handled.claim(key):
            retry = req.headers.get("x-slack-retry-num", ["-"])[0]
            log.info("request %s was handled already (retry %s); acknowledged without effect", key, retry)
            return BoltResponse(status=200, body="")
        return await next()

    # ------------------------------------------------------------------ listeners

    async def _on_command(self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]) -> None:
        await ack()  # within 3 s, before any work: the answers follow as messages
        origin = Origin(
            channel=str(body.get("channel_id", "")),
            user_id=str(body.get("user_id", "")),
            user_name=str(body.get("user_name") or body.get("user_id", "")),
            response_url=body.get("response_url") or None,
        )
        text = str(body.get("text") or "").strip() or "help"
        placed = await self._place(origin, text)
        if placed is None:
            return
        replies = await self.serve(placed[0], placed[1])
        if placed[2] and not any(r.ok for r in replies):
            try:  # the new game was refused: no empty thread is left behind
                await self.poster.client.chat_delete(channel=origin.channel, ts=placed[2])
            except SlackApiError as exc:
                log.info("the thread of a refused game could not be removed: %s", exc)

    async def _place(self, origin: Origin, text: str) -> tuple[Origin, str, str] | None:
        """Where a slash command plays: ``#N`` names a game of this channel (one in a thread, too), and
        ``new``/``import`` in a channel that has a game already opens the new game in a thread of its own.

        Returns the origin, the command, and the ts of the thread opened for it ("" when none was)."""
        match = _GAME_REF.match(text)
        if match is not None:
            try:
                record = await self.service.storage.get_game(int(match["id"]))
            except NotFoundError:
                record = None
            if record is None or record.platform != PLATFORM or split_place(record.channel)[0] != origin.channel:
                await self._refuse(origin, f"There is no game #{match['id']} in this channel.")
                return None
            here = dataclasses.replace(origin, channel=record.channel, here=origin.channel)
            return here, match["rest"] or "status", ""
        words = text.split()
        verb = words[0].lower()
        if verb in FORK_VERBS and words[1:2] != ["close"] and await self.service.storage.find_game(
            PLATFORM, origin.channel
        ):
            # A practice copy is played in a thread of its own: the game is found in the channel, the copy
            # is made in the thread (``into=``).
            opened = await self.poster.client.chat_postMessage(
                channel=origin.channel,
                text=f"<@{origin.user_id}> practises on a copy of this game in this thread (mention me in it); "
                "the game itself is not touched.",
            )
            place = thread_place(origin.channel, str(opened["ts"]))
            return origin, f"{text} {INTO}{place}", str(opened["ts"])
        if verb in ("new", "create", "import") and await self.service.storage.find_game(PLATFORM, origin.channel):
            opened = await self.poster.client.chat_postMessage(
                channel=origin.channel,
                text=f"<@{origin.user_id}> opens another game here. It is played in this thread: mention "
                f"me in it (`@Roundhouse join`), or use `{self.settings.command} #N ...` in the channel.",
            )
            place = thread_place(origin.channel, str(opened["ts"]))
            return dataclasses.replace(origin, channel=place, here=origin.channel), text, str(opened["ts"])
        return origin, text, ""

    async def _on_mention(self, event: dict[str, Any]) -> None:
        """``@Roundhouse buy HB`` in a game's thread (or its channel) is a command like ``/18xx buy HB``."""
        channel = str(event.get("channel", ""))
        thread = event.get("thread_ts")
        text = _MENTION.sub("", str(event.get("text", ""))).strip() or "help"
        place = channel
        if thread and await self.service.storage.find_game(PLATFORM, thread_place(channel, str(thread))):
            place = thread_place(channel, str(thread))
        user = str(event.get("user", ""))
        origin = Origin(channel=place, user_id=user, user_name=user, here=channel, thread_ts=thread)
        await self.serve(origin, text)

    async def _on_click(self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]) -> None:
        await ack()
        user: dict[str, Any] = body.get("user") or {}
        here = str((body.get("channel") or {}).get("id", ""))
        message: dict[str, Any] = body.get("message") or {}
        container: dict[str, Any] = body.get("container") or {}
        action: dict[str, Any] = (body.get("actions") or [{}])[0]
        origin = Origin(
            channel=here,
            user_id=str(user.get("id", "")),
            user_name=str(user.get("username") or user.get("name") or user.get("id", "")),
            here=here,
            thread_ts=message.get("thread_ts") or container.get("thread_ts"),
            response_url=body.get("response_url") or None,
        )
        try:
            target = blocks.parse_button_value(str(action.get("value", "")))
        except ValueError:
            await self._refuse(origin, "That button is not one of mine; nothing happened.")
            return
        # A button in a direct message (a reminder's) acts in the game's channel, where its answer goes.
        origin = dataclasses.replace(origin, channel=target.channel or here)
        if not await self._same_game(origin, target.game_id):
            return
        replies = await self.serve(origin, target.command, clicked=True)
        moved_on = any(r.seq is not None for r in replies)
        ts = container.get("message_ts") or message.get("ts")
        if moved_on and ts and not container.get("is_ephemeral") and message.get("blocks"):
            label = str((action.get("text") or {}).get("text", target.command))
            await self._retire_buttons(origin, str(ts), message, label)

    async def _on_home(self, event: dict[str, Any]) -> None:
        if event.get("tab") not in (None, "home"):
            return  # the Messages tab
        await self.publish_home(str(event.get("user", "")))

    async def publish_home(self, user_id: str) -> None:
        """Draw a user's App Home from the service's overview of their games (never raises)."""
        try:
            try:
                view = blocks.home_view(await self.service.overview(PLATFORM, user_id), self.settings.command)
            except Exception:
                incident = incident_id()
                log.exception("incident %s: the games of %s could not be listed", incident, user_id)
                view = blocks.home_view([], self.settings.command, notice=apology(incident, self.settings.command))
            await self.poster.client.views_publish(user_id=user_id, view=view)
        except Exception:
            log.exception("incident %s: the App Home of %s could not be published", incident_id(), user_id)

    async def _refresh_homes(self, replies: list[Reply]) -> None:
        """After a stored move, the App Home of each seated player shows whose turn it is now."""
        for game_id in {r.game_id for r in replies if r.seq is not None and r.game_id is not None}:
            for seat in await self.service.storage.list_seats(game_id):
                await self.publish_home(seat.user_id)

    async def _on_error(self, error: Exception, body: dict[str, Any]) -> None:
        # Reached only by failures outside our own try blocks (Bolt's plumbing): log them findably.
        log.error("incident %s: unhandled error for a %s request", incident_id(), body.get("type"), exc_info=error)

    # ------------------------------------------------------------------ the work

    async def serve(self, origin: Origin, text: str, *, clicked: bool = False) -> list[Reply]:
        """Send ``text`` to the service as ``origin``'s user and deliver the answers (never raises)."""
        try:
            replies = await self.service.handle(
                PLATFORM,
                origin.channel,
                origin.user_id,
                origin.user_name,
                text,
                clicked=clicked,
                moderator=origin.user_id in self.settings.moderators,
            )
            for reply in replies:
                try:
                    await self.poster.reply(reply, origin)
                except SlackApiError as exc:
                    if reply.ephemeral:
                        raise
                    await self._not_posted(origin, reply, exc)
            await self._refresh_homes(replies)
            return replies
        except Exception:
            incident = incident_id()
            log.exception("incident %s: %r from %s in %s", incident, text, origin.user_id, origin.channel)
            await self._apologise(origin, incident)
            return []

    async def _not_posted(self, origin: Origin, reply: Reply, exc: SlackApiError) -> None:
        """Slack refused a public reply: the sender learns whether their move was stored and why, and the
        players it should have mentioned are pinged directly (and again later through the outbox)."""
        data: Any = exc.response.data if exc.response is not None else {}
        error = str(data.get("error", "")) if isinstance(data, dict) else ""
        log.warning("posting in %s was refused (%s) after %s", origin.channel, error, reply.seq)
        where = "the game's channel"
        head = (
            f"Your move was stored (action {reply.seq}), but I could not post it in {where}"
            if reply.seq is not None
            else f"I could not post this in {where}"
        )
        await self.poster.ephemeral(origin, f"{head}: Slack says `{error or 'error'}`.\n{reply.text}")
        notes = [
            dataclasses.replace(n, mentioned=False, delivery="both" if n.delivery == "channel" else n.delivery)
            for n in reply.notify
        ]
        await self.poster.notify_all(notes, default_channel=origin.channel)

    async def _apologise(self, origin: Origin, incident: str) -> None:
        try:
            await self.poster.ephemeral(origin, apology(incident, self.settings.command))
        except Exception:
            log.exception("incident %s: the apology to %s could not be sent either", incident, origin.user_id)

    async def _same_game(self, origin: Origin, game_id: int | None) -> bool:
        """Whether a button's game is still the one played in its channel (else the click is refused)."""
        if game_id is None:
            return True
        try:
            record = await self.service.storage.find_game(PLATFORM, origin.channel)
        except Exception:
            incident = incident_id()
            log.exception("incident %s: looking up the game of %s failed", incident, origin.channel)
            await self._apologise(origin, incident)
            return False
        if record is not None and record.id == game_id:
            return True
        await self._refuse(origin, f"That button belongs to game #{game_id}, which is no longer played there.")
        return False

    async def _refuse(self, origin: Origin, text: str) -> None:
        try:
            await self.poster.ephemeral(origin, text)
        except Exception:
            log.exception("incident %s: a refusal to %s could not be sent", incident_id(), origin.user_id)

    async def _retire_buttons(self, origin: Origin, ts: str, message: dict[str, Any], label: str) -> None:
        """Replace a clicked message's buttons by who clicked what: its step is over, newer buttons follow."""
        try:
            await self.poster.client.chat_update(
                channel=origin.where,
                ts=ts,
                text=str(message.get("text", "")),
                blocks=blocks.after_click(message.get("blocks") or [], origin.user_id, label),
            )
        except Exception:  # cosmetic: stale buttons are refused by the service anyway
            log.exception("incident %s: the clicked message %s could not be updated", incident_id(), ts)
