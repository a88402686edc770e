"""Personal pings after the fact: preferences applied to a reply's notifications, and reminders via the outbox.

Two kinds of outbox item belong here, both keyed so that enqueueing twice is harmless:

* ``turn``: a turn ping that fell into the player's quiet hours, held until they end
  (key ``turn:<game>:<user>:<seq>``);
* ``reminder``: number ``n`` of the reminders for one turn (key ``remind:<game>:<user>:<turn>:<n>``, where
  ``turn`` is the seq at which the player became active).

Both are dropped as soon as the player acts or stops being active, and when one comes due the live game is
checked again, so a turn that is over is never reminded of. Delivery is at most once: the next reminder is
enqueued (idempotently, by its key) *before* the due one is marked sent, and a notification is handed out
only after both, so a crash in between repeats neither the ping nor the escalation. In a game whose log no
longer replays, the first item that comes due posts the notice in the game's channel instead (unless a command
there did already).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace

from bot.core import choices, timefmt
from bot.core import prefs as prefs_mod
from bot.core.game_names import game_name
from bot.core.live import LiveGame, LoadError
from bot.core.notify import acting_player_ids
from bot.core.prefs import Prefs
from bot.core.replies import Button, Notification, Reply
from bot.core.text import broken_text, round_name
from bot.storage import GameRecord, GameStatus, NotFoundError, OutboxItem, Storage
from engine.api import Game

TURN = "turn"
REMINDER = "reminder"
KINDS = (TURN, REMINDER)
#: How many due outbox items one call of ``due`` looks at (the adapters call it every minute).
DUE_BATCH = 200

#: Opens a started game's live state with its lock held (``GameService._locked_live``).
LiveOf = Callable[[GameRecord], AbstractAsyncContextManager[LiveGame]]


def short_round(game: Game) -> str:
    """ "OR 2.1", "SR 3" or the round's own name."""
    name = round_name(game)
    return name.replace("Operating Round", "OR").replace("Stock Round", "SR")


