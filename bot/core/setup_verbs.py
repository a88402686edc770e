"""Setting a game up and moving it between places: ``new``, ``join``, ``leave``, ``start``, ``abandon``,
``import`` and ``export``."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from bot.core import images
from bot.core.commands import (
    CommandError,
    did_you_mean,
    illegal,
    malformed,
)
from bot.core.game_names import checked_rules, display_title, game_name, variant_named
from bot.core.import_file import ImportRefused, read_import
from bot.core.intents import to_int
from bot.core.live import LoadError, encode_snapshot, engine_options, engine_players, engine_version
from bot.core.notify import acting_player_ids
from bot.core.replies import Attachment, Notification, Outcome, Reply
from bot.core.service_core import IMPORT_ACTOR, Applied, Request, ServiceCore
from bot.core.text import board_text, refused_action, round_name
from bot.storage import (
    ActionRecord,
    ChannelBusyError,
    GameFullError,
    GameRecord,
    GameStatus,
    NotFoundError,
    ReplayFailure,
    SeatTakenError,
    StatusConflictError,
)
from engine import TITLES, GameError, export_title, title_class
from engine.api import Game
from engine.importer import EDITION_SETTING, RECORDED_SETTING


class SetupVerbs(ServiceCore):
    """The verbs that create, fill, start, end, import and export a channel's game."""

    async def _new(self, req: Request) -> list[Reply]:
        args = req.command.args
        if not args:
            raise malformed(f"name the title: `new TITLE`; available: {', '.join(TITLES)}")
        variant = variant_named(args[0])
        try:
            cls = title_class(variant[0] if variant else args[0])
        except GameError:
            raise malformed(
                f"no title {args[0]}{did_you_mean(args[0], list(TITLES))}; available: {', '.join(TITLES)}"
            ) from None
        low, high = _player_range(cls)
        seed: int | None = None
        options: dict[str, Any] = {"optional_rules": [], "rules_edition": cls.RULES_EDITION}
        asked: list[str] = list(variant[1]) if variant else []
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
                asked.append(word)
        options["optional_rules"] = checked_rules(cls, asked)
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
            if exc.game_id is not None:
                await self._refuse_if_broken(await self.storage.get_game(exc.game_id))
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
            f"{req.user_name} created {display_title(cls.TITLE, options['optional_rules'])} game #{game_id} and "
            "takes seat 1. Others: `join`. "
            f"Then {req.user_name} sends `start` ({low} to {cap} players)."
        )
        if options["optional_rules"]:
            text += f" Optional rules: {', '.join(options['optional_rules'])}."
        label = str(cls.edition_label())
        if label:
            text += f"\n{label}"
        return [Reply(text, game_id=game_id)]

    async def _open_game(self, req: Request) -> GameRecord:
        record = await self._channel_game(req)
        if record.status != GameStatus.OPEN:
            await self._refuse_if_broken(record)
            raise illegal(f"game #{record.id} has already started")
        return record

    async def _join(self, req: Request) -> list[Reply]:
        record = await self._open_game(req)
        async with self._lock(record.id):
            seats = await self.storage.list_seats(record.id)
            if any(s.user_id == req.user_id for s in seats):
                raise illegal("you already have a seat in this game")
            imported = record.options.get("players")
            kwargs: dict[str, Any] = {"open_only": True}
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
                kwargs |= {"seat": pick[0], "player_id": pick[1]}
            else:
                _, high = _player_range(title_class(record.title))
                cap = int(record.options.get("max_players", high))
                if len(seats) >= cap:
                    raise illegal(f"the game is full ({cap} players)")
                kwargs["max_seats"] = cap
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
            except GameFullError as exc:
                raise illegal(f"the game is full ({exc.max_seats} players)") from None
            except StatusConflictError:
                raise illegal(f"game #{record.id} has already started") from None
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
                    raise illegal(f"{game_name(record)} needs {low} to {high} players; {len(seats)} seated")
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
                f"Game #{record.id} ({display_title(record.title, record.options.get('optional_rules') or ())}) "
                f"starts. Seat order: {order_names}.",
                *game.log_lines[-8:],
                self._next_line(live),
            ]
            reply = Reply("\n".join(lines), game_id=record.id, board=board_text(live))
            # The first players to act are pinged even when one of them sent `start`: the game may have been
            # started (or imported) long before they look, and the ping carries their buttons.
            for pid in acting_player_ids(game):
                seat = live.user_of(pid)
                if seat is not None:
                    reply.mentions.append(seat.user_id)
                    reply.notify.append(
                        Notification(seat.user_id, self._turn_text(live, pid), "turn", live.id)
                    )
            reply.buttons = self._buttons(live)
            await self.pings.track(live, (), None)
            await self.pings.route(live, reply)
            views = images.take_views(game, live.id, live.seq) if self.images else None
        return [await self._with_pictures(Applied(reply, views))]

    async def _abandon(self, req: Request) -> list[Reply]:
        record = await self._channel_game(req)
        async with self._lock(record.id):
            seats = await self.storage.list_seats(record.id)
            if record.status == GameStatus.OPEN:
                if not self._may_start(record, seats, req.user_id) and not req.moderator:
                    raise CommandError(Outcome.DENIED, "only the player who created the game can abandon it")
                await self._close(record, GameStatus.OPEN)
                return [Reply(f"Game #{record.id} is abandoned.", game_id=record.id)]
            live = await self._live(record)
            done = await self._abandon_now(req, live)
            if done is not None:
                return [done]
            self._seated_player(live, req.user_id)
            others = [s.user_id for s in live.seats if s.user_id != req.user_id]
            if not others:
                await self._close(record, GameStatus.ACTIVE)
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

    async def _close(self, record: GameRecord, expected: GameStatus) -> None:
        """Abandon a game that is still ``expected`` (not one another process finished or started)."""
        try:
            await self.storage.update_game_status(record.id, GameStatus.ABANDONED, expected=expected)
        except StatusConflictError as exc:
            raise illegal(f"game #{record.id} is {exc.actual} now; nothing was changed") from None

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
            raw = read_import(blob)
            gf = parse_game_json(raw)
            cls = title_class(gf.title)
        except ImportRefused as exc:
            raise malformed(str(exc)) from None
        except GameError as exc:
            raise malformed(exc.message) from None
        reached: list[Any] = [None]

        def note(index: int, action: dict[str, Any], game: Game) -> None:
            reached[0] = action.get("id")

        try:
            game = await asyncio.to_thread(replay, gf, note)
        except ReplayError as exc:
            raise illegal(
                f"that game does not replay here: action {exc.action_id}: {exc.error.message}"
            ) from None
        except GameError as exc:
            raise illegal(f"that game cannot be set up: {exc.message}") from None
        except Exception as exc:  # the engine met a value of the wrong shape inside an action
            after = "at its set-up" if reached[0] is None else f"after action {reached[0]}"
            raise malformed(
                f"that file cannot be read {after}: an action holds a value of the wrong kind "
                f"({type(exc).__name__})"
            ) from None
        if game.finished:
            raise illegal("that game is already over")
        options = {
            "optional_rules": list(gf.options.get("optional_rules") or []),
            "rules_edition": game.rules_edition,
            "recorded_runs": gf.options.get("recorded_runs") is True,
            "players": [[pid, name] for pid, name in gf.players],
            "imported": raw.get("id") if isinstance(raw.get("id"), str | int) else None,
            "imported_actions": len(gf.actions),
        }
        try:
            game_id = await self.storage.import_game(
                platform=req.platform,
                channel=req.channel,
                title=cls.TITLE,
                seed=gf.seed,
                options=options,
                engine_version=engine_version(),
                created_by=req.user_id,
                actions=gf.actions,
                actor=IMPORT_ACTOR,
                snapshot=encode_snapshot(game) if gf.actions else None,
            )
        except ChannelBusyError as exc:
            if exc.game_id is not None:
                await self._refuse_if_broken(await self.storage.get_game(exc.game_id))
            raise illegal(f"this channel already has game #{exc.game_id}") from None
        except (TypeError, ValueError) as exc:
            raise malformed(f"that file cannot be stored: {exc}") from None
        names = ", ".join(name for _, name in gf.players)
        return [
            Reply(
                f"Imported {cls.TITLE} game {options['imported'] or ''} as game #{game_id}: {len(gf.actions)} "
                f"actions, now {round_name(game)}. Players: {names}. Each of you: `join NAME`; then "
                f"{req.user_name} sends `start`.",
                game_id=game_id,
            )
        ]

    async def _export(self, req: Request) -> list[Reply]:
        record = await self._channel_game(req, include_past=True)
        if record.status == GameStatus.OPEN:
            raise illegal("the game has not started yet")
        failure: ReplayFailure | None = None
        async with self._lock(record.id):
            try:
                live = await self._live(record)
            except LoadError as exc:
                # The stored log is all there is: export it as stored, without what only a replay can tell.
                record, game, failure = exc.record, None, exc.failure
                players = engine_players(record, await self.storage.list_seats(record.id))
            else:
                record, game = live.record, live.game
                players = live.game.player_specs
            records = await self.storage.load_action_records(record.id)
            doc = export_document(record, players, records, game)
        data = json.dumps(doc, ensure_ascii=False).encode("utf-8")
        name = f"{game_name(record)}-game{record.id}.json"
        text = f"Game #{record.id} as 18xx.games JSON: {len(records)} actions. "
        if failure is None:
            text += f"It replays with `python -m engine.replay {name}`."
        else:
            text += (
                f"They are exported as stored; this engine cannot continue the game ({refused_action(failure)}), "
                "so its status and result are left out."
            )
        return [
            Reply(
                text,
                attachments=[Attachment(name, data, "the game as 18xx.games JSON", "file")],
                game_id=record.id,
            )
        ]


