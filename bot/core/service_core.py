"""The game service's core: its state, the entry point, finding a channel's game, and the path of a move.

Flow of a move (style guide §3.3): take the game's lock, bring the live game up to date with the stored log,
map the chat user to their seat, translate the command into one of the engine's legal actions, let the engine
apply it, then append that one action in one transaction with the seq it was computed from. If the append
finds the log moved on (another process got there first), the live game is dropped and the command is
re-checked against the fresh state. The engine refusing means nothing is stored.

The verbs live in parts built on this class (:mod:`bot.core.setup_verbs`, :mod:`bot.core.consent_verbs`) and
are put together by :class:`bot.core.service.GameService`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import time
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

from bot import metrics
from bot.config import Settings, load_settings
from bot.core import choices, game_story, images, narrate, timefmt
from bot.core.commands import (
    Command,
    CommandError,
    parse,
    split_position,
    unknown_verb,
)
from bot.core.forced import hints
from bot.core.game_names import game_name
from bot.core.intents import match_hex, split_move, translate, waiting_for
from bot.core.live import GameCache, LiveGame, LoadError, encode_snapshot, engine_version, load_live
from bot.core.moves_text import lay_answer
from bot.core.notify import acting_player_ids, common_prefix, digest, newly_active
from bot.core.reminders import Pings
from bot.core.replies import Button, Notification, Outcome, Reply, refusal
from bot.core.text import board_text, broken_text, names_of, result_line, round_name
from bot.storage import (
    ConsentStatus,
    GameRecord,
    GameStatus,
    ReplayFailure,
    StaleStateError,
    StatusConflictError,
    Storage,
    TableChange,
)
from engine import ErrorCode, GameError
from engine.api import Game
from engine.core import query
from engine.core.entities import Player

log = logging.getLogger(__name__)

_ENGINE_OUTCOMES = {
    ErrorCode.MALFORMED: Outcome.MALFORMED,
    ErrorCode.NOT_YOUR_TURN: Outcome.NOT_YOUR_TURN,
    ErrorCode.ILLEGAL: Outcome.ILLEGAL,
    ErrorCode.INSUFFICIENT_FUNDS: Outcome.ILLEGAL,
    ErrorCode.GAME_OVER: Outcome.GAME_OVER,
    ErrorCode.NOTHING_TO_UNDO: Outcome.ILLEGAL,
    ErrorCode.INTERNAL: Outcome.ILLEGAL,
}
_RETRIES = 3
# A move's reply holds at most this many lines; the least important go to `history` first (narrate.cut).
_REPLY_LINES = 15
IMPORT_ACTOR = "import"
#: The actor of the bot's own notes in the log (seats handed on, requests a moderator settled).
BOT_ACTOR = "bot"
#: How the bot's notes start in the log (``history`` groups them as "At the table").
NOTE_PREFIX = "[table] "

# Per command (each handle() call runs in its own task context): the games it loaded, so that an unexpected
# error can drop them from the cache, and whether an action was stored before the error.
_TOUCHED: ContextVar[set[int] | None] = ContextVar("roundhouse_touched", default=None)
_STORED: ContextVar[list[int] | None] = ContextVar("roundhouse_stored", default=None)


@dataclass(frozen=True, slots=True)
class Request:
    platform: str
    channel: str
    user_id: str
    user_name: str
    command: Command
    attachments: tuple[bytes, ...] = ()
    #: The game's action count the command was made for (a button's ``@N``); None for typed commands.
    position: int | None = None
    clicked: bool = False  # it came from a button
    moderator: bool = False  # the adapter vouches that the sender moderates this place


#: Verbs a button may send without a position: the request number guards them instead.
_UNPOSITIONED_CLICKS = ("approve", "decline")


#: What carries out one verb for one request.
Handler = Callable[[Request], Awaitable[list[Reply]]]


class Answer(Exception):
    """Ends a command early with a ready reply (not a refusal)."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.text)
        self.reply = reply