class Pings:
    """Applies users' preferences to pings and keeps their reminders in the storage outbox."""

    def __init__(self, storage: Storage, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.clock = clock

    async def prefs(self, platform: str, user_id: str, game_id: int | None = None) -> Prefs:
        return prefs_mod.load(await self.storage.get_prefs(platform, user_id), game_id)

    # ------------------------------------------------------------------ pings inside a reply

    async def route(self, live: LiveGame, reply: Reply) -> None:
        """Apply each recipient's preferences to ``reply.notify`` (and its mentions).

        Turn pings are dropped for users who are away or turned them off, and held in the outbox when they
        fall into quiet hours. The rest get their delivery mode; users who want DMs only are not mentioned.
        """
        now = self.clock()
        record = live.record
        kept: list[Notification] = []
        for note in reply.notify:
            prefs = await self.prefs(record.platform, note.user_id, live.id)
            note = replace(note, platform=record.platform, channel=record.channel, delivery=prefs.delivery)
            if note.kind == TURN:
                note = replace(note, buttons=_buttons_of(live, note.user_id))
                if not prefs.pings_turns:
                    _unmention(reply, note.user_id)
                    continue
                due = prefs_mod.deliverable_at(prefs, now)
                if due > now:
                    await self._hold(live, note, due)
                    _unmention(reply, note.user_id)
                    continue
            if note.delivery == "dm":  # a mention would ping them a second time
                _unmention(reply, note.user_id)
            else:
                if note.user_id not in reply.mentions:
                    reply.mentions.append(note.user_id)
                note = replace(note, mentioned=True)
            kept.append(note)
        reply.notify = kept

    async def _hold(self, live: LiveGame, note: Notification, due: float) -> None:
        await self.storage.outbox_enqueue(
            f"turn:{live.id}:{note.user_id}:{live.seq}",
            platform=live.record.platform,
            user_id=note.user_id,
            kind=TURN,
            payload={"text": note.text, "seq": live.seq},
            due_at=due,
            game_id=live.id,
        )

    # ------------------------------------------------------------------ reminders

    async def track(self, live: LiveGame, before: Iterable[int], actor: str | None) -> None:
        """After an action: drop the reminders of players no longer active (and of the actor, who just
        acted), and start a reminder chain for each player who became active (and the actor if still
        active: their clock starts again)."""
        was = set(before)
        now_acting = acting_player_ids(live.game) if not live.game.finished else []
        for seat in live.seats:
            if seat.player_id is None:
                continue
            acting = seat.player_id in now_acting
            if seat.user_id == actor or (seat.player_id in was and not acting):
                await self.cancel(live.id, seat.user_id)
            if acting and (seat.user_id == actor or seat.player_id not in was):
                await self.start(live, seat.user_id, str(live.seq))

    async def start(self, live: LiveGame, user_id: str, turn: str) -> None:
        """Queue the first reminder of a turn (if the user wants reminders at all)."""
        prefs = await self.prefs(live.record.platform, user_id, live.id)
        if not prefs.pings_turns or prefs.remind_hours is None:
            return
        now = self.clock()
        due = prefs_mod.deliverable_at(prefs, now + prefs_mod.reminder_gap(prefs.remind_hours, 1))
        await self._enqueue_reminder(live.record, user_id, turn, 1, since=now, due=due)

    async def _enqueue_reminder(
        self, record: GameRecord, user_id: str, turn: str, number: int, *, since: float, due: float
    ) -> None:
        await self.storage.outbox_enqueue(
            f"remind:{record.id}:{user_id}:{turn}:{number}",
            platform=record.platform,
            user_id=user_id,
            kind=REMINDER,
            payload={"turn": turn, "n": number, "since": since},
            due_at=due,
            game_id=record.id,
        )

    async def cancel(self, game_id: int, user_id: str | None = None, kinds: Collection[str] = KINDS) -> int:
        """Drop pending reminders and held turn pings of a game (of one user if given)."""
        dropped = 0
        for item in await self.storage.outbox_pending(game_id, user_id):
            if item.kind in kinds and await self.storage.outbox_cancel(item.dedupe_key):
                dropped += 1
        return dropped

    # ------------------------------------------------------------------ due items

    async def due(
        self, now: float, live_of: LiveOf, platforms: Collection[str] | None = None
    ) -> list[Notification]:
        """Notifications whose time has come; each item is consumed (or moved out of quiet hours)."""
        out: list[Notification] = []
        for item in await self.storage.outbox_due(now, limit=DUE_BATCH):
            if item.kind not in KINDS or (platforms is not None and item.platform not in platforms):
                continue  # someone else's item, or another adapter's platform
            note = await self._consume(item, now, live_of)
            if note is not None:
                out.append(note)
        return out

    async def _consume(self, item: OutboxItem, now: float, live_of: LiveOf) -> Notification | None:
        due = await self._check(item, now, live_of)
        if due.postponed:
            return None
        if due.follow is not None:
            f = due.follow
            await self._enqueue_reminder(f.record, item.user_id, f.turn, f.number, since=f.since, due=f.due)
        if not await self.storage.outbox_mark_sent(item.id, now=now):
            return None  # another bot process on the same database claimed it first and delivers it
        return due.note

    async def _check(self, item: OutboxItem, now: float, live_of: LiveOf) -> _Due:
        """What a due item amounts to, checked against the live game and the user's current settings."""
        if item.game_id is None:
            return _Due()
        try:
            record = await self.storage.get_game(item.game_id)
        except NotFoundError:
            return _Due()
        if record.status != GameStatus.ACTIVE:
            return _Due()
        try:
            return await self._check_live(item, now, record, live_of)
        except LoadError as exc:
            return await self._broken(item, exc)

    async def _broken(self, item: OutboxItem, exc: LoadError) -> _Due:
        """A reminder in a game whose log no longer replays: instead, the notice in the game's channel, if
        nobody has posted it yet (it mentions the reminded player)."""
        record = exc.record
        if not await self.storage.claim_broken_notice(record.id):
            return _Due()
        text = broken_text(record, exc.failure)
        note = Notification(
            item.user_id,
            text,
            "broken",
            record.id,
            platform=record.platform,
            channel=record.channel,
            delivery="channel",
            due_at=item.due_at,
        )
        return _Due(note)

    async def _check_live(self, item: OutboxItem, now: float, record: GameRecord, live_of: LiveOf) -> _Due:
        async with live_of(record) as live:
            seat = live.seat_of(item.user_id)
            if live.game.finished or seat is None or seat.player_id not in acting_player_ids(live.game):
                return _Due()  # the turn is over
            prefs = await self.prefs(record.platform, item.user_id, record.id)
            if not prefs.pings_turns or (item.kind == REMINDER and prefs.remind_hours is None):
                return _Due()
            until = prefs_mod.quiet_until(prefs.quiet, now)
            if until is not None and until > now:
                await self.storage.outbox_reschedule(item.id, until)
                return _Due(postponed=True)
            base = Notification(
                item.user_id,
                "",
                item.kind,
                record.id,
                platform=record.platform,
                channel=record.channel,
                delivery=prefs.delivery,
                due_at=item.due_at,
                buttons=_buttons_of(live, item.user_id),
            )
            if item.kind == TURN:
                return _Due(replace(base, text=str(item.payload.get("text", ""))))
            since = float(item.payload.get("since", item.created_at))
            waited = max(0.0, now - since) / prefs_mod.HOUR
            game = live.game
            text = (
                f"Reminder: it is your turn in {game_name(record)} game #{record.id} ({short_round(game)}, "
                f"phase {game.phase['name']}) — waiting {waited:.0f} h (since {timefmt.mark(since)})."
            )
            number = int(item.payload.get("n", 1))
            follow = None
            if number < prefs_mod.MAX_REMINDERS and prefs.remind_hours is not None:
                gap = prefs_mod.reminder_gap(prefs.remind_hours, number + 1)
                at = prefs_mod.deliverable_at(prefs, now + gap)
                follow = _Next(record, str(item.payload.get("turn", "")), number + 1, since, at)
            return _Due(replace(base, text=text), follow)


@dataclass(frozen=True, slots=True)
class _Next:
    """The reminder that follows a delivered one."""

    record: GameRecord
    turn: str
    number: int
    since: float
    due: float


@dataclass(frozen=True, slots=True)
class _Due:
    note: Notification | None = None
    follow: _Next | None = None
    postponed: bool = False  # moved to the end of quiet hours; not consumed


def _buttons_of(live: LiveGame, user_id: str) -> tuple[Button, ...]:
    """The user's one-click moves, for a ping read away from the channel (e.g. in a DM)."""
    player = live.player_of(user_id)
    return () if player is None else tuple(choices.move_buttons(live.game, [player], live.seq))


def _unmention(reply: Reply, user_id: str) -> None:
    reply.mentions[:] = [u for u in reply.mentions if u != user_id]
