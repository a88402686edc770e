"""The Discord adapter: slash commands, button clicks and autocomplete in, the service's replies out.

Every command and click is acknowledged at once with an ephemeral "thinking" state (Discord wants an answer
within 3 s; drawing pictures takes longer). Then the service answers, and:

* public replies (moves, status, ...) are posted in the game's channel or thread, with the pictures that
  changed and the buttons of the next step; the players who just became active are mentioned in that same
  message, and only they (``allowed_mentions``);
* refusals and other replies for the sender only replace the thinking state (the engine's message);
* the thinking state is deleted when there is nothing private to say.

Each game lives in a thread of its own, created on ``new`` and ``import``; the thread's id is the service's
channel key. Anything unexpected in this module is logged with an incident id, and the user gets a short
apology naming it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.core.commands import Command
from bot.core.delivery_loop import ReminderLoop, incident_id
from bot.core.fork_verbs import INTO
from bot.core.pictures import PictureMemory
from bot.core.replies import Notification, Outcome, Reply
from bot.core.service import GameService
from bot.discord.buttons import view_for
from bot.discord.delivery import PLATFORM, Notifier, Transport
from bot.discord.messages import link_channel, mentions_only, ping_lines, split_text, to_files
from bot.discord.subcommands import CommandSet, Option, Subcommand, build
from bot.discord.tree import AnyChoice, build_group, privates, titles
from bot.storage import ConsentStatus, NotFoundError

log = logging.getLogger(__name__)

MAX_CHOICES = 25  # Discord's limit for autocomplete answers
SUGGEST_TIMEOUT = 2.5  # seconds; autocomplete cannot be deferred and Discord drops answers after 3 s
MAX_IMPORT_BYTES = 8 * 1024 * 1024
THREAD_ARCHIVE_MINUTES = 10080  # a week: turns can take days
THREAD_CHANNEL_TYPES = (discord.ChannelType.text, discord.ChannelType.news)


def apology(incident: str) -> str:
    return (
        f"Sorry, something went wrong on our side (incident {incident}). "
        "Check `/18xx info status` before trying again, and tell the bot's operator this id if it keeps happening."
    )


class DiscordAdapter:
    """Connects the /18xx commands and the game buttons to a :class:`GameService`."""

    def __init__(
        self,
        service: GameService,
        transport: Transport,
        *,
        clock: Callable[[], float] = time.time,
        thread_archive_minutes: int = THREAD_ARCHIVE_MINUTES,
        moderator_roles: Sequence[int] = (),
    ) -> None:
        self.service = service
        self.moderator_roles = frozenset(moderator_roles)
        self.transport = transport
        self.clock = clock
        self.thread_archive_minutes = thread_archive_minutes
        self.commands: CommandSet = build(titles(), privates())
        self.group: app_commands.Group = build_group(self.commands, self)
        self.pictures = PictureMemory()
        self.notifier = Notifier(transport)
        self.reminders = ReminderLoop(service, self.notifier.deliver, clock, platform=PLATFORM)
        # The last message with move buttons in each channel: its buttons are removed when the game moves on,
        # so only the current step's buttons look clickable (stale ones would be refused anyway). Messages
        # with a request's Approve/Decline keep theirs until the request is settled.
        self._buttons_at: dict[str, Any] = {}
        self._requests: dict[int, Any] = {}  # request id -> the message with its buttons
        # Per channel, the game's board message: pinned once, then edited after each move. A restart
        # posts a fresh one (message ids are not stored).
        self._boards: dict[str, Any] = {}

    # ------------------------------------------------------------------ slash commands

    async def run(self, interaction: discord.Interaction, sub: Subcommand, values: dict[str, Any]) -> None:
        """Carry out one /18xx subcommand (the generated callbacks call this)."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            files: list[bytes] = []
            for option in sub.options:
                attachment = values.get(option.name)
                if option.kind == "file" and attachment is not None:
                    if attachment.size > MAX_IMPORT_BYTES:
                        await self._whisper(interaction, f"{attachment.filename} is too large (over 8 MiB).")
                        return
                    files.append(await attachment.read())
            if not await self._can_post(interaction):
                return
            text = sub.text(values)
            if sub.opens_game:
                await self._open_game(interaction, str(values.get("title") or "imported"), text, files)
                return
            if sub.verb == "fork" and text.split()[1:2] != ["close"]:
                await self._open_fork(interaction, text)
                return
            channel = str(interaction.channel_id)
            replies = await self._handle(interaction, channel, text, files, command=sub.command(values))
            await self.answer(interaction, channel, replies)
            if sub.verb in ("approve", "decline"):
                await self._tidy_requests()
        except Exception:
            await self._apologise(interaction, f"/{sub.path}")

    async def _handle(
        self,
        interaction: discord.Interaction,
        channel: str,
        text: str,
        files: Sequence[bytes] = (),
        *,
        clicked: bool = False,
        command: Command | None = None,
    ) -> list[Reply]:
        user = interaction.user
        return await self.service.handle(
            PLATFORM,
            channel,
            str(user.id),
            user.display_name,
            text,
            attachments=list(files),
            clicked=clicked,
            moderator=self.is_moderator(interaction),
            command=command,
        )

    def is_moderator(self, interaction: discord.Interaction) -> bool:
        """Manage Server in this place, or one of the configured moderator roles."""
        permissions = getattr(interaction, "permissions", None)
        if permissions is not None and getattr(permissions, "manage_guild", False) is True:
            return True
        roles = getattr(interaction.user, "roles", None) or ()
        return any(getattr(role, "id", None) in self.moderator_roles for role in roles)

    async def _open_game(self, interaction: discord.Interaction, title: str, text: str, files: Sequence[bytes]) -> None:
        """``new`` and ``import``: the game gets a thread of its own, unless we are in one already."""
        here: Any = interaction.channel
        thread: Any = None
        if getattr(here, "type", None) in THREAD_CHANNEL_TYPES and hasattr(here, "create_thread"):
            name = f"{title} game by {interaction.user.display_name}"[:100]
            try:
                thread = await here.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=self.thread_archive_minutes,
                    reason="a new 18xx game",
                )
            except discord.HTTPException as exc:  # no permission to create threads: play in the channel
                log.info("no thread for a new game in %s: %s", interaction.channel_id, exc)
        channel = str(thread.id) if thread is not None else str(interaction.channel_id)
        replies = await self._handle(interaction, channel, text, files)
        if thread is not None and not any(r.ok for r in replies):
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()  # refused: no empty thread left behind
            thread = None
        unannounced = ""
        if thread is not None and here is not None:
            game = next((r.game_id for r in replies if r.game_id is not None), None)
            try:
                await here.send(
                    f"{interaction.user.display_name} opened game #{game}: join in {thread.mention}",
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:
                # The game and its thread exist: it is announced in its thread (below), and the creator is told
                # that the channel was not, and why, so they can share the thread themselves.
                log.info("the new game in %s could not be announced: %s", interaction.channel_id, exc)
                why = _REFUSALS.get(exc.code, f"Discord refused the message ({exc.status} {exc.code})")
                unannounced = (
                    f"Game #{game} is open in {thread.mention}, but I could not announce it in this channel: {why}. "
                    "Share the thread with the other players so they can join."
                )
        await self.answer(interaction, channel, replies, target=thread)
        if unannounced:
            await self._whisper(interaction, unannounced)

    async def _open_fork(self, interaction: discord.Interaction, text: str) -> None:
        """``fork``: the practice copy is played in a private thread of the channel, that only its owner (and
        the bot) are in; without the permission to make one, the service's own channel name stands."""
        here: Any = interaction.channel
        parent: Any = getattr(here, "parent", None) if getattr(here, "type", None) not in THREAD_CHANNEL_TYPES else here
        thread: Any = None
        if parent is not None and hasattr(parent, "create_thread"):
            try:
                thread = await parent.create_thread(
                    name=f"practice: {interaction.user.display_name}"[:100],
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                    auto_archive_duration=self.thread_archive_minutes,
                    reason="a private practice copy of an 18xx game",
                )
                await thread.add_user(interaction.user)
            except discord.HTTPException as exc:
                log.info("no private thread for a practice copy in %s: %s", interaction.channel_id, exc)
                thread = None
        into = f" {INTO}{thread.id}" if thread is not None else ""
        replies = await self._handle(interaction, str(interaction.channel_id), text + into)
        if thread is not None and not any(r.ok for r in replies):
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()  # refused: no empty thread left behind
            thread = None
        if thread is not None:
            with contextlib.suppress(discord.HTTPException):
                await thread.send(
                    "\n".join(r.text for r in replies if r.ok), allowed_mentions=discord.AllowedMentions.none()
                )
        await self.answer(interaction, str(interaction.channel_id), replies)

    # ------------------------------------------------------------------ buttons

    async def click(self, interaction: discord.Interaction, game_id: int, command: str) -> None:
        """A game button: ``command`` sent to game ``game_id`` as the clicking user (in a DM too)."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                record = await self.service.storage.get_game(game_id)
            except NotFoundError:
                record = None
            current = None
            if record is not None and record.platform == PLATFORM:
                current = await self.service.storage.find_game(PLATFORM, record.channel)
            if record is None or current is None or current.id != game_id:
                await self._whisper(interaction, f"That button belongs to game #{game_id}, which is no longer running.")
                return
            if str(interaction.channel_id) == record.channel and not await self._can_post(interaction):
                return
            replies = await self._handle(interaction, record.channel, command, clicked=True)
            await self.answer(interaction, record.channel, replies)
            request = _request_in(command)
            if request is not None:
                await self._tidy_requests()
                # The clicked message may not be one we remember (posted before a restart, or a DM).
                if interaction.message is not None and await self._settled(request):
                    with contextlib.suppress(discord.HTTPException):
                        await interaction.message.edit(view=None)
        except Exception:
            await self._apologise(interaction, f"button {command!r} of game #{game_id}")

    async def _settled(self, request: int) -> bool:
        try:
            consent = await self.service.storage.get_consent(request)
        except NotFoundError:
            return True
        return consent.status != ConsentStatus.PENDING

    async def _tidy_requests(self) -> None:
        """Remove the Approve/Decline buttons of requests that are settled: nothing is left to answer."""
        for request, message in list(self._requests.items()):
            if await self._settled(request):
                del self._requests[request]
                with contextlib.suppress(discord.HTTPException):
                    await message.edit(view=None)

    # ------------------------------------------------------------------ autocomplete

    async def complete(
        self, interaction: discord.Interaction, sub: Subcommand, option: Option, current: str
    ) -> list[AnyChoice]:
        """Legal values for ``option`` from the engine (via the service), most relevant first, at most 25."""
        try:
            words = await self._suggestions(interaction, sub, option, current or "")
        except Exception:
            log.exception("incident %s: autocomplete of /%s %s failed", incident_id(), sub.path, option.name)
            return []
        return _choices(option, words)

    async def _suggestions(
        self, interaction: discord.Interaction, sub: Subcommand, option: Option, current: str
    ) -> list[str]:
        namespace = interaction.namespace
        given: list[str] = []
        for name in option.after:
            value = getattr(namespace, name, None)
            if value is None or value == "":
                return []  # the values depend on an option not filled in yet
            given.append(str(value))
        verb = sub.verb
        if option.name == "private" and not sub.lead:
            return await self._privates(interaction, current)
        if sub.verb == "new" and option.name == "title":
            return await self._suggest(interaction, "new", [], current)
        if not sub.lead:  # a private's power: the command starts with the private (``nwr lay C3 ...``)
            verb, given = given[0], given[1:]
        if sub.verb == "train" and option.name == "seller":
            return await self._sellers(interaction, given, current)
        if sub.verb == "train" and option.name in ("trade", "shell"):
            given = [*given, option.name]
        return await self._suggest(interaction, verb, given, current)

    async def _suggest(self, interaction: discord.Interaction, verb: str, args: list[str], partial: str) -> list[str]:
        return list(
            await asyncio.wait_for(
                self.service.suggest(
                    PLATFORM,
                    str(interaction.channel_id),
                    str(interaction.user.id),
                    verb,
                    args,
                    partial,
                    limit=MAX_CHOICES,
                ),
                SUGGEST_TIMEOUT,
            )
        )

    async def _privates(self, interaction: discord.Interaction, partial: str) -> list[str]:
        """The private companies of the game here (of every title when there is no game yet)."""
        return await self.service.companies_here(
            PLATFORM, str(interaction.channel_id), partial, privates(), limit=MAX_CHOICES
        )

    async def _sellers(self, interaction: discord.Interaction, given: list[str], partial: str) -> list[str]:
        # "train 4 pool" and "train 4 from CORP PRICE" spell the seller differently; offer both kinds.
        pool = [w for w in await self._suggest(interaction, "train", given, partial) if w.lower() == "pool"]
        companies = await self._suggest(interaction, "train", [*given, "from"], partial)
        return [*pool, *companies]

    # ------------------------------------------------------------------ replies

    async def answer(
        self,
        interaction: discord.Interaction,
        channel: str,
        replies: Sequence[Reply],
        *,
        target: Any = None,
    ) -> None:
        """Post the replies: public ones in ``channel`` (or ``target``), private ones to the sender."""
        whispered = False
        for reply in replies:
            if reply.ephemeral:
                await self._whisper(interaction, reply.text, reply)
                whispered = True
            else:
                where = target or await self._channel(interaction, channel)
                if where is None:
                    await self._whisper(interaction, reply.text, reply)
                    whispered = True
                else:
                    try:
                        await self.post(where, channel, reply)
                    except discord.HTTPException as exc:
                        # Stored, but nobody saw it: tell the sender, and ping the next player another way.
                        await self._whisper(interaction, not_posted(reply, channel, exc))
                        whispered = True
                        await self._notify([unposted(note) for note in reply.notify])
                        continue
            await self._notify(reply.notify)
        if not whispered:
            # Only public messages: the thinking state has nothing left to say.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()

    async def _channel(self, interaction: discord.Interaction, channel: str) -> Any:
        if str(interaction.channel_id) == channel and interaction.channel is not None:
            return interaction.channel
        return await self.transport.channel(channel)

    async def post(self, where: Any, channel: str, reply: Reply) -> Any:
        """One public reply as one message (longer text is split; the last piece carries files and buttons)."""
        files, left_out = to_files(self.pictures.to_post(reply))
        pings = ping_lines(reply.mentions, [n for n in reply.notify if n.mentioned])
        text = link_channel("\n".join([reply.text, *left_out, *pings]), channel)
        view = view_for(reply.game_id, reply.buttons)
        request = next((r for r in map(_request_in, (b.command for b in reply.buttons)) if r is not None), None)
        if reply.seq is not None or (view is not None and request is None):
            await self._retire_buttons(channel)
        if reply.board and reply.game_id is not None:
            # Before the reply, so that the newest message in the channel stays the move and its buttons.
            await self.update_board(where, channel, reply.board)
        pieces = split_text(text)
        message = None
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            kwargs: dict[str, Any] = {"allowed_mentions": mentions_only(reply.mentions if last else ())}
            if last and files:
                kwargs["files"] = files
            if last and view is not None:
                kwargs["view"] = view
            message = await where.send(piece, **kwargs)
        if view is not None and message is not None:
            if request is None:
                self._buttons_at[channel] = message
            else:
                self._requests[request] = message
        return message

    async def update_board(self, where: Any, channel: str, text: str) -> None:
        """Edit the channel's pinned board message in place, or post and pin it the first time."""
        text = split_text(text)[0]
        board = self._boards.get(channel)
        if board is not None:
            try:
                await board.edit(content=text)
                return
            except discord.HTTPException:
                self._boards.pop(channel, None)  # deleted or unreachable: post a new one
        board = await where.send(text, allowed_mentions=discord.AllowedMentions.none())
        self._boards[channel] = board
        try:
            await board.pin()
        except discord.HTTPException as exc:  # pinning needs Manage Messages; the message is still there
            log.info("pinning the board in %s failed: %s", channel, exc)

    async def _retire_buttons(self, channel: str) -> None:
        message = self._buttons_at.pop(channel, None)
        if message is not None:
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=None)

    async def _notify(self, notes: Sequence[Notification]) -> None:
        for note in notes:
            try:
                await self.notifier.deliver(note)
            except Exception:  # a failed ping must not turn an accepted move into an error
                log.exception("incident %s: a %s ping to %s failed", incident_id(), note.kind, note.user_id)
                try:
                    await self.service.retry_later(note)  # the reminder loop sends it again
                except Exception:
                    log.exception("the %s ping to %s could not be queued again", note.kind, note.user_id)

    async def _can_post(self, interaction: discord.Interaction) -> bool:
        """Whether the bot may post here; if not, the sender is told which permission is missing."""
        missing = missing_permissions(interaction, files=self.service.images)
        if not missing:
            return True
        names = " and ".join(missing)
        await self._whisper(
            interaction,
            f"I cannot play in this channel: I lack the {names} permission{'s' if len(missing) > 1 else ''} "
            "here. Ask a server admin to grant it to the bot. Nothing was done.",
        )
        return False

    async def _whisper(self, interaction: discord.Interaction, text: str, reply: Reply | None = None) -> None:
        """A message for the sender only (the first one replaces the thinking state)."""
        if reply is not None and reply.outcome not in (Outcome.OK, Outcome.PENDING):
            log.debug("refused (%s): %s", reply.outcome, text)
        files, left_out = to_files(reply.attachments) if reply is not None else ([], [])
        view = view_for(reply.game_id, reply.buttons) if reply is not None else None
        pieces = split_text("\n".join([text, *left_out]))
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": discord.AllowedMentions.none()}
            if last and files:
                kwargs["files"] = files
            if last and view is not None:
                kwargs["view"] = view
            await self._send_private(interaction, piece, kwargs)

    @staticmethod
    async def _send_private(interaction: discord.Interaction, text: str, kwargs: dict[str, Any]) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, **kwargs)
        else:
            await interaction.response.send_message(text, **kwargs)

    async def _apologise(self, interaction: discord.Interaction, what: str) -> None:
        incident = incident_id()
        log.exception(
            "incident %s: %s from user %s in channel %s failed",
            incident,
            what,
            getattr(interaction.user, "id", "?"),
            interaction.channel_id,
        )
        try:
            await self._send_private(
                interaction, apology(incident), {"ephemeral": True, "allowed_mentions": discord.AllowedMentions.none()}
            )
        except Exception:
            log.exception("incident %s: even the apology could not be sent", incident)