@dataclass(slots=True)
class Applied:
    """An applied action's reply, with the views to draw once the game's lock is released."""

    reply: Reply
    views: images.Views | None = None
    ended: LiveGame | None = None  # the game this action ended: its summary goes with the reply


class ServiceCore:
    """State shared by every part of the game service, and what all of them use."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings | None = None,
        *,
        images: bool | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.settings = settings or load_settings()
        self.images = self.settings.images if images is None else images
        self.clock = clock
        self._cache = GameCache(self.settings.cache_games)
        self._locks: dict[int, asyncio.Lock] = {}
        # Games whose log this process's engine refuses: id -> (the log's last seq, the refused action).
        self._broken: dict[int, tuple[int, ReplayFailure]] = {}
        self._seeds = random.Random()
        self.pings = Pings(storage, clock)
        self._due_lock = asyncio.Lock()
        self._nudged: dict[int, float] = {}  # game id -> when its last nudge went out
        self.stories = game_story.StoryCache()  # histories for `chart` and `summary`, built when asked
        self._handlers: dict[str, Handler] = self._verb_handlers()

    def _verb_handlers(self) -> dict[str, Handler]:
        """Each verb's handler; :class:`bot.core.service.GameService` names the verbs of every part."""
        return {}

    # ------------------------------------------------------------------ entry point

    async def handle(
        self,
        platform: str,
        channel: str,
        user_id: str,
        user_name: str,
        text: str,
        *,
        attachments: Sequence[bytes] = (),
        clicked: bool = False,
        moderator: bool = False,
        command: Command | None = None,
    ) -> list[Reply]:
        """Carry out one command line (without the bot's prefix) and return the replies to post.

        ``command``: the command already built from typed options (Discord); ``text`` is then only its echo.

        A line may start with ``@N``: it then counts only while the game has exactly N stored actions (move
        buttons send their command so). Adapters pass ``clicked`` for a button's command: a move button
        without a position (made by an older version) is refused rather than applied to a later step.
        ``moderator`` gives the sender moderator rights (adapters decide: a server permission or role, a
        configured list); ``Settings.moderators`` lists more.

        Never raises for a bad command or a bug: an unexpected error is logged with a short incident id and
        answered with an ephemeral ``Outcome.INTERNAL`` refusal; the games it touched are reloaded next time.
        A command that needs a game whose stored log no longer replays is answered with ``Outcome.BROKEN``
        (:meth:`_broken_reply`).
        """
        touched: set[int] = set()
        stored: list[int] = []
        user_name = clean_name(user_name)
        tokens = (_TOUCHED.set(touched), _STORED.set(stored))
        try:
            position, text = split_position(text) if command is None else (None, text)
            command = parse(text) if command is None else command
            moderator = moderator or user_id in self.settings.moderators
            req = Request(
                platform, channel, user_id, user_name, command, tuple(attachments), position, clicked, moderator
            )
            if clicked and position is None and command.verb not in _UNPOSITIONED_CLICKS:
                raise CommandError(
                    Outcome.STALE,
                    "that button is from an earlier version of the bot; send `moves` for today's buttons",
                )
            handler = self._handlers.get(command.verb)
            if handler is not None:
                return _local_times(await handler(req), platform)
            move = split_move(command)
            if move is not None:
                return _local_times(await self._move(req, move[0], company=move[1]), platform)
            raise unknown_verb(command.verb)
        except CommandError as exc:
            return [refusal(exc.outcome, exc.message)]
        except Answer as answer:
            return [answer.reply]
        except LoadError as exc:
            return [await self._broken_reply(req, exc)]
        except Exception:
            incident = secrets.token_hex(4)
            log.exception(
                "incident %s: %r from %s/%s in %s/%s", incident, text, user_id, user_name, platform, channel
            )
            for game_id in touched:
                self._cache.drop(game_id)  # memory may be ahead of (or behind) the stored log
            sorry = f"Sorry, something went wrong on our side (incident {incident})"
            if stored:
                return [refusal(Outcome.INTERNAL, f"{sorry} after your move was stored. Check `status`.")]
            return [refusal(Outcome.INTERNAL, f"{sorry}. Nothing was stored.")]
        finally:
            _TOUCHED.reset(tokens[0])
            _STORED.reset(tokens[1])

    # ------------------------------------------------------------------ locating games

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _channel_game(self, req: Request, *, include_past: bool = False) -> GameRecord:
        """The channel's open or active game; with ``include_past`` also the sender's last game here."""
        record = await self.storage.find_game(req.platform, req.channel)
        if record is not None:
            return record
        if include_past:
            for past in await self.storage.list_games_for_user(req.platform, req.user_id):
                if past.channel == req.channel:
                    return past
        raise CommandError(Outcome.NO_GAME, "there is no game in this channel; create one with `new 1882`")

    async def _active_game(self, req: Request) -> GameRecord:
        record = await self._channel_game(req, include_past=True)
        if record.status == GameStatus.OPEN:
            raise CommandError(
                Outcome.ILLEGAL, "the game has not started yet: `join`, then the creator sends `start`"
            )
        if record.status == GameStatus.FINISHED:
            raise CommandError(
                Outcome.GAME_OVER, f"game #{record.id} is over; `export` it or create a `new` one"
            )
        if record.status == GameStatus.ABANDONED:
            raise CommandError(Outcome.NO_GAME, f"game #{record.id} was abandoned")
        return record

    @staticmethod
    def _seated_player(live: LiveGame, user_id: str) -> Player:
        """The engine player this chat user plays; spectators are refused."""
        player = live.player_of(user_id)
        if player is None:
            raise CommandError(
                Outcome.NOT_SEATED, "you are not playing in this game (spectators can use status, who, history)"
            )
        return player

    async def _live(self, record: GameRecord) -> LiveGame:
        """The live game, brought up to date with the stored log. Call with the game's lock held.

        Raises LoadError if the log does not replay with this engine; the game is then marked broken in
        storage. A marked game that replays again (the engine was fixed) loses its mark here.
        """
        touched = _TOUCHED.get()
        if touched is not None:
            touched.add(record.id)
        live = self._cache.get(record.id)
        last = await self.storage.last_seq(record.id)
        known = self._broken.get(record.id)
        if known is not None and known[0] == last:
            raise LoadError(await self.storage.get_game(record.id), known[1])
        if record.broken is not None:
            live = None  # marked (maybe by another engine): replay it afresh
        if live is not None and await self.storage.list_seats(record.id) != live.seats:
            live = None  # another process handed a seat on: the game in memory has the old players
        if live is not None and last > live.seq:
            try:
                for _, action in await self.storage.load_actions(record.id, after_seq=live.seq):
                    live.game.process(action)
                    live.seq += 1
            except GameError:
                live = None
        if live is None or live.seq != last:
            self._cache.drop(record.id)
            seats = await self.storage.list_seats(record.id)
            try:
                live = await load_live(self.storage, record, seats)
            except LoadError as exc:
                self._broken[record.id] = (last, exc.failure)
                exc.record = await self._mark_broken(record, exc.failure)
                raise
            self._broken.pop(record.id, None)
            if record.broken is not None:
                record = live.record = await self.storage.clear_broken(record.id)
                log.warning("game %s replays again with %s: mark cleared", record.id, engine_version())
            self._cache.put(live)
            if live.seq - live.snapshot_seq >= self.settings.snapshot_every:
                await self._snapshot(live)
        live.record = record
        if live.game.finished and record.status == GameStatus.ACTIVE:
            # The process stopped between storing the last action and marking the game finished.
            live.record = await self.storage.update_game_status(record.id, GameStatus.FINISHED)
        return live

    async def _mark_broken(self, record: GameRecord, failure: ReplayFailure) -> GameRecord:
        marked = await self.storage.mark_broken(record.id, failure)
        if record.broken is None or record.broken.failure != failure:
            log.error(
                "game %s cannot continue with %s: stored action %s (%s) is refused: %s",
                record.id,
                failure.engine_version,
                failure.seq,
                failure.action_type,
                failure.message,
            )
        return marked

    async def _refuse_if_broken(self, record: GameRecord) -> None:
        """Raise LoadError for a game marked broken that still does not replay (a fixed one loses its mark)."""
        if record.broken is not None:
            async with self._lock(record.id):
                await self._live(record)

    async def _broken_reply(self, req: Request, exc: LoadError) -> Reply:
        """The answer to any command that needs a game whose log no longer replays.

        The first such command in the game's own channel posts the notice there for everyone (mentioning the
        players); every later one, and any from elsewhere, gets it back privately.
        """
        record, text = exc.record, broken_text(exc.record, exc.failure)
        here = (req.platform, req.channel) == (record.platform, record.channel)
        if here and await self.storage.claim_broken_notice(record.id):
            seats = await self.storage.list_seats(record.id)
            mentions = [s.user_id for s in seats]
            return Reply(text, outcome=Outcome.BROKEN, mentions=mentions, game_id=record.id)
        return refusal(Outcome.BROKEN, text, record.id)

    async def _snapshot(self, live: LiveGame) -> None:
        try:
            await self.storage.save_snapshot(live.id, live.seq, encode_snapshot(live.game))
            live.snapshot_seq = live.seq
        except Exception:  # a missing snapshot only makes the next load slower
            log.exception("snapshot of game %s at %s failed", live.id, live.seq)

    # ------------------------------------------------------------------ moves

    async def _move(self, req: Request, command: Command, *, company: str | None = None) -> list[Reply]:
        record = await self._active_game(req)
        # The log as the sender saw it when the command arrived: the same move stored since then by the
        # same player is this one sent twice (a double send, or two processes racing), not a new move.
        cached = self._cache.get(record.id)
        arrived = await self.storage.last_seq(record.id)
        if cached is not None and arrived - cached.seq == 1:
            # Another process stored one move while this command was on its way here: the game as this process
            # last showed it is what the sender saw, so the same move by the same player is this one, sent twice.
            arrived = cached.seq
        async with self._lock(record.id):
            for _ in range(_RETRIES):
                live = await self._live(record)
                self._check_position(req, live)
                if company is not None and company.upper() not in {c.upper() for c in live.game.companies}:
                    raise unknown_verb(company)
                player = self._seated_player(live, req.user_id)
                if command.verb == "lay" and len(command.args) == 1 and not live.game.finished:
                    return [await self._lay_options(live, player, command.args[0])]
                try:
                    intent = translate(live.game, player, command, company=company)
                except CommandError as exc:
                    # "cannot pass now; you can: discard" says what, the forced step's line says why.
                    refused_step = exc.outcome == Outcome.ILLEGAL and " now; you can" in exc.message
                    why = hints(live.game) if refused_step else []
                    if why:
                        raise CommandError(exc.outcome, exc.message + "\n" + "\n".join(why)) from None
                    raise
                if req.position is None and live.seq > arrived:
                    await self._refuse_repeat(live, arrived, req.user_id, intent.action)
                if intent.counterparty is not None:
                    seat = live.user_of(intent.counterparty.id)
                    if seat is not None:
                        payload = {
                            "action": intent.action,
                            "seq": live.seq,
                            "pid": player.id,
                            "what": intent.deal,
                        }
                        reply = await self._ask(live, req, "deal", payload, [seat.user_id], intent.deal)
                        return [reply]
                try:
                    applied = await self._apply(live, intent.action, req.user_id, player.id)
                except StaleStateError:
                    self._cache.drop(record.id)
                    if req.position is not None:
                        raise self._stale(req.position, live.id) from None
                    continue
                break
            else:
                return [
                    refusal(
                        Outcome.CONFLICT,
                        "the game changed while your command was handled; check `who` and try again",
                        record.id,
                    )
                ]
        return [await self._with_pictures(applied)]

    async def _lay_options(self, live: LiveGame, player: Player, word: str) -> Reply:
        """``lay HEX``: every tile and rotation that fits there with its cost, and their picture."""
        hex_id = match_hex(live.game, word)
        text, drawn = lay_answer(live.game, player, hex_id)
        picture = images.lay_picture(live.game, live.id, hex_id, drawn) if drawn and self.images else None
        reply = Reply(text, ephemeral=True, game_id=live.id)
        reply.attachments.extend(await images.render_lay(picture))
        return reply

    async def _approved_request(self, record: GameRecord, consent: Any, head: str, note: str = "") -> Reply | None:
        """Carry out an approved request of a kind a part of the service adds, settling it and storing ``note``
        with it (None: not one of those)."""
        return None

    async def _abandon_now(self, req: Request, live: LiveGame) -> Reply | None:
        """Abandon a started game without asking the others, when the sender may (None: they must ask)."""
        return None

    def _check_position(self, req: Request, live: LiveGame) -> None:
        """Refuse a command made for another step of the game (a button clicked twice, or late)."""
        if req.position is not None and req.position != live.seq:
            raise self._stale(req.position, live.id)

    @staticmethod
    def _stale(position: int, game_id: int) -> CommandError:
        return CommandError(
            Outcome.STALE,
            f"that button is from an earlier step of game #{game_id} (action {position}); the game has moved "
            "on, so nothing was done. Send `moves` for what you can do now",
        )

    async def _refuse_repeat(self, live: LiveGame, arrived: int, user_id: str, action: dict[str, Any]) -> None:
        """Refuse ``action`` if this user stored the same move after the command arrived."""
        for record in await self.storage.load_action_records(live.id, after_seq=arrived):
            if record.actor == user_id and _same_move(record.data, action):
                raise CommandError(
                    Outcome.CONFLICT,
                    f"that move was just made (action {record.seq}); it was sent twice and counted once",
                )

    async def _apply(
        self,
        live: LiveGame,
        action: dict[str, Any],
        actor: str,
        actor_pid: int | None,
        *,
        notes: Sequence[dict[str, Any]] = (),
        consent: tuple[int, ConsentStatus] | None = None,
    ) -> Applied:
        """Let the engine apply ``action`` and store it. Call with the game's lock held.

        ``notes`` (the bot's message actions, already applied to ``live.game`` but not counted in ``live.seq``)
        are stored before it and ``consent``
        (a request this action carries out) is settled with it, in the same transaction: all or nothing.
        Raises StaleStateError (after dropping the live game) if the stored log moved on meanwhile.
        """
        game = live.game
        before = acting_player_ids(game)
        round_before = round_name(game)
        kind = action["type"]
        # Undo and redo rewrite the log, so their reply compares old and new; other moves only append to it.
        old_log = list(game.log_lines) if kind in ("undo", "redo") else []
        try:
            outcome = game.process(action)
        except GameError as exc:
            if kind in ("undo", "redo") or notes:
                self._cache.drop(live.id)  # a failed rebuild may leave anything behind; notes are unstored
            return Applied(refusal(_ENGINE_OUTCOMES.get(exc.code, Outcome.ILLEGAL), exc.message, live.id))
        except Exception:
            self._cache.drop(live.id)
            raise
        stored = game.raw_actions[-1]
        try:
            if notes or consent is not None:
                first = live.seq + 1  # notes are in the engine's log, not yet counted in live.seq
                rows = (*((note, BOT_ACTOR) for note in notes), (stored, actor))
                seq = (await self.storage.commit(live.id, first, TableChange(rows, consent=consent))).last_seq
            else:
                seq = await self.storage.append_action(live.id, live.seq + 1, stored, actor)
        except StatusConflictError as exc:
            self._cache.drop(live.id)
            if exc.entity == "consent":
                raise settled_refusal(live.id, exc) from None
            raise CommandError(Outcome.GAME_OVER, f"game #{live.id} is {exc.actual} now; nothing was stored") from None
        except BaseException:
            self._cache.drop(live.id)  # memory is ahead of the database
            raise
        live.seq = seq
        stored_seqs = _STORED.get()
        if stored_seqs is not None:
            stored_seqs.append(seq)
        if actor_pid is not None:
            live.last_seen[actor_pid] = len(game.log_lines)
        if game.finished:
            with contextlib.suppress(StatusConflictError):
                live.record = await self.storage.update_game_status(live.id, GameStatus.FINISHED)
        if live.seq - live.snapshot_seq >= self.settings.snapshot_every:
            await self._snapshot(live)
        if kind in ("undo", "redo"):
            keep = common_prefix(old_log, game.log_lines)
            gone = old_log[keep:]
            lines = (
                # A move the engine logs nothing for (a choice) leaves no line to list.
                (["Taken back:", *gone[-10:]] if gone else ["Taken back: the last move."])
                if kind == "undo"
                else ["Restored:", *game.log_lines[keep:][-10:]]
            )
        else:
            lines = narrate.cut(narrate.narrate(outcome.events, names_of(live)), _REPLY_LINES)
        reply = Reply(
            "\n".join(lines) if lines else _quiet_move(game, action), game_id=live.id, seq=seq
        )
        after = acting_player_ids(game)
        fresh = newly_active(before, after)
        if game.finished:
            reply.text += "\n" + result_line(live)
            for seat in live.seats:
                reply.notify.append(
                    Notification(
                        seat.user_id,
                        f"{game_name(live.record)} game #{live.id} is over. " + result_line(live),
                        "game_end",
                        live.id,
                    )
                )
            reply.mentions.extend(s.user_id for s in live.seats)
            await self.pings.cancel(live.id)
        else:
            reply.text += "\n" + self._next_line(live)
            for pid in fresh:
                waiting = live.user_of(pid)
                if waiting is None or waiting.user_id == actor:
                    continue  # the sender is here already
                reply.mentions.append(waiting.user_id)
                reply.notify.append(Notification(waiting.user_id, self._turn_text(live, pid), "turn", live.id))
            reply.buttons = self._buttons(live)
            await self.pings.track(live, before, actor)
        await self.pings.route(live, reply)
        # The status card goes out with the map at each operating round's end (and at the game's end).
        round_ended = round_before.startswith("Operating") and round_name(game) != round_before
        kinds = (*images.KINDS, "status") if round_ended or game.finished else images.KINDS
        # A tile or a station: a phone-sized crop around it (the whole map stays on `map`).
        focus = () if round_ended or game.finished else images.changed_hexes(game, action)
        views = images.take_views(game, live.id, seq, kinds, focus) if self.images else None
        reply.board = board_text(live)
        return Applied(reply, views, live if game.finished else None)

    def _buttons(self, live: LiveGame) -> list[Button]:
        """One-click moves for whoever acts now (anyone may see them; only the acting player's click works)."""
        if live.game.finished:
            return []
        pids = acting_player_ids(live.game)
        players = [p for pid in pids for p in live.game.players if p.id == pid]
        return choices.move_buttons(live.game, players, live.seq)

    def _next_line(self, live: LiveGame) -> str:
        names = names_of(live)
        lines = [f"{round_name(live.game)}. Next: {waiting_for(live.game)}"]
        lines += [f"  {hint}" for hint in hints(live.game)]
        return "\n".join(names.text(line) for line in lines)

    def _turn_text(self, live: LiveGame, pid: int) -> str:
        game = live.game
        mine = [names_of(live).text(a.label) for a in query.actors(game) if a.player_id == pid]
        lines = [
            f"Your turn in {game_name(live.record)} game #{live.id} ({live.record.channel}): "
            f"{round_name(game)}, {', '.join(mine)}.",
        ]
        names = names_of(live)
        recent = [
            names.text(line)
            for line in digest(
                game.log_lines, live.last_seen.get(pid), keep=_concerns(game, pid), setup=game.setup_log_length
            )
        ]
        if recent:
            lines.append("Since your last turn:")
            lines.extend("  " + line for line in recent)
        return "\n".join(lines)

    async def _with_pictures(self, applied: Applied) -> Reply:
        if applied.views is not None:
            with metrics.Timer(metrics.picture):
                applied.reply.attachments.extend(await images.render(applied.views))
        if applied.ended is not None:
            await self._add_summary(applied.reply, applied.ended)
        return applied.reply

    async def _add_summary(self, reply: Reply, live: LiveGame) -> None:
        """The end-of-game summary under the result line: worth in parts, the numbers, the card and charts."""
        try:
            text, pictures = await game_story.summary(self.storage, self.stories, live, pictures=self.images)
        except Exception:  # the summary is a bonus: the result line has gone out already
            log.exception("the summary of game %s failed", live.id)
            return
        reply.text += "\n" + "\n".join(text.splitlines()[1:])  # its first line repeats the result line
        reply.attachments.extend(pictures)

    async def _ask(
        self,
        live: LiveGame,
        req: Request,
        kind: str,
        payload: dict[str, Any],
        approvers: list[str],
        what: str,
    ) -> Reply:
        now = self.clock()
        for old in await self.storage.list_consents(live.id):
            if old.requested_by == req.user_id and old.kind == kind and old.payload == payload:
                waiting = ", ".join(self._seat_name(live, u) for u, vote in old.approvers.items() if vote is None)
                raise CommandError(Outcome.PENDING, f"request {old.id} ({what}) is already waiting for "
                                                    f"{waiting or 'the others'}; nothing new was asked")
            if old.requested_by == req.user_id:
                # A new request from the same player replaces their older one.
                with contextlib.suppress(StatusConflictError):
                    await self.storage.resolve_consent(old.id, ConsentStatus.CANCELLED, now=now)
        expires = now + self.settings.consent_hours * 3600
        cid = await self.storage.create_consent(
            game_id=live.id,
            kind=kind,
            requested_by=req.user_id,
            approvers=approvers,
            payload=payload,
            expires_at=expires,
        )
        names = ", ".join(self._seat_name(live, u) for u in approvers)
        text = (
            f"Request {cid} from {req.user_name}: {what}. Waiting for {names}: send `approve {cid}` or "
            f"`decline {cid}`."
        )
        reply = Reply(
            text,
            outcome=Outcome.PENDING,
            mentions=list(approvers),
            game_id=live.id,
            buttons=choices.consent_buttons(cid),
        )
        for user in approvers:
            reply.notify.append(
                Notification(
                    user,
                    f"Request {cid} from {req.user_name} in {game_name(live.record)} game #{live.id} "
                    f"({live.record.channel}): {what}. Send `approve {cid}` or `decline {cid}`.",
                    "consent",
                    live.id,
                    buttons=tuple(choices.consent_buttons(cid)),
                )
            )
        await self.pings.route(live, reply)
        return reply

    @staticmethod
    def _seat_name(live: LiveGame, user_id: str) -> str:
        seat = live.seat_of(user_id)
        return seat.display_name if seat else user_id

    @contextlib.asynccontextmanager
    async def _locked_live(self, record: GameRecord) -> AsyncIterator[LiveGame]:
        async with self._lock(record.id):
            yield await self._live(record)

    # ------------------------------------------------------------------ the bot's notes in the log

    def _note_action(self, live: LiveGame, text: str, player_id: int | None) -> dict[str, Any]:
        """``text`` as a message action, applied to the live game and returned for storing: the caller stores
        it together with the change it records (:meth:`bot.storage.Storage.commit`), or drops the live game."""
        pid = player_id if player_id is not None else live.game.players[0].id
        action: dict[str, Any] = {
            "type": "message",
            "entity": pid,
            "entity_type": "player",
            "message": NOTE_PREFIX + text,
        }
        live.game.process(action)
        return dict(live.game.raw_actions[-1])

    async def _commit_notes(
        self,
        live: LiveGame,
        texts: Sequence[str],
        *,
        consent: tuple[int, ConsentStatus] | None = None,
        status: GameStatus | None = None,
        player_id: int | None = None,
    ) -> None:
        """Store notes with the change they record (a settled request, the game's end) in one transaction.
        Call with the game's lock held. Raises StaleStateError when the log moved on meanwhile."""
        notes = [self._note_action(live, text, player_id) for text in texts]
        try:
            committed = await self.storage.commit(
                live.id,
                live.seq + 1 if notes else None,
                TableChange(tuple((n, BOT_ACTOR) for n in notes), consent=consent, status=status),
            )
        except StatusConflictError as exc:
            self._cache.drop(live.id)
            raise settled_refusal(live.id, exc) from None
        except BaseException:
            self._cache.drop(live.id)
            raise
        live.seq = committed.last_seq


