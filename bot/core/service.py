"""The game service: one command from one chat user in, platform-neutral replies out.

Flow of a move (style guide §3.3): take the game's lock, bring the live game up to date with the stored log,
map the chat user to their seat, translate the command into one of the engine's legal actions, let the engine
apply it, then append that one action in one transaction with the seq it was computed from. If the append
finds the log moved on (another process got there first), the live game is dropped and the command is
re-checked against the fresh state. The engine refusing means nothing is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings, load_settings
from bot.core import choices, images
from bot.core import prefs as prefs_mod
from bot.core.commands import (
    Command,
    CommandError,
    did_you_mean,
    help_text,
    illegal,
    malformed,
    parse,
    unknown_verb,
    verb_named,
)
from bot.core.intents import TYPE_WORDS, legal_commands, split_move, to_int, translate, waiting_for
from bot.core.live import GameCache, LiveGame, LoadError, encode_snapshot, engine_version, load_live
from bot.core.notify import acting_player_ids, common_prefix, digest, newly_active
from bot.core.reminders import Pings
from bot.core.replies import Attachment, Button, Notification, Outcome, Reply, refusal
from bot.core.settings_verbs import SettingsVerbs
from bot.core.text import history_page, result_line, round_name, status_lines, who_lines
from bot.storage import (
    LIVE_STATUSES,
    ActionRecord,
    ChannelBusyError,
    ConsentStatus,
    GameRecord,
    GameStatus,
    NotFoundError,
    SeatTakenError,
    StaleStateError,
    StatusConflictError,
    Storage,
)
from engine import TITLES, ErrorCode, GameError, title_class
from engine.core import query
from engine.core.actions import filter_undo

log = logging.getLogger(__name__)

_ENGINE_OUTCOMES = {
    ErrorCode.MALFORMED: Outcome.MALFORMED,
    ErrorCode.NOT_YOUR_TURN: Outcome.NOT_YOUR_TURN,
    ErrorCode.ILLEGAL: Outcome.ILLEGAL,
    ErrorCode.INSUFFICIENT_FUNDS: Outcome.ILLEGAL,
    ErrorCode.GAME_OVER: Outcome.GAME_OVER,
    ErrorCode.NOTHING_TO_UNDO: Outcome.ILLEGAL,
}
_RETRIES = 3
_IMPORT_ACTOR = "import"

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


class _Answer(Exception):
    """Ends a command early with a ready reply (not a refusal)."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(reply.text)
        self.reply = reply


@dataclass(slots=True)
class _Applied:
    """An applied action's reply, with the views to draw once the game's lock is released."""

    reply: Reply
    views: images.Views | None = None


@dataclass(slots=True)
class _Undo:
    action: dict[str, Any]
    others: list[str]  # chat users whose actions it removes (they must approve)
    removed: list[ActionRecord] = field(default_factory=list)


