"""The service part of asynchronous play: ``auto`` and ``clock``, the pace clock kept after every stored action,
and programmed auto-actions (and forced passes) carried out as soon as their seat must act.

Everything hangs off :meth:`AutoVerbs._apply`, which wraps the core's: after the engine applied and stored an
action, auto-actions that no longer fit are switched off (their owners are told), then while the seat that
must act has an armed auto-action (or a pass as its only legal move) that move is applied and stored like any
other, with a line saying it was programmed, and finally the pace clock is brought up to date. Turn pings of
the first action that an auto-action made moot are dropped: a player whose turn was taken is not pinged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.core import auto, auto_prompts
from bot.core.clock import PaceClock
from bot.core.commands import CommandError
from bot.core.fork_verbs import owner_of
from bot.core.game_names import game_name
from bot.core.live import LiveGame
from bot.core.notify import acting_player_ids
from bot.core.replies import Button, Notification, Outcome, Reply
from bot.core.service_core import Applied, Handler, Request, ServiceCore
from bot.storage import ConsentStatus, GameStatus, StaleStateError
from bot.storage.async_play import AsyncPlayStore, AutoRecord

log = logging.getLogger(__name__)

#: The game setting (``game_extras``) listing the out-of-turn prompts already sent.
PROMPTED_KEY = "prompted"
#: The most moves one command may set off (a whole stock round of passes fits many times over).
MAX_CHAIN = 120


@dataclass(frozen=True, slots=True)
class _Step:
    user_id: str
    player: Any
    action: dict[str, Any]
    record: AutoRecord | None  # None: a forced pass


class AutoVerbs(ServiceCore):
    """``auto`` and ``clock``, and the moves the bot makes for players who programmed them."""

    _pace: PaceClock | None = None
    _auto_store: AsyncPlayStore | None = None

    @property
    def pace(self) -> PaceClock:
        if self._pace is None:
            self._pace = PaceClock(self.storage, self.pings, self.clock)
        return self._pace

    @property
    def auto_store(self) -> AsyncPlayStore:
        if self._auto_store is None:
            self._auto_store = AsyncPlayStore(self.storage)
        return self._auto_store

    def _async_handlers(self, away: Handler) -> dict[str, Handler]:
        async def away_tracked(req: Request) -> list[Reply]:
            replies = await away(req)
            if replies and replies[0].ok and req.command.args:
                on = req.command.args[0].lower() in ("on", "yes", "true")
                await self.auto_store.set_away(req.platform, req.user_id, on, self.clock())
            return replies

        return {"auto": self._auto, "clock": self._clock, "away": away_tracked}

    # ------------------------------------------------------------------ the verbs

    async def _auto(self, req: Request) -> list[Reply]:
        record = await self._active_game(req)
        args = list(req.command.args)
        async with self._lock(record.id):
            live = await self._live(record)
            if not args or args[0].startswith(("@", "<@")):
                listing = await self._auto_list(live, args[0].strip("<@!>") if args else None)
                return [Reply(listing, game_id=live.id, buttons=_auto_buttons(live))]
            player = self._seated_player(live, req.user_id)
            if owner_of(live.record) is not None:
                raise CommandError(Outcome.ILLEGAL, "a practice copy has no auto-actions: you play every seat here")
            now = self.clock()
            if args[0].lower() in ("off", "stop", "clear"):
                mine = await self.auto_store.armed(live.id, req.user_id)
                for rec in mine:
                    await self.auto_store.disarm(rec.id, "switched off by its owner", now)
                text = f"{req.user_name}'s auto-actions are off ({len(mine)} switched off)." if mine else \
                    "You had no auto-action armed."
                return [Reply(text, game_id=live.id)]
            if live.game.finished:
                raise CommandError(Outcome.GAME_OVER, f"game #{live.id} is over")
            spec = auto.parse(live.game, player, args)
            for old in await self.auto_store.armed(live.id, req.user_id):
                if old.spec.get("kind") == spec["kind"]:
                    await self.auto_store.disarm(old.id, "replaced by a new one", now)
            await self.auto_store.arm(live.id, req.user_id, spec, now)
            text = f"{req.user_name} programmed: auto {auto.describe(spec, live.game)} (visible to everyone; " \
                "`auto off` stops it)."
            moved: set[str] = set()
            applied = await self._run_autos(live, Applied(Reply(text, game_id=live.id)), moved, req.user_id)
            await self.pace.sync(live, moved)
        return [await self._with_pictures(applied)]

    async def _auto_list(self, live: LiveGame, who: str | None) -> str:
        armed = await self.auto_store.armed(live.id)
        if who:
            armed = [a for a in armed if who.lower() in (a.user_id.lower(), self._seat_name(live, a.user_id).lower())]
        if not armed:
            return f"No auto-action is armed in game #{live.id}. Program one: {auto.USAGE}."
        lines = [f"Auto-actions in game #{live.id} (everyone sees them):"]
        lines += [f"  {self._seat_name(live, a.user_id)}: auto {auto.describe(a.spec, live.game)}" for a in armed]
        return "\n".join(lines)

    async def auto_card_lines(self, live: LiveGame) -> list[str]:
        """The armed auto-actions as lines for the status card."""
        armed = await self.auto_store.armed(live.id)
        return [f"Auto: {self._seat_name(live, a.user_id)}: {auto.describe(a.spec, live.game)}" for a in armed]

    async def _clock(self, req: Request) -> list[Reply]:
        record = await self._channel_game(req, include_past=True)
        if record.status == GameStatus.OPEN:
            raise CommandError(Outcome.ILLEGAL, "the game has not started yet: its clock starts with `start`")
        args = list(req.command.args)
        if args and args[0].lower() == "nudge":
            async with self._lock(record.id):
                live = await self._live(record)
                self._seated_player(live, req.user_id)
            return [Reply(await self.pace.set_nudge(record.id, args[1:]), game_id=record.id)]
        if args:
            raise CommandError(
                Outcome.MALFORMED, "`clock` shows the pace clock; `clock nudge HOURS|off` sets the nudge"
            )
        async with self._lock(record.id):
            live = await self._live(record)
            await self.pace.sync(live, ())
            text = await self.pace.report(live)
        return [Reply(text, game_id=live.id)]

    # ------------------------------------------------------------------ after every stored action

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
        timed = owner_of(live.record) is None  # a practice copy keeps no clock
        if timed:
            # A wait that began without a stored action (the start, a seat handed on) is timed from then.
            await self.pace.sync(live, (), since=lambda: self._wait_began(live))
        limits = auto_prompts.over_limit(live.game)
        applied = await super()._apply(live, action, actor, actor_pid, notes=notes, consent=consent)
        if applied.reply.seq is None:
            return applied  # refused: nothing was stored
        actors = {actor}
        await self._disarm_stale(live, applied.reply, action, actor_pid)
        if action.get("type") not in ("undo", "redo"):
            applied = await self._run_autos(live, applied, actors, actor)
        if timed:
            await self.pace.sync(live, actors)
            await self._prompt(live, applied.reply, limits)
        return applied

    async def _prompt(self, live: LiveGame, reply: Reply, limits: dict[int, str]) -> None:
        """Out-of-turn powers to use before they are lost, and certificate-limit obligations (:mod:`auto_prompts`).

        Each power is prompted once when it may first be used out of turn, and once more when the next train
        would close it (the keys already prompted are a setting of the game, so restarts and other processes
        do not prompt again)."""
        game = live.game
        usable = auto_prompts.out_of_turn_powers(game)
        fresh = {}
        if usable:
            done = list((await self.auto_store.extras(live.id)).get(PROMPTED_KEY) or [])
            fresh = {sym: key for sym, key in auto_prompts.reasons(game, usable).items() if key not in done}
            if fresh:
                await self.auto_store.set_extra(live.id, PROMPTED_KEY, [*done, *fresh.values()], self.clock())
        for sym in fresh:
            pid = usable[sym]
            seat = live.user_of(pid)
            player = next((p for p in game.players if p.id == pid), None)
            if seat is None or player is None:
                continue
            prefs = await self.pings.prefs(live.record.platform, seat.user_id, live.id)
            if prefs.notify == "off":
                continue
            text, buttons = auto_prompts.prompt(game, sym, player, live.seq)
            reply.notify.append(Notification(
                seat.user_id, f"Game #{live.id} ({game_name(live.record)}, {live.record.channel}): {text}", "prompt",
                live.id, platform=live.record.platform, channel=live.record.channel, delivery="dm", buttons=buttons,
            ))
        owing = auto_prompts.over_limit(game)
        for pid, sentence in owing.items():
            if pid not in limits:
                reply.text += "\n" + sentence
        for n, note in enumerate(reply.notify):
            seat = live.seat_of(note.user_id)
            if note.kind in ("turn", "reminder") and seat is not None and seat.player_id in owing:
                reply.notify[n] = replace(note, text=note.text + "\n" + owing[seat.player_id])

    async def _wait_began(self, live: LiveGame) -> float:
        """When the last action was stored (or the game last changed, for a game without one)."""
        records = await self.storage.load_action_records(live.id, after_seq=max(0, live.seq - 1))
        return records[-1].created_at if records else live.record.updated_at

    async def _disarm_stale(self, live: LiveGame, reply: Reply, action: dict[str, Any], actor_pid: int | None) -> None:
        for rec in await self.auto_store.armed(live.id):
            seat = live.seat_of(rec.user_id)
            if seat is None or seat.player_id is None:
                why: str | None = "its owner left the game"
            else:
                why = auto.stale_reason(rec.spec, live.game, seat.player_id, action, actor_pid)
            if why is not None:
                await self._switch_off(live, reply, rec, why)

    async def _switch_off(self, live: LiveGame, reply: Reply, rec: AutoRecord, why: str) -> None:
        if not await self.auto_store.disarm(rec.id, why, self.clock()):
            return
        what = auto.describe(rec.spec, live.game)
        line = f"{self._seat_name(live, rec.user_id)}'s auto-action is off ({what}): {why}."
        reply.text = _before_tail(reply.text, line, self._next_line(live))
        note = Notification(
            rec.user_id,
            f"Your auto-action in {game_name(live.record)} game #{live.id} ({what}) switched itself off: {why}. "
            "Send your own move, or program a new one with `auto`.",
            "auto",
            live.id,
        )
        extra = Reply("", notify=[note])
        await self.pings.route(live, extra)
        reply.notify.extend(extra.notify)
        reply.mentions.extend(u for u in extra.mentions if u not in reply.mentions)

    async def _next_step(self, live: LiveGame, reply: Reply) -> _Step | None:
        game = live.game
        for pid in acting_player_ids(game):
            seat = live.user_of(pid)
            player = next((p for p in game.players if p.id == pid), None)
            if seat is None or player is None:
                continue
            for rec in await self.auto_store.armed(live.id, seat.user_id):
                planned = auto.plan(rec.spec, game, player)
                if planned.stop is not None:
                    await self._switch_off(live, reply, rec, planned.stop)
                elif planned.action is not None:
                    return _Step(seat.user_id, player, planned.action, rec)
            forced = auto.forced_pass(game, player)
            if forced is not None:
                return _Step(seat.user_id, player, forced, None)
        return None

    async def _run_autos(self, live: LiveGame, first: Applied, actors: set[str], sender: str) -> Applied:
        """Carry out the moves of armed auto-actions (and forced passes) while the acting seat has one."""
        reply = first.reply
        views = first.views
        ended = first.ended  # the game a move ended: its summary goes with the reply
        chained = 0
        while chained < MAX_CHAIN and not live.game.finished:
            step = await self._next_step(live, reply)
            if step is None:
                break
            head = _tail_removed(reply.text, self._next_line(live))
            name = self._seat_name(live, step.user_id)
            why = (f"programmed: auto {auto.describe(step.record.spec, live.game)}"
                   if step.record is not None else "the only legal move")
            # The log keeps that the move was the bot's, beside the move itself (one transaction).
            notes = [self._note_action(live, f"{name}'s next move is automatic ({why})", step.player.id)]
            try:
                made = await super()._apply(live, step.action, step.user_id, step.player.id, notes=notes)
            except StaleStateError:
                self._cache.drop(live.id)
                log.info("auto-action chain in game %s stopped: another process moved", live.id)
                break
            if made.reply.seq is None:
                if step.record is not None:
                    await self._switch_off(live, reply, step.record, f"the engine refused its move: {made.reply.text}")
                break
            chained += 1
            actors.add(step.user_id)
            lines = _marked(made.reply.text.split("\n"), name, step.action, why)
            reply.text = head + "\n" + "\n".join(lines)
            reply.seq = made.reply.seq
            reply.buttons = made.reply.buttons
            reply.board = made.reply.board
            reply.notify.extend(made.reply.notify)
            reply.mentions.extend(u for u in made.reply.mentions if u not in reply.mentions)
            views = made.views or views
            ended = made.ended or ended
            await self._disarm_stale(live, reply, step.action, step.player.id)
        if chained:
            _drop_moot_pings(live, reply, sender)
        return Applied(reply, views, ended)


def _auto_buttons(live: LiveGame) -> list[Button]:
    """One-click programs for the ``auto`` listing: a pass for the rest of this auction or round, and off."""
    kind = getattr(live.game.round, "kind", "")
    out: list[Button] = []
    if not live.game.finished and kind in auto.PLAYER_ROUNDS:
        scope = "auction" if kind == "auction" else "round"
        out.append(Button(f"Auto-pass this {scope}", f"@{live.seq} auto pass {scope}", "primary"))
    out.append(Button("Auto off", f"@{live.seq} auto off", "secondary"))
    return out


def _marked(lines: list[str], name: str, action: dict[str, Any], why: str) -> list[str]:
    """A programmed move's lines with its mark on the line saying what its player did (a pass the engine logs
    nothing for gets a line of its own)."""
    if action.get("type") == "pass" and not any(line.startswith(f"{name} pass") for line in lines):
        lines = [f"{name} passes", *lines]
    at = next((n for n, line in enumerate(lines) if line.startswith(f"{name} ") and " becomes " not in line), None)
    if at is None:
        return [f"{name} (automatic: {why}):", *lines]
    lines[at] = f"{lines[at]} (automatic: {why})"
    return lines


def _before_tail(text: str, line: str, tail: str) -> str:
    """``line`` added to ``text``, before the "Next: ..." block it ends with (if it does)."""
    if tail and text.endswith("\n" + tail):
        return f"{text[: -len(tail) - 1]}\n{line}\n{tail}"
    return f"{text}\n{line}" if text else line


def _tail_removed(text: str, tail: str) -> str:
    """``text`` without the "Next: ..." block a reply ends with (a later move's block replaces it)."""
    return text[: -len(tail) - 1] if tail and text.endswith("\n" + tail) else text


def _drop_moot_pings(live: LiveGame, reply: Reply, sender: str) -> None:
    """Keep only turn pings of players who must act after the whole chain (each once, the latest), except
    the sender's, who reads the reply anyway."""
    acting = set(acting_player_ids(live.game)) if not live.game.finished else set()
    users = {s.user_id for s in live.seats if s.player_id in acting}
    kept: dict[tuple[str, str], Notification] = {}
    for note in reply.notify:
        if note.kind in ("turn", "reminder") and (note.user_id not in users or note.user_id == sender):
            continue
        kept[(note.user_id, note.kind)] = note
    reply.notify = list(kept.values())
    keep = {n.user_id for n in reply.notify if n.mentioned} | {
        n.user_id for n in reply.notify if n.kind not in ("turn", "reminder")
    }
    reply.mentions[:] = [u for u in reply.mentions if u in keep]
