"""The game service: one command from one chat user in, platform-neutral replies out.

:class:`GameService` puts together the core (state, entry point, the path of a move:
:mod:`bot.core.service_core`), the set-up verbs, the undo and consent verbs, and here the verbs that only
look at a game plus what the adapters call besides :meth:`handle` (due reminders, autocomplete).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import time
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot import metrics
from bot.config import Settings
from bot.core import choices, game_story, images, timefmt
from bot.core import prefs as prefs_mod
from bot.core.auto_verbs import AutoVerbs
from bot.core.commands import (
    CommandError,
    did_you_mean,
    help_text,
    malformed,
    parse,
    split_position,
    verb_named,
)
from bot.core.consent_verbs import ConsentVerbs
from bot.core.fork_verbs import ForkVerbs, owner_of
from bot.core.game_names import display_title, game_name
from bot.core.intents import entities_of, split_move, to_int, waiting_for
from bot.core.live import LiveGame, LoadError
from bot.core.moderation_verbs import ModerationVerbs
from bot.core.moves_text import move_lines
from bot.core.notify import acting_player_ids
from bot.core.replies import GameSummary, Notification, Outcome, Reply
from bot.core.service_core import IMPORT_ACTOR, NOTE_PREFIX, Answer, Handler, Request, ServiceCore, _with_args
from bot.core.settings_verbs import SettingsVerbs
from bot.core.setup_verbs import SetupVerbs
from bot.core.text import board_text, history_page, refused_action, result_line, round_name, status_lines, who_lines
from bot.storage import (
    LIVE_STATUSES,
    GameStatus,
    Storage,
    is_postgres_url,
)
from engine.core import query

log = logging.getLogger(__name__)

#: Nudges of one game are this far apart at least (in seconds).
NUDGE_SECONDS = 3600

#: Seconds before each new try of a ping the chat platform refused.
RETRY_DELAYS = (60.0, 600.0, 3600.0)


class GameService(ForkVerbs, AutoVerbs, SetupVerbs, ConsentVerbs, ModerationVerbs, ServiceCore):
    """Runs every game of every channel. Adapters call :meth:`handle` and deliver the replies."""

    def _verb_handlers(self) -> dict[str, Handler]:
        handlers: dict[str, Handler] = {
            "new": self._new,
            "join": self._join,
            "leave": self._leave,
            "start": self._start,
            "abandon": self._abandon,
            "replace": self._replace,
            "kick": self._kick,
            "import": self._import,
            "export": self._export,
            "status": self._status,
            "companies": self._companies,
            "who": self._who,
            "nudge": self._nudge,
            "stats": self._stats,
            "moves": self._moves,
            "history": self._history,
            "games": self._games,
            "map": self._map,
            "chart": self._chart,
            "summary": self._summary,
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
        handlers.update(self._async_handlers(handlers["away"]))
        handlers["fork"] = self._fork
        return handlers

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], settings: Settings | None = None, **kwargs: Any
    ) -> GameService:
        """Open (creating) the database at ``path`` and a service on it."""
        if not is_postgres_url(path):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        storage = await Storage.open(path, synchronous=settings.synchronous if settings else None)
        await asyncio.to_thread(images.warm_up)
        return cls(storage, settings, **kwargs)

    async def close(self) -> None:
        await self.storage.close()

    async def handle(
        self, platform: str, channel: str, user_id: str, user_name: str, text: str, **options: Any
    ) -> list[Reply]:
        """:meth:`ServiceCore.handle`, measured (:mod:`bot.metrics`: verb, outcome, time to the replies)."""
        started = time.perf_counter()
        replies = await super().handle(platform, channel, user_id, user_name, text, **options)
        if metrics.active() is not None:
            outcome = replies[0].outcome.value if replies else "ok"
            metrics.command(self._verb_label(text), outcome, time.perf_counter() - started)
        return replies

    def _verb_label(self, text: str) -> str:
        """The verb of a command line as a metric label: a known verb or move, else ``other``."""
        try:
            command = parse(split_position(text)[1])
        except CommandError:
            return metrics.OTHER
        if command.verb in self._handlers or split_move(command) is not None:
            return command.verb
        return metrics.OTHER

    # ------------------------------------------------------------------ looking

    async def _view(self, req: Request) -> LiveGame:
        record = await self._channel_game(req, include_past=True)
        if record.status == GameStatus.OPEN:
            seats = await self.storage.list_seats(record.id)
            names = ", ".join(s.display_name for s in seats) or "nobody"
            raise Answer(
                Reply(
                    f"{game_name(record)} game #{record.id} has not started. Seated: {names}.", game_id=record.id
                )
            )
        async with self._lock(record.id):
            return await self._live(record)

    async def _status(self, req: Request) -> list[Reply]:
        live = await self._view(req)
        card = images.status_text(live.game)
        if card:
            name = display_title(live.record.title, live.record.options.get("optional_rules") or ())
            if name != live.record.title and card.startswith(live.record.title + " "):
                card = name + card[len(live.record.title):]
            text = f"Game #{live.id}: " + card
            if live.game.finished:
                text += "\n" + result_line(live)
        else:
            text = "\n".join(status_lines(live))
        label = live.game.edition_label()
        if label:
            text += "\n" + label  # 1862: a reconstructed edition, said wherever a player meets it
        notes = await self._seat_notes(live)
        away = [self._seat_name(live, u) for u, note in notes.items() if "(away)" in note]
        if away:
            text += "\nAway: " + ", ".join(away)
        autos = await self.auto_card_lines(live)
        if autos:
            text += "\n" + "\n".join(autos)
        reply = Reply(text, game_id=live.id, buttons=self._buttons(live), board=board_text(live))
        if self.images:
            async with self._lock(live.id):
                views = images.take_views(live.game, live.id, live.seq, ("status", "map"))
            reply.attachments.extend(await images.render(views))
        return [reply]

    async def _companies(self, req: Request) -> list[Reply]:
        live = await self._view(req)
        text = images.companies_text(live.game) or "\n".join(status_lines(live))
        return [Reply(f"Game #{live.id} companies:\n{text}", game_id=live.id)]

    async def _who(self, req: Request) -> list[Reply]:
        live = await self._view(req)
        notes = await self._seat_notes(live)
        lines = who_lines(live, notes)
        if not live.game.finished:
            lines[0] += f" (since {timefmt.mark(await self._turn_since(live))})"
        return [Reply("\n".join(lines), game_id=live.id)]

    async def _turn_since(self, live: LiveGame) -> float:
        """When the last move was stored (the start of the wait), or when the game was last updated."""
        last = await self.storage.last_seq(live.id)
        records = await self.storage.load_action_records(live.id, after_seq=max(0, last - 1))
        return records[-1].created_at if records else live.record.updated_at

    async def _nudge(self, req: Request) -> list[Reply]:
        """A seated player reminds whoever must act, at most once per ``NUDGE_SECONDS`` per game."""
        live = await self._view(req)
        if live.game.finished:
            raise CommandError(Outcome.GAME_OVER, f"game #{live.id} is over")
        me = self._seated_player(live, req.user_id)
        waiting = [live.user_of(pid) for pid in acting_player_ids(live.game)]
        targets = [s for s in waiting if s is not None and s.user_id != req.user_id]
        if not targets:
            raise CommandError(Outcome.ILLEGAL, "nobody else is to act: it is your move")
        now = self.clock()
        last = self._nudged.get(live.id)
        if last is not None and now - last < NUDGE_SECONDS:
            wait = -int(-(NUDGE_SECONDS - (now - last)) // 60)  # whole minutes, rounded up
            raise CommandError(
                Outcome.DENIED, f"a nudge was sent {int((now - last) // 60)} minutes ago; try again in {wait} minutes"
            )
        self._nudged[live.id] = now
        since = timefmt.mark(await self._turn_since(live))
        text = f"{me.name} nudges {', '.join(s.display_name for s in targets)}: your move in game #{live.id} " \
            f"(waiting since {since})."
        reply = Reply(text, game_id=live.id, mentions=[s.user_id for s in targets])
        for seat in targets:
            reply.notify.append(Notification(seat.user_id, text, "turn", live.id))
        await self.pings.route(live, reply)
        return [reply]

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
            word = req.command.args[0] if req.command.args else None
            can_lay = any("lay_tile" in live.game.actions_for(e) for e in entities_of(live.game, player))
            if word is not None and word.upper() in live.game.board.hexes and can_lay:
                return [await self._lay_options(live, player, word)]
            complete = word is not None and word.lower() == "all"
            only = word if word is not None and not complete else None
            if only is not None:
                self._check_filter(live, only)
            lines = move_lines(live.game, player, only=only, complete=complete)
            if not lines and only is not None:
                return [
                    Reply(f"Nothing you can send now concerns {only}; `moves` lists all.", ephemeral=True,
                          game_id=live.id)
                ]
            if not lines:
                return [
                    Reply(
                        f"Nothing to do for you now. {waiting_for(live.game)} must act.",
                        ephemeral=True,
                        game_id=live.id,
                    )
                ]
            buttons = choices.move_buttons(live.game, [player], live.seq)
        return [Reply("You can send:\n" + "\n".join(lines), ephemeral=True, game_id=live.id, buttons=buttons)]

    @staticmethod
    def _check_filter(live: LiveGame, word: str) -> None:
        """A ``moves`` filter must name a hex, a company or a private (a near miss gets a suggestion)."""
        game = live.game
        names = [*game.board.hexes, *game.corporations, *game.companies]
        if not any(word.lower() == n.lower() for n in names):
            raise malformed(f"`moves` takes a hex, a company or `all`, not {word}{did_you_mean(word, names)}")

    async def _history(self, req: Request) -> list[Reply]:
        args = list(req.command.args)
        if args and args[0].startswith("#"):
            live = await self._game_by_number(req, args.pop(0))
        else:
            live = await self._view(req)
        page = to_int(args[0], "the page") if args else 1
        lines, pages = history_page(list(live.game.log_lines), page, self.settings.history_page)
        page = min(max(page, 1), pages)
        more = f" `history {page + 1}` for older." if page < pages else ""
        head = f"Game #{live.id} log, page {page} of {pages} (page 1 is the newest; lines run oldest to newest).{more}"
        if page == 1:
            # Seat changes and moderators' decisions are message actions, which the engine's log leaves out.
            notes = [
                f"  action {r.seq}: {str(r.data['message'])[len(NOTE_PREFIX):]}"
                for r in await self.storage.load_action_records(live.id)
                if r.data.get("type") == "message" and str(r.data.get("message", "")).startswith(NOTE_PREFIX)
            ]
            if notes:
                lines = [*lines, "At the table:", *notes[-5:]]
        return [Reply("\n".join([head, *lines]), game_id=live.id)]

    async def _games(self, req: Request) -> list[Reply]:
        which = req.command.args[0].lower().lstrip("-") if req.command.args else ""
        if which in ("finished", "done", "over", "past"):
            return [await self._finished_games(req)]
        if which in ("open", "lobby"):
            return [await self._open_games(req)]
        if which and which not in ("mine", "live"):
            raise malformed(f"`games` takes nothing, `--open` or `--finished`, not {req.command.args[0]}")
        records = await self.storage.list_games_for_user(req.platform, req.user_id, statuses=LIVE_STATUSES)
        if not records:
            return [Reply("You are not in any game. Create one with `new 1882`.", ephemeral=True)]
        lines = ["Your games:"]
        for record in records:
            where = f"#{record.id} {game_name(record)} in {record.channel}"
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

    async def _finished_games(self, req: Request) -> Reply:
        """``games --finished``: the user's finished games with their results, newest first."""
        records = await self.storage.list_games_for_user(req.platform, req.user_id, statuses={GameStatus.FINISHED})
        if not records:
            return Reply("You have no finished games yet.", ephemeral=True)
        lines = ["Your finished games (`history #N` reads one's log):"]
        for record in records[:20]:
            where = f"#{record.id} {game_name(record)} in {record.channel}"
            try:
                async with self._lock(record.id):
                    live = await self._live(record)
                    lines.append(f"  {where}: {result_line(live)}")
            except LoadError as exc:
                lines.append(f"  {where}: cannot be replayed with this engine ({refused_action(exc.failure)})")
        return Reply("\n".join(lines), ephemeral=True)

    async def _open_games(self, req: Request) -> Reply:
        """``games --open``: games on this platform that have not started and still have a free seat."""
        lines = []
        for record in await self.storage.list_games(statuses={GameStatus.OPEN}):
            if record.platform != req.platform:
                continue
            seats = await self.storage.list_seats(record.id)
            cap = int(record.options.get("max_players", _max_players(record.title)))
            if len(seats) >= cap:
                continue
            names = ", ".join(s.display_name for s in seats) or "nobody yet"
            lines.append(
                f"  #{record.id} {game_name(record)} in {record.channel}: {len(seats)}/{cap} seated ({names}); "
                "`join` there"
            )
        if not lines:
            return Reply("No game is waiting for players. Start one with `new 1882`.", ephemeral=True)
        return Reply("\n".join(["Games with free seats:", *lines]), ephemeral=True)

    async def _game_by_number(self, req: Request, word: str) -> LiveGame:
        """A game named ``#N`` that the sender sat at (finished ones included)."""
        number = to_int(word.lstrip("#"), "the game number")
        mine = await self.storage.list_games_for_user(req.platform, req.user_id)
        record = next((r for r in mine if r.id == number), None)
        if record is None:
            raise CommandError(Outcome.NO_GAME, f"you have no game #{number}; `games --finished` lists yours")
        async with self._lock(record.id):
            return await self._live(record)

    async def _stats(self, req: Request) -> list[Reply]:
        """Per player on this platform: games finished, wins, average place, and average time to move."""
        played: dict[str, list[int]] = {}  # user id -> places in finished games
        names: dict[str, str] = {}
        waits: dict[str, list[float]] = {}
        for record in await self.storage.list_games(statuses={GameStatus.ACTIVE, GameStatus.FINISHED}):
            if record.platform != req.platform or owner_of(record) is not None:
                continue  # practice copies are not played games
            seats = await self.storage.list_seats(record.id)
            for seat in seats:
                names[seat.user_id] = seat.display_name
            previous = record.created_at
            for action in await self.storage.load_action_records(record.id):
                if action.actor in names and action.actor != IMPORT_ACTOR:
                    waits.setdefault(action.actor, []).append(max(0.0, action.created_at - previous))
                previous = action.created_at
            if record.status != GameStatus.FINISHED:
                continue
            try:
                async with self._lock(record.id):
                    live = await self._live(record)
            except LoadError:
                continue
            ranked = sorted(live.game.result().items(), key=lambda kv: -kv[1])
            for place, (pid, _) in enumerate(ranked, start=1):
                holder = live.user_of(int(pid))
                if holder is not None:
                    played.setdefault(holder.user_id, []).append(place)
        if not names:
            return [Reply("No games have been played here yet.", ephemeral=True)]
        medians = await self.pace.medians(req.platform)
        lines = [
            "Players here (finished games, wins, average place; median time to move across games, in waking "
            "time: quiet hours and time away not counted):"
        ]
        order = sorted(names, key=lambda u: (-sum(1 for p in played.get(u, []) if p == 1), names[u]))
        for user in order:
            places = played.get(user, [])
            wins = sum(1 for p in places if p == 1)
            result = (
                f"{len(places)} finished, {wins} won, average place {sum(places) / len(places):.1f}"
                if places
                else "no finished game"
            )
            moves = waits.get(user, [])
            median = medians.get(user)
            if median is not None:
                pace = f"median {_duration(median[0])} over {median[1]} turns"
            elif moves:  # games from before the pace clock: their plain average
                pace = f"average {_duration(sum(moves) / len(moves))} over {len(moves)} moves"
            else:
                pace = "no moves yet"
            lines.append(f"  {names[user]}: {result}; {pace}")
        return [Reply("\n".join(lines), ephemeral=True)]

    async def overview(self, platform: str, user_id: str) -> list[GameSummary]:
        """The user's live games as data: where they are, and whether it is the user's turn."""
        out: list[GameSummary] = []
        for record in await self.storage.list_games_for_user(platform, user_id, statuses=LIVE_STATUSES):
            base = GameSummary(record.id, record.title, record.channel, record.status != GameStatus.OPEN)
            if not base.started:
                out.append(base)
                continue
            try:
                async with self._lock(record.id):
                    live = await self._live(record)
                    player = live.player_of(user_id)
                    mine = tuple(
                        a.label for a in query.actors(live.game) if player is not None and a.player_id == player.id
                    )
                    out.append(
                        replace(
                            base,
                            round=round_name(live.game),
                            your_turn=mine,
                            waiting_for="" if mine else waiting_for(live.game),
                        )
                    )
            except LoadError as exc:
                out.append(replace(base, problem=f"cannot continue with this engine ({refused_action(exc.failure)})"))
        return out

    async def _pictures(self, req: Request) -> list[Reply]:
        live = await self._view(req)
        kind = req.command.verb
        if not images.available():
            return [Reply("Pictures are not available yet on this server.", ephemeral=True, game_id=live.id)]
        async with self._lock(live.id):
            views = images.take_views(live.game, live.id, live.seq, (kind,))
        pictures = await images.render(views)
        return [Reply(f"The {kind} of game #{live.id}.", attachments=pictures, game_id=live.id)]

    async def _map(self, req: Request) -> list[Reply]:
        """``map``: the whole board; ``map HEX`` or ``map COMPANY``: a phone-sized crop around it."""
        if not req.command.args:
            return await self._pictures(req)
        live = await self._view(req)
        word = req.command.args[0]
        if not images.available():
            return [Reply("Pictures are not available yet on this server.", ephemeral=True, game_id=live.id)]
        async with self._lock(live.id):
            board = images.board_of(live.game)
            hexes = {h.id.upper(): h.id for h in board.hexes}
            focus = [hexes[word.upper()]] if word.upper() in hexes else game_story.network_hexes(live.game, word)
        if not focus:
            corps = ", ".join(sorted(c for c in live.game.corporations))
            raise malformed(f"`map` takes a hex (e.g. `map {board.hexes[0].id}`) or a company with stations on "
                            f"the map ({corps}), not {word}")
        views = images.Views(live.id, live.seq, {"crop": images.CropView(board, tuple(focus))})
        pictures = await images.render(views)
        what = f"around {focus[0]}" if len(focus) == 1 and focus[0].upper() == word.upper() else f"of {word.upper()}"
        return [Reply(f"The map {what} in game #{live.id}.", attachments=pictures, game_id=live.id)]

    async def _story_game(self, req: Request) -> tuple[LiveGame, list[str]]:
        """The game a ``chart`` or ``summary`` is about (``#N`` among the words, else this channel's) and the
        other words."""
        args = list(req.command.args)
        numbered = [a for a in args if a.startswith("#")]
        if numbered:
            args.remove(numbered[0])
            return await self._game_by_number(req, numbered[0]), args
        return await self._view(req), args

    async def _chart(self, req: Request) -> list[Reply]:
        live, words = await self._story_game(req)
        kind = game_story.CHART_WORDS.get(words[0].lower() if words else "")
        if kind is None or len(words) > 1:
            raise malformed(f"`chart` takes value, prices or revenue (or nothing: all three), not {' '.join(words)}")
        if not images.available():
            return [Reply("Pictures are not available yet on this server.", ephemeral=True, game_id=live.id)]
        history = await game_story.history_of(self.storage, self.stories, live)
        pictures = await game_story.chart_pictures(history, kind, live.id, live.seq)
        what = {"all": "Charts", "value": "Net worth", "prices": "Share prices", "revenue": "Revenue"}[kind]
        return [Reply(f"{what} of game #{live.id} after {len(history.rounds)} rounds.", attachments=pictures,
                      game_id=live.id)]

    async def _summary(self, req: Request) -> list[Reply]:
        live, words = await self._story_game(req)
        if words:
            raise malformed(f"`summary` takes a finished game's number (`summary #12`) or nothing, not {words[0]}")
        if not live.game.finished:
            raise CommandError(Outcome.ILLEGAL, f"game #{live.id} is not over yet: `chart` shows how it goes so far")
        text, pictures = await game_story.summary(self.storage, self.stories, live, pictures=self.images)
        return [Reply(f"Game #{live.id}: {text}", attachments=pictures, game_id=live.id)]

    async def _help(self, req: Request) -> list[Reply]:
        topic = req.command.args[0] if req.command.args else None
        if topic is not None and verb_named(topic) is None:
            about = await self._private_help(req, topic)
            if about is not None:
                return [Reply(about, ephemeral=True)]
        return [Reply(help_text(topic), ephemeral=True)]

    async def _private_help(self, req: Request, word: str) -> str | None:
        """``help NWR``: what a private of this channel's game does and how its power is used."""
        record = await self.storage.find_game(req.platform, req.channel)
        if record is None or record.status != GameStatus.ACTIVE:
            return None
        async with self._lock(record.id):
            live = await self._live(record)
            comp = next((c for s, c in live.game.companies.items() if s.lower() == word.lower()), None)
            if comp is None:
                return None
            money = live.game.format_money
            holder = getattr(comp.owner, "name", None) or getattr(comp.owner, "sym", None) or "the bank"
            lines = [
                f"{comp.sym} {comp.name}: value {money(comp.value)}, revenue {money(comp.revenue)}, "
                f"{'closed' if comp.closed else 'held by ' + str(holder)}.",
            ]
            if comp.desc:
                lines.append(comp.desc)
            if comp.abilities:
                lines.append(
                    f"Its owner uses a power with `{comp.sym.lower()} VERB ...` when it may (`moves` shows how)."
                )
            return "\n".join(lines)

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
            due = await self.pings.due(now, self._locked_live, platforms)
            due += await self.pace.due(now, platforms)
            await self.close_expired_forks(now)
        # Times in each reader's zone (Slack's adapter writes its dates itself, after escaping).
        return [n if n.platform == "slack" else replace(n, text=timefmt.render(n.text, n.platform)) for n in due]

    async def retry_later(self, note: Notification) -> bool:
        """Queue a turn ping that could not be delivered (the channel refused it) to be sent again.

        The reminder loop hands it out after :data:`RETRY_DELAYS` (checked against the game then: a turn
        that is over is dropped). A ping is retried at most ``len(RETRY_DELAYS)`` times; returns False
        when it will not be (not a turn ping, or no tries left).
        """
        if note.game_id is None or note.kind not in ("turn", "reminder"):
            return False
        digest = hashlib.sha256(note.text.encode("utf-8", "replace")).hexdigest()[:16]
        for attempt, delay in enumerate(RETRY_DELAYS, start=1):
            queued = await self.storage.outbox_enqueue(
                f"retry:{note.game_id}:{note.user_id}:{digest}:{attempt}",
                platform=note.platform,
                user_id=note.user_id,
                kind="turn",
                payload={"text": note.text, "attempt": attempt},
                due_at=self.clock() + delay,
                game_id=note.game_id,
            )
            if queued is not None:
                metrics.outbox_retry()
                return True
        return False

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

    async def companies_here(
        self, platform: str, channel: str, partial: str, fallback: Sequence[str], limit: int = 25
    ) -> list[str]:
        """The private companies of the channel's game starting with ``partial`` (``fallback`` without one)."""
        try:
            record = await self.storage.find_game(platform, channel)
            names: list[str] = list(fallback)
            if record is not None:
                from engine import title_class

                companies = title_class(record.title).data()["game"].get("companies", [])
                names = [str(c["sym"]) for c in companies]
        except Exception:
            log.exception("companies_here(%r) failed in %s/%s", partial, platform, channel)
            names = list(fallback)
        return choices.fixed_words(names, partial, limit)

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


def _max_players(title: str) -> int:
    from engine import TITLES

    cls = TITLES.get(title)
    return int(cls.data()["game"].get("max_players", 99)) if cls is not None else 99


def _duration(seconds: float) -> str:
    """``2h 05m``, ``14m``, ``40s``."""
    if seconds >= 3600:
        return f"{int(seconds // 3600)}h {int(seconds % 3600 // 60):02d}m"
    if seconds >= 60:
        return f"{int(seconds // 60)}m"
    return f"{int(seconds)}s"