#: Discord's error codes for a message it refuses, in the words of its server settings.
_REFUSALS = {
    50001: "the bot cannot see that channel (Missing Access)",
    50013: "the bot lacks a permission there (Send Messages, Send Messages in Threads or Attach Files)",
    50083: "the thread is archived or locked",
    10003: "the channel no longer exists",
}


def not_posted(reply: Reply, channel: str, exc: discord.HTTPException) -> str:
    """What the sender reads when their reply could not be posted in the game's channel."""
    why = _REFUSALS.get(exc.code, f"Discord refused the message ({exc.status} {exc.code})")
    where = f"<#{channel}>" if channel.isdigit() else "the game's channel"
    head = (
        f"Your move was stored (action {reply.seq}), but I could not post it in {where}: {why}."
        if reply.seq is not None
        else f"I could not post this in {where}: {why}."
    )
    return f"{head} The next player is pinged directly.\n{reply.text}"


def unposted(note: Notification) -> Notification:
    """A ping whose channel mention was never posted: to be sent directly as well as in the channel."""
    delivery = "both" if note.delivery == "channel" else note.delivery
    return dataclasses.replace(note, mentioned=False, delivery=delivery)


def missing_permissions(interaction: discord.Interaction, *, files: bool) -> list[str]:
    """The permissions the bot lacks to play where ``interaction`` happened (none known outside servers)."""
    permissions = getattr(interaction, "app_permissions", None)
    if permissions is None or getattr(interaction, "guild_id", None) is None:
        return []
    kind = getattr(getattr(interaction, "channel", None), "type", None)
    thread = kind in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    )
    needed = [
        ("send_messages_in_threads", "Send Messages in Threads") if thread else ("send_messages", "Send Messages")
    ]
    if files:
        needed.append(("attach_files", "Attach Files"))
    return [name for flag, name in needed if getattr(permissions, flag, True) is False]


def _request_in(command: str) -> int | None:
    """The request a command answers (``approve 3`` -> 3), if it names one."""
    words = command.split()
    if len(words) == 2 and words[0] in ("approve", "decline") and words[1].isdigit():
        return int(words[1])
    return None


def _choices(option: Option, words: Sequence[str]) -> list[AnyChoice]:
    out: list[AnyChoice] = []
    for word in words:
        if len(out) >= MAX_CHOICES:
            break
        if option.kind is int:
            if word.lstrip("-").isdigit():
                out.append(app_commands.Choice(name=word, value=int(word)))
        else:
            out.append(app_commands.Choice(name=word[:100], value=word[:100]))
    return out