def settled_refusal(game_id: int, exc: StatusConflictError) -> CommandError:
    """The refusal when a request or a game was settled by someone else meanwhile."""
    if exc.entity == "consent":
        return CommandError(Outcome.ILLEGAL, f"request {exc.key} was {exc.actual} meanwhile; nothing was changed")
    return CommandError(Outcome.ILLEGAL, f"game #{game_id} is {exc.actual} now; nothing was changed")


def _quiet_move(game: Game, action: dict[str, Any]) -> str:
    """The reply to a move the engine logs nothing for (a pass that ends a step)."""
    kind = str(action["type"])
    ref = action.get("entity")
    try:
        who = game.describe(game.player_by_id(ref) if action.get("entity_type") == "player" else
                             game.corporations.get(str(ref)) or game.companies.get(str(ref)))
    except Exception:
        who = str(ref)
    if kind == "pass":
        return f"{who} passes"
    if kind == "merge":
        target = game.corporations.get(str(action.get("corporation")))
        verb = "takes over minor" if target is not None and target.kind.value == "minor" else "merges with"
        return f"{who} {verb} {action.get('corporation')}"
    if kind in ("choose", "choose_ability"):
        initiator = getattr(game.round, "merge_initiator", None)
        if initiator is not None and getattr(initiator, "sym", None) == action.get("choice"):
            return f"{who} starts a merger with {initiator.sym}: `merge CORP` names the company it merges with"
        return f"{who} chooses {action.get('choice')}"
    return f"{who}: {kind.replace('_', ' ')}"


