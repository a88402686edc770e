"""The what-if sandbox: ``fork`` makes a private practice copy of a game, played by one player on every seat.

A fork is a game of its own (its own record, seats and log) made from a prefix of the real game's stored log,
in a channel of its own; the real game is only read. Its seats are held by stand-ins of the one player
(``alice~2`` for seat 2), and whatever that player sends in the fork's channel acts for the seat that must act.
A fork pings nobody: its replies carry no mentions or notifications, and no reminder is queued for it. It is
closed (abandoned, which frees its channel) by ``fork close`` or when it expires; ``export`` works in it like in
any game.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from bot.core.commands import CommandError, malformed
from bot.core.intents import to_int
from bot.core.live import LiveGame, engine_players, engine_version
from bot.core.notify import acting_player_ids
from bot.core.replies import Outcome, Reply
from bot.core.service_core import IMPORT_ACTOR, Applied, Request, ServiceCore
from bot.storage import ChannelBusyError, ConsentStatus, GameRecord, GameStatus, StatusConflictError
from bot.storage.async_play import AsyncPlayStore, ForkRecord
from engine.core.entities import Player

#: How long a practice copy lives unless closed sooner.
FORK_HOURS = 7 * 24.0
USAGE = "`fork` (the game as it stands), `fork at ACTION` or `fork #GAME at ACTION`, and `fork close` in the copy"
#: ``fork`` and its aliases (adapters open a thread for them).
FORK_VERBS = ("fork", "sandbox", "whatif")
#: The word an adapter adds to ``fork`` to name the channel (thread) it opened for the copy: ``into=ID``.
INTO = "into="
#: Marks a stand-in seat's user id: ``<owner>~<seat>``.
STAND_IN = "~"


def owner_of(record: GameRecord) -> str | None:
    """The player a practice copy belongs to (None for a real game)."""
    owner = record.options.get("fork_owner")
    return str(owner) if owner else None


class ForkVerbs(ServiceCore):
    """``fork`` and ``fork close``, and the rules that keep a practice copy private and silent."""

    _fork_store: AsyncPlayStore | None = None

    @property
    def fork_store(self) -> AsyncPlayStore:
        if self._fork_store is None:
            self._fork_store = AsyncPlayStore(self.storage)
        return self._fork_store

    async def _fork(self, req: Request) -> list[Reply]:
        args = [a for a in req.command.args if not a.lower().startswith(INTO)]
        # Adapters that open a private thread (Discord) or a thread (Slack) for the copy name it last.
        into = next((a[len(INTO):] for a in req.command.args if a.lower().startswith(INTO)), None)
        if args and args[0].lower() in ("close", "delete", "end"):
            return [await self._fork_close(req)]
        source = await self._fork_source(req, args)
        at = None
        if args:
            if args[0].lower() != "at" or len(args) != 2:
                raise malformed(f"unexpected `{' '.join(args)}`; {USAGE}")
            at = to_int(args[1].lstrip("#"), "the action number")
        async with self._lock(source.id):
            live = await self._live(source)
            self._seated_player(live, req.user_id)
            if owner_of(live.record) is not None:
                raise CommandError(Outcome.ILLEGAL, "this is a practice copy already; fork the real game")
            last = live.seq
            at = last if at is None else at
            if not 0 <= at <= last:
                raise malformed(f"game #{source.id} has actions 0 to {last}; `fork at N` takes one of those")
            records = await self.storage.load_action_records(source.id)
            actions = [r.data for r in records[:at]]
            players = engine_players(live.record, live.seats)
        return [await self._make_fork(req, source, at, actions, players, into)]

    async def _fork_source(self, req: Request, args: list[str]) -> GameRecord:
        if args and args[0].startswith("#"):
            number = to_int(args.pop(0).lstrip("#"), "the game number")
            mine = await self.storage.list_games_for_user(req.platform, req.user_id)
            record = next((r for r in mine if r.id == number), None)
            if record is None:
                raise CommandError(Outcome.NO_GAME, f"you have no game #{number}; `games` lists yours")
        else:
            record = await self._channel_game(req, include_past=True)
        if record.status == GameStatus.OPEN:
            raise CommandError(Outcome.ILLEGAL, "the game has not started yet: there is nothing to practise on")
        return record

    async def _make_fork(
        self,
        req: Request,
        source: GameRecord,
        at: int,
        actions: Sequence[dict[str, Any]],
        players: list[Any],
        into: str | None,
    ) -> Reply:
        now = self.clock()
        options = {
            **{k: v for k, v in source.options.items() if k not in ("imported", "imported_actions")},
            "players": [[pid, name] for pid, name in players],
            "fork_of": source.id,
            "fork_at": at,
            "fork_owner": req.user_id,
        }
        count = len(await self.fork_store.forks_of(req.user_id))
        channel = into or f"fork-{source.id}-{req.user_id}-{count + 1}"
        try:
            game_id = await self.storage.import_game(
                platform=req.platform,
                channel=channel,
                title=source.title,
                seed=source.seed,
                options=options,
                engine_version=engine_version(),
                created_by=req.user_id,
                actions=actions,
                actor=IMPORT_ACTOR,
            )
        except ChannelBusyError:
            raise CommandError(Outcome.CONFLICT, "a practice copy is being made already; try again") from None
        for seat, (pid, name) in enumerate(players):
            await self.storage.add_seat(
                game_id, platform=req.platform, user_id=f"{req.user_id}{STAND_IN}{seat + 1}",
                display_name=str(name), seat=seat, player_id=int(pid),
            )
        await self.storage.update_game_status(game_id, GameStatus.ACTIVE, expected=GameStatus.OPEN)
        expires = now + FORK_HOURS * 3600
        await self.fork_store.add_fork(ForkRecord(game_id, source.id, at, req.user_id, expires, None))
        text = (
            f"Practice copy game #{game_id} of game #{source.id} at action {at} is ready in its own channel "
            f"`{channel}`: you play every seat there, nobody is pinged and game #{source.id} is not touched. "
            f"`fork close` there deletes it; it closes by itself after {FORK_HOURS / 24:g} days."
        )
        return Reply(text, ephemeral=True, game_id=game_id)

    async def _fork_close(self, req: Request) -> Reply:
        record = await self.storage.find_game(req.platform, req.channel)
        if record is None or owner_of(record) is None:
            raise CommandError(Outcome.NO_GAME, "`fork close` is sent in the practice copy's own channel")
        if owner_of(record) != req.user_id:
            raise CommandError(Outcome.DENIED, "only the player who made this practice copy may close it")
        await self._close_fork(record.id)
        return Reply(f"Practice copy game #{record.id} is closed.", game_id=record.id)

    async def _close_fork(self, game_id: int) -> None:
        await self.fork_store.close_fork(game_id, self.clock())
        await self.pings.cancel(game_id)
        with contextlib.suppress(StatusConflictError):  # finished or closed meanwhile
            await self.storage.update_game_status(game_id, GameStatus.ABANDONED)
        self._cache.drop(game_id)

    async def close_expired_forks(self, now: float) -> int:
        """Close every practice copy past its time (the reminder loop calls this); returns how many."""
        expired = await self.fork_store.expired_forks(now)
        for fork in expired:
            await self._close_fork(fork.game_id)
        return len(expired)

    # ------------------------------------------------------------------ a copy's own rules

    def _seated_player(self, live: LiveGame, user_id: str) -> Player:  # type: ignore[override]
        """In a practice copy its owner acts for whichever seat must act."""
        if owner_of(live.record) == user_id and not live.game.finished:
            pids = acting_player_ids(live.game)
            players: list[Player] = live.game.players
            player = next((p for p in players if pids and p.id == pids[0]), None)
            if player is not None:
                return player
        return ServiceCore._seated_player(live, user_id)

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
        applied = await super()._apply(live, action, actor, actor_pid, notes=notes, consent=consent)
        if owner_of(live.record) is not None:
            applied.reply.notify = []
            applied.reply.mentions = []
            await self.pings.cancel(live.id)  # reminders queued for its stand-ins: nobody is pinged
        return applied
