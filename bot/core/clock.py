"""The pace clock: per game and player, the waking time the game waited on them, kept in the database.

A span opens when a player becomes one the game waits on and closes when they act or stop being active
(:meth:`PaceClock.sync`, after every stored action); its waking seconds (outside the player's quiet hours and
away periods, :mod:`bot.core.clock_math`) are written when it closes. Everything is in the database, so a
restart or another bot process reads the same clocks, and the partial unique index on open spans keeps two
processes from opening one twice.

The optional pace nudge (``clock nudge HOURS``, a setting of the game) queues one outbox item per span, due
when that many waking hours will have passed; when it comes due the span is checked again (still open, enough
waking time, not away) and the player gets a personal ping.
"""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass

from bot.core import clock_math, timefmt
from bot.core import prefs as prefs_mod
from bot.core.commands import malformed
from bot.core.game_names import game_name
from bot.core.live import LiveGame
from bot.core.notify import acting_player_ids
from bot.core.reminders import Pings
from bot.core.replies import Notification
from bot.storage import GameStatus, NotFoundError, OutboxItem, Storage
from bot.storage.async_play import AsyncPlayStore, PaceSpan

#: The outbox kind of a pace nudge.
PACE = "pace"
#: The game setting (``game_extras``) holding the nudge threshold in hours.
NUDGE_KEY = "pace_nudge_hours"
MAX_NUDGE_HOURS = 24 * 14


@dataclass(frozen=True, slots=True)
class PlayerClock:
    user_id: str
    name: str
    waking: float  # seconds, closed spans and the open one so far
    turns: int
    waiting_now: float | None  # waking seconds of the open span, if the game waits on them now


def duration(seconds: float) -> str:
    """``3h 05m``, ``14m``, ``40s``."""
    seconds = max(seconds, 0.0)
    if seconds >= 3600:
        return f"{int(seconds // 3600)}h {int(seconds % 3600 // 60):02d}m"
    if seconds >= 60:
        return f"{int(seconds // 60)}m"
    return f"{int(seconds)}s"


