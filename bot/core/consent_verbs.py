"""Taking moves back and asking other players: ``undo``, ``redo``, ``approve`` and ``decline``.

Undoing your own last action is free until someone else has acted; past that, and for deals with another
player's company, the players concerned are asked and the action waits for their answers.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from typing import Any

from bot.core.commands import (
    CommandError,
    illegal,
    malformed,
)
from bot.core.intents import TYPE_WORDS, to_int
from bot.core.live import LiveGame
from bot.core.replies import Outcome, Reply
from bot.core.service_core import IMPORT_ACTOR, Request, ServiceCore, settled_refusal
from bot.storage import (
    ActionRecord,
    ConsentStatus,
    GameStatus,
    NotFoundError,
    StaleStateError,
    StatusConflictError,
)
from engine.core.actions import filter_undo


@dataclass(slots=True)
class _Undo:
    action: dict[str, Any]
    others: list[str]  # chat users whose actions it removes (they must approve)
    removed: list[ActionRecord] = field(default_factory=list)


class ConsentVerbs(ServiceCore):
    """The verbs that take moves back and answer other players' requests."""

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
            who = seated if rec.actor == IMPORT_ACTOR else [rec.actor]
            others.extend(u for u in who if u != user_id and u not in others)
        return _Undo(action, others, removed)

    async def _undo(self, req: Request) -> list[Reply]:
        record = await self._active_game(req)
        async with self._lock(record.id):
            live = await self._live(record)
            self._check_position(req, live)
            player = self._seated_player(live, req.user_id)
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
            self._check_position(req, live)
            player = self._seated_player(live, req.user_id)
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
            record = await self.storage.get_game(record.id)
            if record.status != GameStatus.ACTIVE:
                # A request lives only as long as its game: nothing is applied to a game that has ended.
                with contextlib.suppress(StatusConflictError):
                    await self.storage.resolve_consent(cid, ConsentStatus.CANCELLED, now=now)
                raise illegal(f"game #{record.id} is {record.status}, so request {cid} no longer applies")
            if now >= consent.expires_at:
                await self.storage.resolve_consent(cid, ConsentStatus.EXPIRED, now=now)
                raise illegal(f"request {cid} has expired")
            live = await self._live(record)
            what = consent.payload.get("what", consent.kind)
            if not approve and req.user_id == consent.requested_by and req.user_id not in consent.approvers:
                await self.storage.resolve_consent(cid, ConsentStatus.CANCELLED, now=now)
                return [Reply(f"{req.user_name} withdraws request {cid} ({what}).", game_id=record.id)]
            forced = req.user_id not in consent.approvers and req.moderator
            if req.user_id not in consent.approvers and not forced:
                raise CommandError(Outcome.DENIED, f"request {cid} is not waiting for you")
            if not forced and live.seat_of(req.user_id) is None:
                # Votes belong to seats: one handed on votes through its new holder.
                raise CommandError(Outcome.DENIED, f"you no longer hold a seat: request {cid} is not yours to answer")
            note = ""
            if forced:
                verb = "approves" if approve else "cancels"
                note = f"{req.user_name}, a moderator, {verb} request {cid} ({what})"
            if forced:
                # A moderator settles a request stuck on players who do not answer.
                if consent.kind in ("undo", "deal") and live.seq != int(consent.payload.get("seq", -1)):
                    await self.storage.resolve_consent(cid, ConsentStatus.CANCELLED, now=now)
                    raise illegal(f"the game moved on since request {cid} was made; ask again")
                if not approve:
                    try:  # the note and the cancellation, together
                        await self._commit_notes(live, [note], consent=(cid, ConsentStatus.REJECTED))
                    except StaleStateError:
                        raise CommandError(Outcome.CONFLICT, "the game changed meanwhile; try again") from None
                    return [Reply(f"{note}; nothing changes.", game_id=record.id)]
                consent = replace(consent, approvers=dict.fromkeys(consent.approvers, True))
            else:
                try:
                    consent = await self.storage.record_vote(cid, req.user_id, approve, now=now)
                except StatusConflictError as exc:  # settled by another process meanwhile
                    raise settled_refusal(record.id, exc) from None
                except NotFoundError:  # the seat was handed on meanwhile
                    raise CommandError(Outcome.DENIED, f"request {cid} is not waiting for you") from None
            if not approve:
                await self.storage.resolve_consent(cid, ConsentStatus.REJECTED, now=now)
                return [
                    Reply(
                        f"{req.user_name} declines request {cid} ({what}); nothing changes.",
                        mentions=[consent.requested_by],
                        game_id=record.id,
                    )
                ]
            seated = {s.user_id for s in live.seats}
            waiting = [u for u, vote in consent.approvers.items() if vote is not True and u in seated]
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
            head = note + "." if note else f"{req.user_name} approves request {cid} ({what})."
            settled = (cid, ConsentStatus.APPROVED)
            # The request is settled in the same transaction as what it carries out: all or nothing.
            try:
                done = await self._approved_request(record, consent, head, note)
            except StaleStateError:
                raise CommandError(Outcome.CONFLICT, f"the game changed meanwhile; `approve {cid}` again") from None
            if done is not None:
                return [done]
            if consent.kind == "abandon":
                try:
                    await self._commit_notes(live, [note] if note else [], consent=settled, status=GameStatus.ABANDONED)
                except StaleStateError:
                    raise CommandError(
                        Outcome.CONFLICT, f"the game changed meanwhile; `approve {cid}` again"
                    ) from None
                await self.pings.cancel(record.id)
                self._cache.drop(record.id)
                return [Reply(f"{head}\nGame #{record.id} is abandoned.", game_id=record.id)]
            notes = [self._note_action(live, note, None)] if note else []
            try:
                applied = await self._apply(
                    live,
                    dict(consent.payload["action"]),
                    consent.requested_by,
                    consent.payload.get("pid"),
                    notes=notes,
                    consent=settled,
                )
            except StaleStateError:
                raise CommandError(Outcome.CONFLICT, "the game changed meanwhile; ask again") from None
            if not applied.reply.ok:
                # The engine refused what was asked (the game is not where it was): nothing is stored.
                with contextlib.suppress(StatusConflictError):
                    await self.storage.resolve_consent(cid, ConsentStatus.CANCELLED, now=now)
        reply = await self._with_pictures(applied)
        if reply.ok:
            reply.text = head + "\n" + reply.text
        return [reply]

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
