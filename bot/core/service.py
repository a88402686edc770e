"""The game service: one command from one chat user in, platform-neutral replies out.

:class:`GameService` puts together the core (state, entry point, the path of a move:
:mod:`bot.core.service_core`), the set-up verbs, the undo and consent verbs, and here the verbs that only
look at a game plus what the adapters call besides :meth:`handle` (due reminders, autocomplete).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.core import choices, images
from bot.core import prefs as prefs_mod
from bot.core.commands import (
    help_text,
    verb_named,
)
from bot.core.consent_verbs import ConsentVerbs
from bot.core.intents import legal_commands, to_int, waiting_for
from bot.core.live import LiveGame, LoadError
from bot.core.replies import Notification, Reply
from bot.core.service_core import Answer, Handler, Request, ServiceCore, _with_args
from bot.core.settings_verbs import SettingsVerbs
from bot.core.setup_verbs import SetupVerbs
from bot.core.text import history_page, refused_action, result_line, round_name, status_lines, who_lines
from bot.storage import (
    LIVE_STATUSES,
    GameStatus,
    Storage,
)
from engine.core import query

log = logging.getLogger(__name__)


class GameService(SetupVerbs, ConsentVerbs, ServiceCore):
    """Runs every game of every channel. Adapters call :meth:`handle` and deliver the replies."""

    def _verb_handlers(self) -> dict[str, Handler]:
        handlers: dict[str, Handler] = {
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
        self.settings_verbs = SettingsVerbs(self.storage, self.pings, self.clock, self._locked_live)
        for verb, run in (
            ("notify", self.settings_verbs.notify),
            ("remind", self.settings_verbs.remind),
            ("quiet", self.settings_verbs.quiet),
            ("away", self.settings_verbs.away),
            ("prefs", self.settings_verbs.show),
        ):
            handlers[verb] = _with_args(run)
        return handlers

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

    # ------------------------------------------------------------------ looking

    async def _view(self, req: Request) -> LiveGame:
        record = await self._channel_game(req, include_past=True)
        if record.status == GameStatus.OPEN:
            seats = await self.storage.list_seats(record.id)
            names = ", ".join(s.display_name for s in seats) or "nobody"
            raise Answer(
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
        label = getattr(live.game, "edition_label", None)
        if callable(label):
            text += "\n" + str(label())  # 1862: a reconstructed edition, said wherever a player meets it
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
            player = self._seated_player(live, req.user_id)
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
            try:
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
            except LoadError as exc:
                lines.append(f"  {where}: cannot continue with this engine ({refused_action(exc.failure)})")
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

    # ------------------------------------------------------------------ for adapters: timers and autocomplete

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
        except LoadError:
            return []  # nothing can be played in a game whose log no longer replays
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