def _local_times(replies: list[Reply], platform: str) -> list[Reply]:
    """Time markers become each platform's reader-local form (``bot.core.timefmt``); Slack's adapter turns
    them into dates itself, after escaping the text for mrkdwn."""
    if platform == "slack":
        return replies
    for reply in replies:
        reply.text = timefmt.render(reply.text, platform)
        reply.notify = [replace(n, text=timefmt.render(n.text, n.platform or platform)) for n in reply.notify]
    return replies


def _concerns(game: Game, pid: int) -> Callable[[str], bool]:
    """Whether a log line is about this player: their name, or a company they hold shares in."""
    player = next((p for p in game.players if p.id == pid), None)
    words = {player.name} if player is not None else set()
    if player is not None:
        words |= {s.corp for s in player.shares}
        words |= {c.sym for c in player.companies}

    def keep(line: str) -> bool:
        tokens = set(line.replace(",", " ").replace(":", " ").replace("'s", " ").split())
        return bool(tokens & words) or any(w in line for w in words if " " in w)

    return keep


def clean_name(name: str) -> str:
    """A display name that fits on one line: control characters and line breaks become spaces.

    Names end up inside the bot's replies, and a name holding a line break would add a line of its own
    (in the console, one that looks like the bot talking).
    """
    cleaned = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in name)
    return " ".join(cleaned.split())[:80] or "someone"


def _same_move(stored: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether a stored action is ``action`` sent again: the same move on the same kind of thing.

    The engine adds an id and a time when it stores an action, and the second copy of a move names the next
    certificate or train of the same kind (``2-1`` after ``2-0``, ``CPR_2`` after ``CPR_1``).
    """
    return all(
        _kind(stored.get(key)) == _kind(value) for key, value in action.items() if key not in ("id", "created_at")
    )


_NUMBERED = re.compile(r"^(.*?)[-_][0-9]+$")


def _kind(value: Any) -> Any:
    if isinstance(value, str):
        match = _NUMBERED.match(value)
        return match.group(1) if match else value
    if isinstance(value, list):
        return [_kind(v) for v in value]
    return value


def _with_args(run: Callable[[Any, Sequence[str]], Awaitable[list[Reply]]]) -> Handler:
    async def handler(req: Request) -> list[Reply]:
        return await run(req, req.command.args)

    return handler