class PaceClock:
    """Keeps the pace spans of every game in step with who must act."""

    def __init__(self, storage: Storage, pings: Pings, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.store = AsyncPlayStore(storage)
        self.pings = pings
        self.clock = clock

    async def waking(self, platform: str, user_id: str, game_id: int, start: float, end: float) -> float:
        prefs = await self.pings.prefs(platform, user_id, game_id)
        away = await self.store.away_spans(platform, user_id, end)
        return clock_math.waking_seconds(prefs.quiet, away, start, end)

    async def sync(
        self, live: LiveGame, actors: Collection[str] = (), *, since: Callable[[], Awaitable[float]] | None = None
    ) -> None:
        """Close the spans of players who acted (``actors``) or no longer must; open one for each player the
        game now waits on who has none open: from now, or from what ``since`` says (when the wait began, e.g.
        the start). One read, and one write transaction only when something changes."""
        now = self.clock()
        platform = live.record.platform
        pids = [] if live.game.finished else acting_player_ids(live.game)
        waiting = {s.user_id for s in live.seats if s.player_id is not None and s.player_id in pids}
        still: set[str] = set()
        closes: list[tuple[int, float, float]] = []
        for span in await self.store.spans(live.id, open_only=True):
            if span.user_id in actors or span.user_id not in waiting:
                waking = await self.waking(platform, span.user_id, live.id, span.started_at, now)
                closes.append((span.id, now, waking))
            else:
                still.add(span.user_id)
        starting = sorted(waiting - still)
        if not closes and not starting:
            return
        begin = now if since is None or not starting else min(await since(), now)
        opened = await self.store.move_spans(live.id, closes, [(user, begin) for user in starting])
        nudge = (await self.store.extras(live.id)).get(NUDGE_KEY) if opened else None
        if nudge:
            for user in opened:
                await self._queue_nudge(live, user, begin, float(nudge))

    # ------------------------------------------------------------------ reading

    async def clocks(self, live: LiveGame) -> list[PlayerClock]:
        now = self.clock()
        spans = await self.store.spans(live.id)
        out = []
        for seat in live.seats:
            mine = [s for s in spans if s.user_id == seat.user_id]
            closed = sum(s.waking or 0.0 for s in mine if s.ended_at is not None)
            current = next((s for s in mine if s.ended_at is None), None)
            open_part = None
            if current is not None:
                open_part = await self.waking(live.record.platform, seat.user_id, live.id, current.started_at, now)
            turns = sum(1 for s in mine if s.ended_at is not None)
            out.append(PlayerClock(seat.user_id, seat.display_name, closed + (open_part or 0.0), turns, open_part))
        return out

    async def report(self, live: LiveGame) -> str:
        lines = [
            f"Pace clock of game #{live.id}: the waking time the game waited on each player "
            "(their quiet hours and time away not counted):"
        ]
        for c in await self.clocks(live):
            now = f"; waiting on them now for {duration(c.waiting_now)}" if c.waiting_now is not None else ""
            lines.append(f"  {c.name}: {duration(c.waking)} over {c.turns} turn{'s' if c.turns != 1 else ''}{now}")
        nudge = (await self.store.extras(live.id)).get(NUDGE_KEY)
        lines.append(
            f"Pace nudge: after {float(nudge):g} waking hours on one turn (`clock nudge off` stops it)."
            if nudge
            else "Pace nudge: off (`clock nudge HOURS` pings a player whose turn passes that many waking hours)."
        )
        return "\n".join(lines)

    async def medians(self, platform: str) -> dict[str, tuple[float, int]]:
        """Per user on one platform: the median waking time of their turns across games, and how many."""
        per: dict[str, list[float]] = {}
        for span in await self.store.closed_spans_of_platform(platform):
            per.setdefault(span.user_id, []).append(span.waking or 0.0)
        return {user: (statistics.median(values), len(values)) for user, values in per.items()}

    # ------------------------------------------------------------------ the nudge

    async def set_nudge(self, game_id: int, words: Iterable[str]) -> str:
        args = list(words)
        usage = "write `clock nudge HOURS` (waking hours, e.g. `clock nudge 12`) or `clock nudge off`"
        if len(args) != 1:
            raise malformed(usage)
        if args[0].lower() == "off":
            await self.store.set_extra(game_id, NUDGE_KEY, None, self.clock())
            return f"Pace nudge off in game #{game_id}."
        try:
            hours = float(args[0].lower().removesuffix("h"))
        except ValueError:
            raise malformed(f"`{args[0]}` is not a number of hours; {usage}") from None
        if not 1 <= hours <= MAX_NUDGE_HOURS:
            raise malformed(f"the pace nudge comes after 1 to {MAX_NUDGE_HOURS} waking hours; {usage}")
        await self.store.set_extra(game_id, NUDGE_KEY, hours, self.clock())
        return (
            f"Pace nudge on in game #{game_id}: a player whose turn passes {hours:g} hours of their waking time "
            "gets a personal ping (quiet hours and time away do not count)."
        )

    async def _queue_nudge(self, live: LiveGame, user: str, start: float, hours: float) -> None:
        prefs = await self.pings.prefs(live.record.platform, user, live.id)
        due = clock_math.waking_deadline(prefs.quiet, start, hours * prefs_mod.HOUR)
        if due is None:
            return
        await self.storage.outbox_enqueue(
            f"pace:{live.id}:{user}:{start!r}",
            platform=live.record.platform,
            user_id=user,
            kind=PACE,
            payload={"start": start, "hours": hours},
            due_at=due,
            game_id=live.id,
        )

    async def due(self, now: float, platforms: Collection[str] | None) -> list[Notification]:
        """Pace nudges that are due: each is checked against its span (still open, enough waking time)."""
        out: list[Notification] = []
        for item in await self.storage.outbox_due(now, limit=200):
            if item.kind != PACE or (platforms is not None and item.platform not in platforms):
                continue
            note = await self._check(item, now)
            if note is None and await self._postponed(item, now):
                continue  # still short of its waking hours (time away): it comes due again later
            if await self.storage.outbox_mark_sent(item.id, now=now) and note is not None:
                out.append(note)
        return out

    async def _postponed(self, item: OutboxItem, now: float) -> bool:
        """Move a nudge whose span is still open but short of its waking hours (time away) to a later time."""
        if item.game_id is None:
            return False
        span = await self._open_span(item)
        if span is None:
            return False
        record = await self.storage.get_game(item.game_id)
        hours = float(item.payload.get("hours", 0))
        waking = await self.waking(record.platform, item.user_id, record.id, span.started_at, now)
        prefs = await self.pings.prefs(record.platform, item.user_id, record.id)
        later = clock_math.waking_deadline(prefs.quiet, now, hours * prefs_mod.HOUR - waking)
        if later is None or later <= now:
            return False
        await self.storage.outbox_reschedule(item.id, later)
        return True

    async def _open_span(self, item: OutboxItem) -> PaceSpan | None:
        assert item.game_id is not None
        start = float(item.payload.get("start", -1))
        spans = await self.store.spans(item.game_id, open_only=True)
        return next((s for s in spans if s.user_id == item.user_id and s.started_at == start), None)

    async def _check(self, item: OutboxItem, now: float) -> Notification | None:
        if item.game_id is None:
            return None
        try:
            record = await self.storage.get_game(item.game_id)
        except NotFoundError:
            return None
        span = await self._open_span(item)
        if record.status != GameStatus.ACTIVE or span is None:
            return None
        hours = float(item.payload.get("hours", 0))
        waking = await self.waking(record.platform, item.user_id, record.id, span.started_at, now)
        prefs = await self.pings.prefs(record.platform, item.user_id, record.id)
        if waking + 60 < hours * prefs_mod.HOUR or prefs.away:
            return None
        text = (
            f"Pace nudge: game #{record.id} ({game_name(record)}, {record.channel}) has waited on you for "
            f"{duration(waking)} of your waking time (since {timefmt.mark(span.started_at)})."
        )
        return Notification(item.user_id, text, "reminder", record.id, platform=record.platform,
                            channel=record.channel, delivery=prefs.delivery)
