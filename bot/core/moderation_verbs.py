"""Keeping a game alive when a player vanishes: ``replace``, ``kick``, and a moderator's or an idle game's
``abandon``.

A seat is handed on by the leaving player, by a vote of the other seats, or by a moderator (adapters say who
is one: Discord's Manage Server permission or a configured role, Slack's configured list). A moderator may
also abandon a game at once, settle a request nobody answers, and remove a seat before the start. After
``inactive_days`` without a move any seated player may abandon alone. Each of these is written into the
game's log as a message action, so ``history`` and the export show who did what.
"""

from __future__ import annotations

import re
from typing import Any

from bot.core.commands import CommandError, illegal, malformed
from bot.core.live import LiveGame
from bot.core.notify import acting_player_ids
from bot.core.replies import Notification, Outcome, Reply
from bot.core.service_core import Request, ServiceCore
from bot.storage import (
    ConsentRecord,
    GameRecord,
    GameStatus,
    NotFoundError,
    SeatRecord,
    SeatTakenError,
    StatusConflictError,
)

_MENTION = re.compile(r"^<@!?(?P<id>[A-Za-z0-9]+)(?:\|[^>]*)?>$")
NOTE_PREFIX = "[table] "


def user_ref(word: str) -> tuple[str, str]:
    """``(user id, name to show)`` of a user named in a command: a chat mention, or a plain name."""
    match = _MENTION.match(word)
    if match is not None:
        return match["id"], f"<@{match['id']}>"
    plain = word.lstrip("@")
    return plain.lower(), plain


