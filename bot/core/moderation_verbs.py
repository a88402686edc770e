"""Keeping a game alive when a player vanishes: ``replace``, ``kick``, and a moderator's or an idle game's
``abandon``.

A seat is handed on only by its holder, by a vote of the other seats that has at least one voter besides the
asker (with none, only a moderator can), or by a moderator (adapters say who is one: Discord's Manage Server
permission or a configured role, Slack's configured list). Votes belong to seats: a seat handed on passes its
place among the voters of pending requests to its new holder. A moderator may also abandon a game at once,
settle a request nobody answers, and remove a seat before the start. After ``inactive_days`` without a
player's move any seated player may abandon alone.

Each of these is written into the game's log as a message action, so ``history`` and the export show who did
what; the note and the change it records are stored in one transaction (:meth:`bot.storage.Storage.commit`)
with the log's position checked as for a move, so a note never claims a change that did not happen, and a
move computed before a seat changed hands cannot land after it.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from bot.core.commands import CommandError, illegal, malformed
from bot.core.live import LiveGame
from bot.core.notify import acting_player_ids
from bot.core.replies import Notification, Outcome, Reply
from bot.core.service_core import _RETRIES, BOT_ACTOR, Request, ServiceCore, settled_refusal
from bot.storage import (
    ConsentRecord,
    ConsentStatus,
    GameRecord,
    GameStatus,
    NotFoundError,
    SeatMove,
    SeatRecord,
    SeatTakenError,
    StaleStateError,
    StatusConflictError,
    TableChange,
)

_MENTION = re.compile(r"^<@!?(?P<id>[A-Za-z0-9]+)(?:\|[^>]*)?>$")


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
        for _ in range(_RETRIES):
            try:
                return await self._replace_once(req, record)
            except StaleStateError:
                continue  # a move landed meanwhile: look again at the game as it is now
        raise CommandError(Outcome.CONFLICT, "the game kept changing while the seat was handed on; try again")

    async def _replace_once(self, req: Request, record: GameRecord) -> list[Reply]:
        new_id, new_name = user_ref(req.command.args[1])
        async with self._lock(record.id):
            record = await self.storage.get_game(record.id)
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
                if record.status != GameStatus.ACTIVE:
                    raise CommandError(
                        Outcome.DENIED,
                        f"before the start only {old.display_name} or a moderator can hand on that seat "
                        "(the game's creator can `kick` it)",
                    )
                voters = [s.user_id for s in seats if s.user_id not in (req.user_id, old.user_id)]
                if not voters:
                    raise CommandError(
                        Outcome.DENIED,
                        f"no other player is left to vote on it, so only {old.display_name} or a moderator "
                        "can hand on that seat",
                    )
                live = await self._live(record)
                what = f"hand {old.display_name}'s seat to {new_name}"
                payload = {"old": old.user_id, "new": new_id, "name": new_name, "what": what}
                return [await self._ask(live, req, "replace", payload, voters, what)]
            why = "themselves" if by_self else "by a moderator"
            return [await self._hand_on(record, old, new_id, new_name, f"{req.user_name}, {why}", req.platform)]

    def _seat_named(self, record: GameRecord, seats: list[SeatRecord], word: str) -> SeatRecord:
        user_id, name = user_ref(word)
        for seat in seats:
            if seat.user_id == user_id or seat.display_name.lower() == name.lower():
                return seat
        seated = ", ".join(s.display_name for s in seats) or "nobody"
        raise malformed(f"{name} has no seat in game #{record.id}; seated: {seated}")

    async def _hand_on(
        self,
        record: GameRecord,
        old: SeatRecord,
        new_id: str,
        new_name: str,
        by: str,
        platform: str,
        *,
        head: str = "",
        consent: tuple[int, ConsentStatus] | None = None,
    ) -> Reply:
        """Move the seat and record it (after the note ``head``, settling ``consent``), in one transaction.
        Call with the game's lock held. Raises StaleStateError when the log moved on meanwhile."""
        text = f"{new_name} takes over {old.display_name}'s seat (handed on by {by})"
        live = None
        notes: list[dict[str, Any]] = []
        if record.status == GameStatus.ACTIVE:
            live = await self._live(record)
            notes = [self._note_action(live, t, old.player_id if t == text else None) for t in (head, text) if t]
        move = SeatMove(old.user_id, platform, new_id, new_name)
        try:
            committed = await self.storage.commit(
                record.id,
                live.seq + 1 if live is not None else None,
                TableChange(tuple((n, BOT_ACTOR) for n in notes), seat=move, consent=consent),
            )
        except SeatTakenError:
            raise illegal(f"{new_name} already has a seat in game #{record.id}") from None
        except NotFoundError:
            raise illegal(f"{old.display_name} has no seat in game #{record.id} any more") from None
        except StatusConflictError as exc:
            raise settled_refusal(record.id, exc) from None
        finally:
            self._cache.drop(record.id)  # the engine's players changed hands (or its notes were not stored)
        seat = committed.seat
        assert seat is not None
        await self.pings.cancel(record.id, old.user_id)
        reply = Reply(f"{head}\n{text}." if head else f"{text}.", game_id=record.id)
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
            # The bot's own notes (a seat handed on, a request settled) are no player's move.
            last = await self.storage.last_action_at(live.id, skip_actor=BOT_ACTOR) or live.record.updated_at
            idle_days = (self.clock() - last) / 86400
            if idle_days >= self.settings.inactive_days:
                reason = f"by {req.user_name} after {idle_days:.0f} days without a move"
        if reason is None:
            return None
        player = live.player_of(req.user_id)
        try:
            await self._commit_notes(
                live, [f"game abandoned {reason}"], status=GameStatus.ABANDONED, player_id=player.id if player else None
            )
        except StaleStateError:
            raise CommandError(Outcome.CONFLICT, "the game changed meanwhile; nothing was changed, try again") from None
        await self.pings.cancel(live.id)
        self._cache.drop(live.id)
        return Reply(f"Game #{live.id} is abandoned ({reason}).", game_id=live.id)

    # ------------------------------------------------------------------ requests

    async def _approved_request(
        self, record: GameRecord, consent: ConsentRecord, head: str, note: str = ""
    ) -> Reply | None:
        """Carry out an approved replace request, settling it in the same transaction."""
        if consent.kind != "replace":
            return None
        seats = await self.storage.list_seats(record.id)
        old = next((s for s in seats if s.user_id == consent.payload.get("old")), None)
        if old is None:
            with contextlib.suppress(StatusConflictError):
                await self.storage.resolve_consent(consent.id, ConsentStatus.CANCELLED, now=self.clock())
            raise illegal("that seat was handed on already")
        reply = await self._hand_on(
            record,
            old,
            str(consent.payload["new"]),
            str(consent.payload.get("name") or consent.payload["new"]),
            "the other players' vote" if not note else "a moderator",
            record.platform,
            head=note,
            consent=(consent.id, ConsentStatus.APPROVED),
        )
        reply.text = f"{head}\n{reply.text}"
        return reply