def _title_label(title: str) -> str:
    try:
        return title_class(title).edition_label()
    except GameError:
        return ""


def _player_range(cls: Any) -> tuple[int, int]:
    data = cls.data()["game"]
    return int(data.get("min_players", 1)), int(data.get("max_players", 99))


def export_document(
    record: GameRecord, players: list[tuple[int, str]], records: list[ActionRecord], game: Game | None = None
) -> dict[str, Any]:
    """The game in 18xx.games' JSON form (what ``python -m engine.replay`` and the importer read).

    ``game`` is the live engine state, which tells whose turn it is and the result. Without it (a game whose
    stored log no longer replays) the document has the stored actions, players and settings, the status as
    stored, an empty result, and under ``broken`` the action the engine refuses.
    """
    actions = []
    for rec in records:
        action = dict(rec.data)
        action.setdefault("created_at", int(rec.created_at))
        actions.append(action)
    options = engine_options(record)
    settings: dict[str, Any] = {"seed": record.seed, "optional_rules": options["optional_rules"],
                                EDITION_SETTING: options["rules_edition"]}
    if options.get("recorded_runs"):
        settings[RECORDED_SETTING] = True
    doc: dict[str, Any] = {
        "id": record.id,
        "description": f"Roundhouse game #{record.id} ({record.platform} {record.channel})"
        + (f". {label}" if (label := _title_label(record.title)) else ""),
        "title": export_title(record.title),
        "players": [{"id": pid, "name": name} for pid, name in players],
        "max_players": len(players),
        "settings": settings,
        "status": "finished" if record.status == GameStatus.FINISHED else "active",
        "result": {},
        "actions": actions,
        "loaded": True,
        "created_at": int(record.created_at),
        "updated_at": int(record.updated_at),
    }
    if game is not None:
        finished = bool(game.finished)
        doc["status"] = "finished" if finished else "active"
        doc.update(turn=game.turn, round=round_name(game), acting=acting_player_ids(game))
        if finished:
            doc["result"] = game.result()
            doc["game_end_reason"] = game.game_end_reason
    elif record.broken is not None:
        failure = record.broken.failure
        doc["broken"] = {
            "seq": failure.seq,
            "action_id": failure.action_id,
            "type": failure.action_type,
            "message": failure.message,
            "engine_version": failure.engine_version,
        }
    return doc