class ModerationVerbs(ServiceCore):
    """Seat replacement, moderators' overrides and abandoning an idle game."""

    # ------------------------------------------------------------------ replace

    async def _replace(self, req: Request) -> list[Reply]:
        if len(req.command.args) != 2:
            raise malformed("say whose seat goes to whom: `replace @old @new`")
        record = await self._channel_game(req)
        new_id, new_name = user_ref(req.command.args[1])
        async with self._lock(record.id):
            seats = await self.storage.list_seats(record.id)
            old = self._seat_named(record, seats, req.command.args[0])
            if any(s.user_id == new_id for s in seats):
                raise illegal(f"{new_name} already has a seat in game #{record.id}")
            by_self = old.user_id == req.user_id
            if not by_self and not req.moderator:
                if not any(s.user_id == req.user_id for s in seats):
                    raise CommandError(
                        Outcome.DENIED,
                        f"only {old.display_name}, the other players (by vote) or a moderator can hand on that seat",
                    )
                voters = [s.user_id for s in seats if s.user_id not in (req.user_id, old.user_id)]
                if voters and record.status == GameStatus.ACTIVE:
                    live = await self._live(record)
                    what = f"hand {old.display_name}'s seat to {new_name}"
                    payload = {"old": old.user_id, "new": new_id, "name": new_name, "what": what}
                    return [await self._ask(live, req, "replace", payload, voters, what)]
            why = "themselves" if by_self else ("by a moderator" if req.moderator else "by the other players")
            return [await self._hand_on(record, old, new_id, new_name, f"{req.user_name}, {why}", req.platform)]

    def _seat_named(self, record: GameRecord, seats: list[SeatRecord], word: str) -> SeatRecord:
        user_id, name = user_ref(word)
        for seat in seats:
            if seat.user_id == user_id or seat.display_name.lower() == name.lower():
                return seat
        seated = ", ".join(s.display_name for s in seats) or "nobody"
        raise malformed(f"{name} has no seat in game #{record.id}; seated: {seated}")

    async def _hand_on(
        self, record: GameRecord, old: SeatRecord, new_id: str, new_name: str, by: str, platform: str
    ) -> Reply:
        """Move the seat and record it. Call with the game's lock held."""
        text = f"{new_name} takes over {old.display_name}'s seat (handed on by {by})"
        live = None
        if record.status == GameStatus.ACTIVE:
            live = await self._live(record)
            await self._note(live, text, old.player_id)
        try:
            seat = await self.storage.replace_seat(
                record.id, old.user_id, platform=platform, user_id=new_id, display_name=new_name
            )
        except SeatTakenError:
            raise illegal(f"{new_name} already has a seat in game #{record.id}") from None
        except NotFoundError:
            raise illegal(f"{old.display_name} has no seat in game #{record.id} any more") from None
        except StatusConflictError as exc:
            raise illegal(f"game #{record.id} is {exc.actual}") from None
        self._cache.drop(record.id)
        await self.pings.cancel(record.id, old.user_id)
        reply = Reply(f"{text}.", game_id=record.id)
        if live is not None:
            live = await self._live(record)
            if seat.player_id in acting_player_ids(live.game):
                reply.text += "\n" + self._next_line(live)
                reply.mentions.append(new_id)
                reply.notify.append(Notification(new_id, self._turn_text(live, seat.player_id), "turn", live.id))
                reply.buttons = self._buttons(live)
                await self.pings.route(live, reply)
                await self.pings.start(live, new_id, str(live.seq))
        return reply

    async def _note(self, live: LiveGame, text: str, player_id: int | None) -> None:
        """Write ``text`` into the game's log as a message action (shown by ``history`` and exported)."""
        pid = player_id if player_id is not None else live.game.players[0].id
        action: dict[str, Any] = {
            "type": "message",
            "entity": pid,
            "entity_type": "player",
            "message": NOTE_PREFIX + text,
        }
        live.game.process(action)
        try:
            live.seq = await self.storage.append_action(live.id, live.seq + 1, live.game.raw_actions[-1], "bot")
        except BaseException:
            self._cache.drop(live.id)
            raise

    # ------------------------------------------------------------------ kick

    async def _kick(self, req: Request) -> list[Reply]:
        if len(req.command.args) != 1:
            raise malformed("say whose seat to remove: `kick @user`")
        record = await self._channel_game(req)
        async with self._lock(record.id):
            seats = await self.storage.list_seats(record.id)
            seat = self._seat_named(record, seats, req.command.args[0])
            if record.status != GameStatus.OPEN:
                raise illegal(f"game #{record.id} has started: hand the seat on with `replace @old @new`")
            if not req.moderator and req.user_id != record.created_by:
                raise CommandError(Outcome.DENIED, "only a moderator or the game's creator can remove a seat")
            try:
                await self.storage.remove_seat(record.id, seat.user_id)
            except NotFoundError:
                raise illegal(f"{seat.display_name} has no seat any more") from None
        return [Reply(f"{req.user_name} removes {seat.display_name} from game #{record.id}.", game_id=record.id)]

    # ------------------------------------------------------------------ abandon without consent

    async def _abandon_now(self, req: Request, live: LiveGame) -> Reply | None:
        """Abandon at once for a moderator, or for a seated player after ``inactive_days`` without a move;
        None when the other players must be asked. Call with the game's lock held."""
        reason = None
        if req.moderator:
            reason = f"by {req.user_name}, a moderator"
        elif live.seat_of(req.user_id) is not None:
            last = await self.storage.last_action_at(live.id) or live.record.updated_at
            idle_days = (self.clock() - last) / 86400
            if idle_days >= self.settings.inactive_days:
                reason = f"by {req.user_name} after {idle_days:.0f} days without a move"
        if reason is None:
            return None
        player = live.player_of(req.user_id)
        await self._note(live, f"game abandoned {reason}", player.id if player else None)
        try:
            await self.storage.update_game_status(live.id, GameStatus.ABANDONED, expected=GameStatus.ACTIVE)
        except StatusConflictError as exc:
            raise illegal(f"game #{live.id} is {exc.actual} now; it stays so") from None
        await self.pings.cancel(live.id)
        self._cache.drop(live.id)
        return Reply(f"Game #{live.id} is abandoned ({reason}).", game_id=live.id)

    # ------------------------------------------------------------------ requests

    async def _approved_request(self, record: GameRecord, consent: ConsentRecord, head: str) -> Reply | None:
        if consent.kind != "replace":
            return None
        seats = await self.storage.list_seats(record.id)
        old = next((s for s in seats if s.user_id == consent.payload.get("old")), None)
        if old is None:
            raise illegal("that seat was handed on already")
        reply = await self._hand_on(
            record,
            old,
            str(consent.payload["new"]),
            str(consent.payload.get("name") or consent.payload["new"]),
            "the other players' vote",
            record.platform,
        )
        reply.text = f"{head}\n{reply.text}"
        return reply

    async def _moderated_request(self, req: Request, live: LiveGame, consent: ConsentRecord, approve: bool) -> None:
        """A moderator settles a request that waits for others: the log records it."""
        verb = "approves" if approve else "cancels"
        what = consent.payload.get("what", consent.kind)
        await self._note(live, f"{req.user_name}, a moderator, {verb} request {consent.id} ({what})", None)