class GameService:
    """Runs every game of every channel. Adapters call :meth:`handle` and deliver the replies."""

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
        self._seeds = random.Random()
        self.pings = Pings(storage, clock)
        self._due_lock = asyncio.Lock()
        self._handlers: dict[str, Callable[[Request], Awaitable[list[Reply]]]] = {
            "new": self._new,
            "join": self._join,
            "leave": self._leave,
            "start": self._start,
            "abandon": self._abandon,
            "import": self._import,
            "export": self._export,
            "status": self._status,
            "who": self._who,
            "moves": self._moves,
            "history": self._history,
            "games": self._games,
            "map": self._pictures,
            "market": self._pictures,
            "help": self._help,
            "undo": self._undo,
            "redo": self._redo,
            "approve": self._vote,
            "decline": self._vote,
        }
        self.settings_verbs = SettingsVerbs(storage, self.pings, clock, self._locked_live)
        for verb, run in (
            ("notify", self.settings_verbs.notify),
            ("remind", self.settings_verbs.remind),
            ("quiet", self.settings_verbs.quiet),
            ("away", self.settings_verbs.away),
            ("prefs", self.settings_verbs.show),
        ):
            self._handlers[verb] = _with_args(run)

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], settings: Settings | None = None, **kwargs: Any
    ) -> GameService:
        """Open (creating) the database at ``path`` and a service on it."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        storage = await Storage.open(path)
        await asyncio.to_thread(images.warm_up)
        return cls(storage, settings, **kwargs)

    async def close(self) -> None:
        await self.storage.close()

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
    ) -> list[Reply]:
        """Carry out one command line (without the bot's prefix) and return the replies to post.

        Never raises for a bad command or a bug: an unexpected error is logged with a short incident id and
        answered with an ephemeral ``Outcome.INTERNAL`` refusal; the games it touched are reloaded next time.
        """
        touched: set[int] = set()
        stored: list[int] = []
        tokens = (_TOUCHED.set(touched), _STORED.set(stored))
        try:
            command = parse(text)
            req = Request(platform, channel, user_id, user_name, command, tuple(attachments))
            handler = self._handlers.get(command.verb)
            if handler is not None:
                return await handler(req)
            move = split_move(command)
            if move is not None:
                return await self._move(req, move[0], company=move[1])
            raise unknown_verb(command.verb)
        except CommandError as exc:
            return [refusal(exc.outcome, exc.message)]
        except _Answer as answer:
            return [answer.reply]
        except LoadError as exc:
            log.error("%s", exc)
            return [refusal(Outcome.ILLEGAL, str(exc))]
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

    async def _live(self, record: GameRecord) -> LiveGame:
        """The live game, brought up to date with the stored log. Call with the game's lock held."""
        touched = _TOUCHED.get()
        if touched is not None:
            touched.add(record.id)
        live = self._cache.get(record.id)
        last = await self.storage.last_seq(record.id)
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
            live = await load_live(self.storage, record, seats)
            self._cache.put(live)
            if live.seq - live.snapshot_seq >= self.settings.snapshot_every:
                await self._snapshot(live)
        live.record = record
        if live.game.finished and record.status == GameStatus.ACTIVE:
            # The process stopped between storing the last action and marking the game finished.
            live.record = await self.storage.update_game_status(record.id, GameStatus.FINISHED)
        return live

    async def _snapshot(self, live: LiveGame) -> None:
        try:
            await self.storage.save_snapshot(live.id, live.seq, encode_snapshot(live.game))
            live.snapshot_seq = live.seq
        except Exception:  # a missing snapshot only makes the next load slower
            log.exception("snapshot of game %s at %s failed", live.id, live.seq)

    # ------------------------------------------------------------------ moves

    async def _move(self, req: Request, command: Command, *, company: str | None = None) -> list[Reply]:
        record = await self._active_game(req)
        async with self._lock(record.id):
            for _ in range(_RETRIES):
                live = await self._live(record)
                if company is not None and company.upper() not in {c.upper() for c in live.game.companies}:
                    raise unknown_verb(company)
                player = live.player_of(req.user_id)
                if player is None:
                    raise CommandError(
                        Outcome.NOT_SEATED,
                        "you are not playing in this game (spectators can use status, who, history)",
                    )
                intent = translate(live.game, player, command, company=company)
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

    async def _apply(
        self, live: LiveGame, action: dict[str, Any], actor: str, actor_pid: int | None
    ) -> _Applied:
        """Let the engine apply ``action`` and store it. Call with the game's lock held.

        Raises StaleStateError (after dropping the live game) if the stored log moved on meanwhile.
        """
        game = live.game
        before = acting_player_ids(game)
        old_log = list(game.log_lines)
        kind = action["type"]
        try:
            game.process(action)
        except GameError as exc:
            if kind in ("undo", "redo"):
                self._cache.drop(live.id)  # a failed rebuild may leave anything behind
            return _Applied(refusal(_ENGINE_OUTCOMES.get(exc.code, Outcome.ILLEGAL), exc.message, live.id))
        except Exception:
            self._cache.drop(live.id)
            raise
        stored = game.raw_actions[-1]
        try:
            seq = await self.storage.append_action(live.id, live.seq + 1, stored, actor)
        except BaseException:
            self._cache.drop(live.id)  # memory is ahead of the database
            raise
        live.seq = seq
        stored = _STORED.get()
        if stored is not None:
            stored.append(seq)
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
                ["Taken back:", *gone[-10:]]
                if kind == "undo"
                else ["Restored:", *game.log_lines[keep:][-10:]]
            )
        else:
            lines = list(game.log_lines[len(old_log) :])
            if len(lines) > 15:
                lines = [f"({len(lines) - 15} more lines in `history`)", *lines[-15:]]
        reply = Reply(
            "\n".join(lines) if lines else f"{kind.replace('_', ' ')} done", game_id=live.id, seq=seq
        )
        after = acting_player_ids(game)
        fresh = newly_active(before, after)
        if game.finished:
            reply.text += "\n" + result_line(live)
            for seat in live.seats:
                reply.notify.append(
                    Notification(
                        seat.user_id,
                        f"{live.record.title} game #{live.id} is over. " + result_line(live),
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
        views = images.take_views(game, live.id, seq) if self.images else None
        return _Applied(reply, views)

    def _buttons(self, live: LiveGame) -> list[Button]:
        """One-click moves for whoever acts now (anyone may see them; only the acting player's click works)."""
        if live.game.finished:
            return []
        pids = acting_player_ids(live.game)
        players = [p for pid in pids for p in live.game.players if p.id == pid]
        return choices.move_buttons(live.game, players)

    def _next_line(self, live: LiveGame) -> str:
        return f"{round_name(live.game)}. Next: {waiting_for(live.game)}"

    def _turn_text(self, live: LiveGame, pid: int) -> str:
        game = live.game
        mine = [a.label for a in query.actors(game) if a.player_id == pid]
        lines = [
            f"Your turn in {live.record.title} game #{live.id} ({live.record.channel}): "
            f"{round_name(game)}, {', '.join(mine)}.",
        ]
        recent = digest(game.log_lines, live.last_seen.get(pid))
        if recent:
            lines.append("Since your last turn:")
            lines.extend("  " + line for line in recent)
        return "\n".join(lines)

    async def _with_pictures(self, applied: _Applied) -> Reply:
        if applied.views is not None:
            applied.reply.attachments.extend(await images.render(applied.views))
        return applied.reply

    # ------------------------------------------------------------------ setting up

    async def _new(self, req: Request) -> list[Reply]:
        args = req.command.args
        if not args:
            raise malformed(f"name the title: `new TITLE`; available: {', '.join(TITLES)}")
        try:
            cls = title_class(args[0])
        except GameError:
            raise malformed(
                f"no title {args[0]}{did_you_mean(args[0], list(TITLES))}; available: {', '.join(TITLES)}"
            ) from None
        low, high = _player_range(cls)
        seed: int | None = None
        options: dict[str, Any] = {"optional_rules": []}
        for word in args[1:]:
            key, sep, value = word.partition("=")
            if sep and key.lower() == "seed":
                seed = to_int(value, "the seed")
            elif sep and key.lower() in ("players", "max_players"):
                cap = to_int(value, "the number of players")
                if not low <= cap <= high:
                    raise illegal(f"{cls.TITLE} is for {low} to {high} players, not {cap}")
                options["max_players"] = cap
            else:
                options["optional_rules"].append(word)
        if seed is None:
            seed = self._seeds.randrange(1, 2**31)
        try:
            game_id = await self.storage.create_game(
                platform=req.platform,
                channel=req.channel,
                title=cls.TITLE,
                seed=seed,
                options=options,
                engine_version=engine_version(),
                created_by=req.user_id,
            )
        except ChannelBusyError as exc:
            raise CommandError(
                Outcome.ILLEGAL,
                f"this channel already has game #{exc.game_id}; finish or "
                "`abandon` it, or use another channel or thread",
            ) from None
        except ValueError as exc:
            raise malformed(str(exc)) from None
        await self.storage.add_seat(
            game_id, platform=req.platform, user_id=req.user_id, display_name=req.user_name
        )
        cap = options.get("max_players", high)
        text = (
            f"{req.user_name} created {cls.TITLE} game #{game_id} and takes seat 1. Others: `join`. "
            f"Then {req.user_name} sends `start` ({low} to {cap} players)."
        )
        if options["optional_rules"]:
            text += f" Optional rules: {', '.join(options['optional_rules'])}."
        return [Reply(text, game_id=game_id)]

    async def _open_game(self, req: Request) -> GameRecord:
        record = await self._channel_game(req)
        if record.status != GameStatus.OPEN:
            raise illegal(f"game #{record.id} has already started")
        return record

    async def _join(self, req: Request) -> list[Reply]:
        record = await self._open_game(req)
        async with self._lock(record.id):
            seats = await self.storage.list_seats(record.id)
            if any(s.user_id == req.user_id for s in seats):
                raise illegal("you already have a seat in this game")
            imported = record.options.get("players")
            kwargs: dict[str, Any] = {}
            if imported:
                taken = {s.player_id for s in seats}
                free = [
                    (i, int(pid), name) for i, (pid, name) in enumerate(imported) if int(pid) not in taken
                ]
                if not free:
                    raise illegal("every imported player already has a seat")
                pick = free[0]
                if req.command.args:
                    wanted = " ".join(req.command.args).lower()
                    hits = [f for f in free if f[2].lower() == wanted]
                    if not hits:
                        free_names = [f[2] for f in free]
                        raise malformed(
                            f"no free player {' '.join(req.command.args)}"
                            f"{did_you_mean(wanted, free_names)}; free: {', '.join(free_names)}"
                        )
                    pick = hits[0]
                kwargs = {"seat": pick[0], "player_id": pick[1]}
            else:
                _, high = _player_range(title_class(record.title))
                cap = int(record.options.get("max_players", high))
                if len(seats) >= cap:
                    raise illegal(f"the game is full ({cap} players)")
            try:
                seat = await self.storage.add_seat(
                    record.id,
                    platform=req.platform,
                    user_id=req.user_id,
                    display_name=req.user_name,
                    **kwargs,
                )
            except SeatTakenError as exc:
                raise illegal(f"that seat is taken ({exc})") from None
            seats = await self.storage.list_seats(record.id)
        names = ", ".join(s.display_name for s in seats)
        as_whom = f" as {imported[seat.seat][1]}" if imported else ""
        return [
            Reply(f"{req.user_name} joins game #{record.id}{as_whom}. Seated: {names}.", game_id=record.id)
        ]

    async def _leave(self, req: Request) -> list[Reply]:
        record = await self._open_game(req)
        async with self._lock(record.id):
            try:
                await self.storage.remove_seat(record.id, req.user_id)
            except NotFoundError:
                raise illegal("you have no seat in this game") from None
            seats = await self.storage.list_seats(record.id)
            if not seats:
                await self.storage.update_game_status(record.id, GameStatus.ABANDONED)
                return [
                    Reply(
                        f"{req.user_name} leaves; game #{record.id} has nobody left and is closed.",
                        game_id=record.id,
                    )
                ]
        names = ", ".join(s.display_name for s in seats) or "nobody"
        return [Reply(f"{req.user_name} leaves game #{record.id}. Seated: {names}.", game_id=record.id)]

    def _may_start(self, record: GameRecord, seats: list[Any], user_id: str) -> bool:
        if record.created_by == user_id:
            return True
        creator_seated = any(s.user_id == record.created_by for s in seats)
        return not creator_seated and bool(seats) and seats[0].user_id == user_id

    async def _start(self, req: Request) -> list[Reply]:
        record = await self._open_game(req)
        shuffle = any(a.lower() in ("shuffle", "random") for a in req.command.args)
        async with self._lock(record.id):
            seats = await self.storage.list_seats(record.id)
            if not self._may_start(record, seats, req.user_id):
                raise CommandError(Outcome.DENIED, "only the player who created the game can start it")
            imported = record.options.get("players")
            if imported:
                if shuffle:
                    raise illegal("an imported game keeps its seat order")
                missing = [name for pid, name in imported if int(pid) not in {s.player_id for s in seats}]
                if missing:
                    raise illegal(f"every imported player needs a seat first; free: {', '.join(missing)}")
                stored = await self.storage.last_seq(record.id)
                if stored != int(record.options.get("imported_actions", stored)):
                    raise illegal("the import is incomplete; `abandon` this game and import it again")
            else:
                low, high = _player_range(title_class(record.title))
                if not low <= len(seats) <= high:
                    raise illegal(f"{record.title} needs {low} to {high} players; {len(seats)} seated")
                order = list(seats)
                if shuffle:
                    random.Random(record.seed).shuffle(order)
                await self.storage.assign_player_ids(record.id, {s.seat: i + 1 for i, s in enumerate(order)})
            try:
                record = await self.storage.update_game_status(
                    record.id, GameStatus.ACTIVE, expected=GameStatus.OPEN
                )
            except StatusConflictError:
                raise illegal(f"game #{record.id} has already started") from None
            self._cache.drop(record.id)
            live = await self._live(record)
            game = live.game
            order_names = ", ".join(live.name_of(p.id) for p in game.players)
            lines = [
                f"Game #{record.id} ({record.title}) starts. Seat order: {order_names}.",
                *game.log_lines[-8:],
                self._next_line(live),
            ]
            reply = Reply("\n".join(lines), game_id=record.id)
            for pid in acting_player_ids(game):
                seat = live.user_of(pid)
                if seat is not None and seat.user_id != req.user_id:
                    reply.mentions.append(seat.user_id)
                    reply.notify.append(
                        Notification(seat.user_id, self._turn_text(live, pid), "turn", live.id)
                    )
            reply.buttons = self._buttons(live)
            await self.pings.track(live, (), None)
            await self.pings.route(live, reply)
            views = images.take_views(game, live.id, live.seq) if self.images else None
        return [await self._with_pictures(_Applied(reply, views))]

    async def _abandon(self, req: Request) -> list[Reply]:
        record = await self._channel_game(req)
        async with self._lock(record.id):
            seats = await self.storage.list_seats(record.id)
            if record.status == GameStatus.OPEN:
                if not self._may_start(record, seats, req.user_id):
                    raise CommandError(Outcome.DENIED, "only the player who created the game can abandon it")
                await self.storage.update_game_status(record.id, GameStatus.ABANDONED)
                return [Reply(f"Game #{record.id} is abandoned.", game_id=record.id)]
            live = await self._live(record)
            if live.seat_of(req.user_id) is None:
                raise CommandError(Outcome.NOT_SEATED, "you are not playing in this game")
            others = [s.user_id for s in live.seats if s.user_id != req.user_id]
            if not others:
                await self.storage.update_game_status(record.id, GameStatus.ABANDONED)
                await self.pings.cancel(record.id)
                self._cache.drop(record.id)
                return [Reply(f"Game #{record.id} is abandoned.", game_id=record.id)]
            return [
                await self._ask(
                    live,
                    req,
                    "abandon",
                    {"seq": live.seq, "what": f"abandon game #{record.id} without a result"},
                    others,
                    f"abandon game #{record.id} without a result",
                )
            ]

    # ------------------------------------------------------------------ import and export

    async def _import(self, req: Request) -> list[Reply]:
        from engine.importer import ReplayError, parse_game_json, replay

        if req.attachments:
            blob: bytes | str = req.attachments[0]
        elif req.command.args and req.command.args[0].startswith("{"):
            blob = req.command.text.split(None, 1)[1]
        else:
            raise malformed("attach the game's JSON (18xx.games export) to `import`")
        try:
            raw = json.loads(blob)
            gf = parse_game_json(raw)
            cls = title_class(gf.title)
        except (ValueError, UnicodeDecodeError) as exc:
            raise malformed(f"that is not JSON: {exc}") from None
        except GameError as exc:
            raise malformed(exc.message) from None
        try:
            game = await asyncio.to_thread(replay, gf)
        except ReplayError as exc:
            raise illegal(
                f"that game does not replay here: action {exc.action_id}: {exc.error.message}"
            ) from None
        except GameError as exc:
            raise illegal(f"that game cannot be set up: {exc.message}") from None
        if game.finished:
            raise illegal("that game is already over")
        options = {
            "optional_rules": list(gf.options.get("optional_rules") or []),
            "players": [[pid, name] for pid, name in gf.players],
            "imported": raw.get("id"),
            "imported_actions": len(gf.actions),
        }
        try:
            game_id = await self.storage.create_game(
                platform=req.platform,
                channel=req.channel,
                title=cls.TITLE,
                seed=gf.seed,
                options=options,
                engine_version=engine_version(),
                created_by=req.user_id,
            )
        except ChannelBusyError as exc:
            raise illegal(f"this channel already has game #{exc.game_id}") from None
        async with self._lock(game_id):
            for seq, action in enumerate(gf.actions, start=1):
                await self.storage.append_action(game_id, seq, action, _IMPORT_ACTOR)
            if gf.actions:
                await self.storage.save_snapshot(game_id, len(gf.actions), encode_snapshot(game))
        names = ", ".join(name for _, name in gf.players)
        return [
            Reply(
                f"Imported {cls.TITLE} game {raw.get('id', '')} as game #{game_id}: {len(gf.actions)} "
                f"actions, now {round_name(game)}. Players: {names}. Each of you: `join NAME`; then "
                f"{req.user_name} sends `start`.",
                game_id=game_id,
            )
        ]

    async def _export(self, req: Request) -> list[Reply]:
        record = await self._channel_game(req, include_past=True)
        if record.status == GameStatus.OPEN:
            raise illegal("the game has not started yet")
        async with self._lock(record.id):
            live = await self._live(record)
            records = await self.storage.load_action_records(record.id)
            doc = export_document(live, records)
        data = json.dumps(doc, ensure_ascii=False).encode("utf-8")
        name = f"{record.title}-game{record.id}.json"
        text = (
            f"Game #{record.id} as 18xx.games JSON: {len(records)} actions. "
            f"It replays with `python -m engine.replay {name}`."
        )
        return [
            Reply(
                text,
                attachments=[Attachment(name, data, "the game as 18xx.games JSON", "file")],
                game_id=record.id,
            )
        ]

    # ------------------------------------------------------------------ looking

    async def _view(self, req: Request) -> LiveGame:
        record = await self._channel_game(req, include_past=True)
        if record.status == GameStatus.OPEN:
            seats = await self.storage.list_seats(record.id)
            names = ", ".join(s.display_name for s in seats) or "nobody"
            raise _Answer(
                Reply(
                    f"{record.title} game #{record.id} has not started. Seated: {names}.", game_id=record.id
                )
            )
        async with self._lock(record.id):
            return await self._live(record)

    async def _status(self, req: Request) -> list[Reply]:
        live = await self._view(req)
        card = images.status_text(live.game)
        if card:
            text = f"Game #{live.id}: " + card
            if live.game.finished:
                text += "\n" + result_line(live)
        else:
            text = "\n".join(status_lines(live))
        notes = await self._seat_notes(live)
        away = [self._seat_name(live, u) for u, note in notes.items() if "(away)" in note]
        if away:
            text += "\nAway: " + ", ".join(away)
        return [Reply(text, game_id=live.id, buttons=self._buttons(live))]

    async def _who(self, req: Request) -> list[Reply]:
        live = await self._view(req)
        notes = await self._seat_notes(live)
        return [Reply("\n".join(who_lines(live, notes)), game_id=live.id)]

    async def _seat_notes(self, live: LiveGame) -> dict[str, str]:
        """Per seated user: " (away)" and their local time, when they told us their time zone."""
        now = self.clock()
        notes: dict[str, str] = {}
        for seat in live.seats:
            prefs = await self.pings.prefs(seat.platform, seat.user_id, live.id)
            note = " (away)" if prefs.away else ""
            local = prefs_mod.local_time(prefs, now)
            if local is not None:
                note += f" [{local} local]"
            if note:
                notes[seat.user_id] = note
        return notes

    async def _moves(self, req: Request) -> list[Reply]:
        record = await self._active_game(req)
        async with self._lock(record.id):
            live = await self._live(record)
            player = live.player_of(req.user_id)
            if player is None:
                raise CommandError(Outcome.NOT_SEATED, "you are not playing in this game")
            lines = legal_commands(live.game, player)
            if not lines:
                return [
                    Reply(
                        f"Nothing to do for you now. {waiting_for(live.game)} must act.",
                        ephemeral=True,
                        game_id=live.id,
                    )
                ]
            buttons = choices.move_buttons(live.game, [player])
        return [Reply("You can send:\n" + "\n".join(lines), ephemeral=True, game_id=live.id, buttons=buttons)]

    async def _history(self, req: Request) -> list[Reply]:
        live = await self._view(req)
        page = to_int(req.command.args[0], "the page") if req.command.args else 1
        lines, pages = history_page(list(live.game.log_lines), page, self.settings.history_page)
        page = min(max(page, 1), pages)
        more = f" `history {page + 1}` for older." if page < pages else ""
        head = f"Game #{live.id} log, page {page} of {pages} (newest first).{more}"
        return [Reply("\n".join([head, *lines]), game_id=live.id)]

    async def _games(self, req: Request) -> list[Reply]:
        records = await self.storage.list_games_for_user(req.platform, req.user_id, statuses=LIVE_STATUSES)
        if not records:
            return [Reply("You are not in any game. Create one with `new 1882`.", ephemeral=True)]
        lines = ["Your games:"]
        for record in records:
            where = f"#{record.id} {record.title} in {record.channel}"
            if record.status == GameStatus.OPEN:
                lines.append(f"  {where}: waiting to start")
                continue
            async with self._lock(record.id):
                live = await self._live(record)
                player = live.player_of(req.user_id)
                mine = [
                    a.label
                    for a in query.actors(live.game)
                    if player is not None and a.player_id == player.id
                ]
                state = f"YOUR TURN ({', '.join(mine)})" if mine else f"waiting for {waiting_for(live.game)}"
                lines.append(f"  {where}: {round_name(live.game)}, {state}")
        return [Reply("\n".join(lines), ephemeral=True)]

    async def _pictures(self, req: Request) -> list[Reply]:
        live = await self._view(req)
        kind = req.command.verb
        if not images.available():
            return [Reply("Pictures are not available yet on this server.", ephemeral=True, game_id=live.id)]
        async with self._lock(live.id):
            views = images.take_views(live.game, live.id, live.seq, (kind,))
        pictures = await images.render(views)
        return [Reply(f"The {kind} of game #{live.id}.", attachments=pictures, game_id=live.id)]

    async def _help(self, req: Request) -> list[Reply]:
        topic = req.command.args[0] if req.command.args else None
        return [Reply(help_text(topic), ephemeral=True)]

    # ------------------------------------------------------------------ undo, redo and consent

    async def _plan_undo(self, live: LiveGame, user_id: str) -> _Undo:
        records = await self.storage.load_action_records(live.id)
        actor_of = {id(r.data): r for r in records}
        standing = filter_undo([r.data for r in records])
        moves = [a for a in standing if a.get("type") != "message"]
        mine = [i for i, a in enumerate(moves) if actor_of[id(a)].actor == user_id]
        if not mine:
            raise illegal("you have no action to take back")
        start = mine[-1]
        removed = [actor_of[id(a)] for a in moves[start:]]
        player = live.player_of(user_id)
        action: dict[str, Any] = {
            "type": "undo",
            "entity": player.id if player else 0,
            "entity_type": "player",
        }
        if start < len(moves) - 1:
            action["action_id"] = int(moves[start - 1].get("id", 0)) if start > 0 else 0
        seated = [s.user_id for s in live.seats]
        others: list[str] = []
        for rec in removed:
            who = seated if rec.actor == _IMPORT_ACTOR else [rec.actor]
            others.extend(u for u in who if u != user_id and u not in others)
        return _Undo(action, others, removed)

    async def _undo(self, req: Request) -> list[Reply]:
        record = await self._active_game(req)
        async with self._lock(record.id):
            live = await self._live(record)
            player = live.player_of(req.user_id)
            if player is None:
                raise CommandError(Outcome.NOT_SEATED, "you are not playing in this game")
            plan = await self._plan_undo(live, req.user_id)
            if plan.others:
                mine = plan.removed[0]
                verb = TYPE_WORDS.get(mine.data.get("type", ""), "action")
                count = len(plan.removed)
                what = f"take back {req.user_name}'s {verb} and everything after it ({count} actions)"
                payload = {"action": plan.action, "seq": live.seq, "pid": player.id, "what": what}
                return [await self._ask(live, req, "undo", payload, plan.others, what)]
            try:
                applied = await self._apply(live, plan.action, req.user_id, player.id)
            except StaleStateError:
                raise CommandError(Outcome.CONFLICT, "the game changed meanwhile; try again") from None
        return [await self._with_pictures(applied)]

    async def _redo(self, req: Request) -> list[Reply]:
        record = await self._active_game(req)
        async with self._lock(record.id):
            live = await self._live(record)
            player = live.player_of(req.user_id)
            if player is None:
                raise CommandError(Outcome.NOT_SEATED, "you are not playing in this game")
            records = await self.storage.load_action_records(live.id)
            skip = 0
            undoer: ActionRecord | None = None
            for rec in reversed(records):
                kind = rec.data.get("type")
                if kind == "redo":
                    skip += 1
                elif kind == "undo":
                    if skip == 0:
                        undoer = rec
                        break
                    skip -= 1
                elif kind != "message":
                    break
            if undoer is None:
                raise illegal("there is nothing to redo")
            if undoer.actor != req.user_id:
                name = next((s.display_name for s in live.seats if s.user_id == undoer.actor), undoer.actor)
                raise CommandError(Outcome.DENIED, f"only {name}, who took it back, can redo it")
            action = {"type": "redo", "entity": player.id, "entity_type": "player"}
            try:
                applied = await self._apply(live, action, req.user_id, player.id)
            except StaleStateError:
                raise CommandError(Outcome.CONFLICT, "the game changed meanwhile; try again") from None
        return [await self._with_pictures(applied)]

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
                    f"Request {cid} from {req.user_name} in {live.record.title} game #{live.id} "
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

    async def _only_request(self, req: Request) -> int:
        """The one pending request in this channel's game that waits for the sender's vote."""
        record = await self._channel_game(req)
        waiting = [
            c.id
            for c in await self.storage.list_consents(record.id)
            if c.approvers.get(req.user_id, False) is None and c.expires_at > self.clock()
        ]
        if not waiting:
            raise illegal("no request is waiting for your answer")
        if len(waiting) > 1:
            numbers = ", ".join(map(str, waiting))
            raise malformed(
                f"several requests wait for you ({numbers}): say which, e.g. "
                f"`{req.command.verb} {waiting[-1]}`"
            )
        return waiting[0]

    async def _vote(self, req: Request) -> list[Reply]:
        approve = req.command.verb == "approve"
        if req.command.args:
            cid = to_int(req.command.args[0].lstrip("#"), "the request number")
        else:
            cid = await self._only_request(req)
        try:
            consent = await self.storage.get_consent(cid)
            record = await self.storage.get_game(consent.game_id)
        except NotFoundError:
            raise malformed(f"there is no request {cid}") from None
        if (record.platform, record.channel) != (req.platform, req.channel):
            raise illegal(f"request {cid} belongs to a game in another channel")
        async with self._lock(record.id):
            consent = await self.storage.get_consent(cid)
            if consent.status != ConsentStatus.PENDING:
                raise illegal(f"request {cid} is already {consent.status}")
            now = self.clock()
            if now >= consent.expires_at:
                await self.storage.resolve_consent(cid, ConsentStatus.EXPIRED, now=now)
                raise illegal(f"request {cid} has expired")
            live = await self._live(record)
            what = consent.payload.get("what", consent.kind)
            if not approve and req.user_id == consent.requested_by and req.user_id not in consent.approvers:
                await self.storage.resolve_consent(cid, ConsentStatus.CANCELLED, now=now)
                return [Reply(f"{req.user_name} withdraws request {cid} ({what}).", game_id=record.id)]
            if req.user_id not in consent.approvers:
                raise CommandError(Outcome.DENIED, f"request {cid} is not waiting for you")
            consent = await self.storage.record_vote(cid, req.user_id, approve, now=now)
            if not approve:
                await self.storage.resolve_consent(cid, ConsentStatus.REJECTED, now=now)
                return [
                    Reply(
                        f"{req.user_name} declines request {cid} ({what}); nothing changes.",
                        mentions=[consent.requested_by],
                        game_id=record.id,
                    )
                ]
            waiting = [u for u, vote in consent.approvers.items() if vote is not True]
            if waiting:
                names = ", ".join(self._seat_name(live, u) for u in waiting)
                return [
                    Reply(
                        f"{req.user_name} approves request {cid}; still waiting for {names}.",
                        game_id=record.id,
                    )
                ]
            if consent.kind in ("undo", "deal") and live.seq != int(consent.payload.get("seq", -1)):
                await self.storage.resolve_consent(cid, ConsentStatus.CANCELLED, now=now)
                raise illegal(f"the game moved on since request {cid} was made; ask again")
            try:
                await self.storage.resolve_consent(cid, ConsentStatus.APPROVED, now=now)
            except StatusConflictError:
                raise illegal(f"request {cid} was already settled") from None
            head = f"{req.user_name} approves request {cid} ({what})."
            if consent.kind == "abandon":
                await self.storage.update_game_status(record.id, GameStatus.ABANDONED)
                await self.pings.cancel(record.id)
                self._cache.drop(record.id)
                return [Reply(f"{head}\nGame #{record.id} is abandoned.", game_id=record.id)]
            try:
                applied = await self._apply(
                    live, dict(consent.payload["action"]), consent.requested_by, consent.payload.get("pid")
                )
            except StaleStateError:
                raise CommandError(Outcome.CONFLICT, "the game changed meanwhile; ask again") from None
        reply = await self._with_pictures(applied)
        if reply.ok:
            reply.text = head + "\n" + reply.text
        return [reply]

    # ------------------------------------------------------------------ for adapters: timers and autocomplete

    @contextlib.asynccontextmanager
    async def _locked_live(self, record: GameRecord) -> AsyncIterator[LiveGame]:
        async with self._lock(record.id):
            yield await self._live(record)

    async def due_notifications(
        self, now: float | None = None, *, platforms: Collection[str] | None = None
    ) -> list[Notification]:
        """Reminders and quiet-hour-delayed turn pings that are due now, each handed out once.

        Adapters call this every minute and deliver what it returns (``to_channel``/``to_dm``); they never
        work out who to ping. Items are checked against the live game first: a turn that is over is dropped
        silently. Pass ``platforms`` when several adapters share one database, so each takes only its own.
        """
        now = self.clock() if now is None else now
        async with self._due_lock:
            return await self.pings.due(now, self._locked_live, platforms)

    async def suggest(
        self,
        platform: str,
        channel: str,
        user_id: str,
        verb: str,
        args: Sequence[str],
        partial: str,
        limit: int = 25,
    ) -> list[str]:
        """Values for the next argument of ``verb`` after ``args`` that this user may use now (autocomplete).

        Game moves are cut from the engine's legal choices, so every value completes to a command the service
        accepts; users who are not seated or not acting get nothing. Settings verbs get their fixed choices.
        Never raises: autocomplete must not fail because of a bug here (it is logged).
        """
        try:
            fixed = await self._fixed_suggestions(platform, channel, user_id, verb, args, partial, limit)
            if fixed is not None:
                return fixed
            record = await self.storage.find_game(platform, channel)
            if record is None or record.status != GameStatus.ACTIVE:
                return []
            async with self._lock(record.id):
                live = await self._live(record)
                player = live.player_of(user_id)
                if player is None or live.game.finished:
                    return []
                return choices.next_words(live.game, player, verb, args, partial, limit)
        except Exception:
            log.exception("suggest(%r, %r, %r) failed in %s/%s", verb, list(args), partial, platform, channel)
            return []

    async def _fixed_suggestions(
        self,
        platform: str,
        channel: str,
        user_id: str,
        verb: str,
        args: Sequence[str],
        partial: str,
        limit: int,
    ) -> list[str] | None:
        """Choices of the verbs that are not moves (None for a move verb or an unknown word)."""
        found = verb_named(verb)
        if found is None or found.group == "move":
            return None
        if found.name in ("approve", "decline"):
            waiting = await self._waiting_requests(platform, channel, user_id)
            options = [str(c) for c in waiting] if not args else []
        else:
            options = choices.setting_words(found.name, args)
        return choices.fixed_words(options, partial, limit)

    async def _waiting_requests(self, platform: str, channel: str, user_id: str) -> list[int]:
        record = await self.storage.find_game(platform, channel)
        if record is None:
            return []
        now = self.clock()
        return [
            c.id
            for c in await self.storage.list_consents(record.id)
            if c.approvers.get(user_id, False) is None and c.expires_at > now
        ]


# ---------------------------------------------------------------------- helpers


def _with_args(
    run: Callable[[Any, Sequence[str]], Awaitable[list[Reply]]],
) -> Callable[[Request], Awaitable[list[Reply]]]:
    async def handler(req: Request) -> list[Reply]:
        return await run(req, req.command.args)

    return handler


def _player_range(cls: Any) -> tuple[int, int]:
    data = cls.data()["game"]
    return int(data.get("min_players", 1)), int(data.get("max_players", 99))


def export_document(live: LiveGame, records: list[ActionRecord]) -> dict[str, Any]:
    """The game in 18xx.games' JSON form (what ``python -m engine.replay`` and the importer read)."""
    record, game = live.record, live.game
    actions = []
    for rec in records:
        action = dict(rec.data)
        action.setdefault("created_at", int(rec.created_at))
        actions.append(action)
    players = [{"id": pid, "name": name} for pid, name in game.player_specs]
    finished = bool(game.finished)
    doc: dict[str, Any] = {
        "id": record.id,
        "description": f"Roundhouse game #{record.id} ({record.platform} {record.channel})",
        "title": record.title,
        "players": players,
        "max_players": len(players),
        "settings": {"seed": record.seed, "optional_rules": list(record.options.get("optional_rules") or [])},
        "status": "finished" if finished else "active",
        "turn": game.turn,
        "round": round_name(game),
        "acting": acting_player_ids(game),
        "result": game.result() if finished else {},
        "actions": actions,
        "loaded": True,
        "created_at": int(record.created_at),
        "updated_at": int(record.updated_at),
    }
    if finished:
        doc["game_end_reason"] = game.game_end_reason
    return doc
