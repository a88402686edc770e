"""Seats change hands only by their holder, a real vote or a moderator, and the log never claims a change
that did not happen (issue 31, "Seats and votes")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.core.replies import Outcome, Reply
from bot.core.service import GameService
from bot.storage import ConsentStatus, GameStatus, Storage
from tests.bot.conftest import FakeClock, Table, started
from tests.bot.storage.conftest import fresh_schema, postgres_server  # noqa: F401  (fixture)

DAY = 86400.0


async def _mod(table: Table, user: str, text: str) -> Reply:
    (reply,) = await table.service.handle(table.platform, table.channel, user, user, text, moderator=True)
    return reply


async def _seats(table: Table, game_id: int) -> list[str]:
    return [s.user_id for s in await table.service.storage.list_seats(game_id)]


async def _notes(storage: Storage, game_id: int, words: str) -> list[int]:
    return [
        r.seq
        for r in await storage.load_action_records(game_id)
        if r.data.get("type") == "message" and words in str(r.data.get("message"))
    ]


async def test_before_the_start_no_player_gives_another_seat_away(table: Table) -> None:
    assert (await table.say("alice", "new 1882")).ok
    for user in ("bob", "carol"):
        assert (await table.say(user, "join")).ok
    refused = await table.say("bob", "replace carol mallory")
    assert refused.outcome == Outcome.DENIED and "kick" in refused.text
    refused = await table.say("bob", "replace alice mallory")  # the creator's seat neither (kick is theirs)
    assert refused.outcome == Outcome.DENIED
    assert await _seats(table, 1) == ["alice", "bob", "carol"]
    assert (await table.say("carol", "replace carol dave")).ok  # a holder hands their own seat on
    assert (await _mod(table, "mod", "replace bob erin")).ok  # and a moderator may
    assert await _seats(table, 1) == ["alice", "erin", "dave"]


async def test_with_nobody_else_to_vote_only_a_moderator_can_hand_a_seat_on(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    refused = await table.say("bob", "replace alice sockpuppet")
    assert refused.outcome == Outcome.DENIED and "moderator" in refused.text
    assert await _seats(table, game_id) == ["alice", "bob"]
    assert await table.service.storage.list_consents(game_id) == []  # and nothing waits for a vote
    assert (await _mod(table, "mod", "replace alice sockpuppet")).ok


async def test_a_refused_hand_on_leaves_no_note(table: Table) -> None:
    """Two requests name the same newcomer and both are approved: the second is refused, and neither the
    "takes over" note nor a moderator's "approves" note of it stays in the log or the export."""
    game_id = await started(table, users=("alice", "bob", "carol", "dave"), seed=5)
    assert (await table.say("bob", "replace alice mallory")).outcome == Outcome.PENDING  # request 1: carol, dave
    assert (await table.say("carol", "replace dave mallory")).outcome == Outcome.PENDING  # request 2: alice, bob
    assert (await table.say("carol", "approve 1")).ok
    assert "mallory takes over alice's seat" in (await table.say("dave", "approve 1")).text
    assert await _seats(table, game_id) == ["mallory", "bob", "carol", "dave"]
    settled = await _mod(table, "mod", "approve 2")  # mallory already sits: refused, nothing written
    assert settled.outcome == Outcome.ILLEGAL and "already has a seat" in settled.text
    assert (await table.say("bob", "approve 2")).ok
    refused = await table.say("mallory", "approve 2")  # alice's vote passed to mallory with her seat
    assert refused.outcome == Outcome.ILLEGAL and "already has a seat" in refused.text
    storage = table.service.storage
    assert len(await _notes(storage, game_id, "takes over")) == 1
    assert await _notes(storage, game_id, "approves request") == []
    history = (await table.say("bob", "history")).text
    assert history.count("takes over") == 1 and "approves request 2" not in history
    exported = (await table.say("bob", "export")).attachments[0].data
    assert exported.count(b"takes over") == 1
    assert await _seats(table, game_id) == ["mallory", "bob", "carol", "dave"]


async def test_votes_belong_to_the_current_seat_holders(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob", "carol"), seed=5)
    assert (await table.say("bob", "abandon")).outcome == Outcome.PENDING  # request 1: alice and carol
    assert (await table.say("alice", "replace alice zed")).ok  # alice leaves the table
    refused = await table.say("alice", "approve 1")
    assert refused.outcome == Outcome.DENIED
    waiting = await table.say("carol", "approve 1")
    assert "still waiting for zed" in waiting.text  # the seat's new holder is asked
    (request,) = await table.service.storage.list_consents(game_id)
    assert set(request.approvers) == {"zed", "carol"}
    assert (await table.say("zed", "approve 1")).ok
    assert (await table.service.storage.get_game(game_id)).status == GameStatus.ABANDONED


async def test_the_idle_clock_ignores_the_bots_own_notes(table: Table, clock: FakeClock) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    await table.say("alice", "buy HB")
    clock.advance(15 * DAY)
    assert (await _mod(table, "mod", "replace bob carol")).ok  # a note in the log, but nobody moved
    done = await table.say("alice", "abandon")
    assert done.ok and "after 15 days without a move" in done.text
    assert (await table.service.storage.get_game(game_id)).status == GameStatus.ABANDONED


# ---------------------------------------------------------------------------------------------- two processes


@pytest.fixture
async def two(postgres_server: str, clock: FakeClock) -> AsyncIterator[tuple[Table, Table]]:  # noqa: F811
    """Two bot processes (each its own pool and service) on one PostgreSQL database."""
    async with fresh_schema(postgres_server) as url:
        services = [
            GameService(await Storage.open(url, clock=clock), Settings(images=False), clock=clock) for _ in range(2)
        ]
        try:
            yield Table(services[0]), Table(services[1])
        finally:
            for service in services:
                await service.close()


async def test_a_moderator_settling_while_the_last_voter_approves(two: tuple[Table, Table], tmp_path: Path) -> None:
    a, b = two
    for round_ in range(6):
        channel = f"race-{round_}"
        a.channel = b.channel = channel
        game_id = await started(a, users=("alice", "bob", "carol"), seed=5)
        assert (await b.say("bob", "replace alice zed")).outcome == Outcome.PENDING  # carol votes
        (request,) = await a.service.storage.list_consents(game_id)
        voter, moderator = await asyncio.gather(
            a.say("carol", f"approve {request.id}"), _mod(b, "mod", f"approve {request.id}")
        )
        outcomes = {voter.outcome, moderator.outcome}
        assert Outcome.INTERNAL not in outcomes, (voter.text, moderator.text)
        assert voter.ok != moderator.ok, (voter.text, moderator.text)  # exactly one of them carried it out
        storage = a.service.storage
        assert (await storage.get_consent(request.id)).status == ConsentStatus.APPROVED
        assert await _seats(a, game_id) == ["zed", "bob", "carol"]
        assert len(await _notes(storage, game_id, "takes over")) == 1
        assert len(await _notes(storage, game_id, "approves request")) == (1 if moderator.ok else 0)
        await _mod(a, "mod", "abandon")


def _slowed(storage: Storage, name: str, *, before: float = 0.0, after: float = 0.0) -> None:
    """Make one storage method of one process stall (a busy machine), to line up a race."""
    real = getattr(storage, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(before)
        result = await real(*args, **kwargs)
        await asyncio.sleep(after)
        return result

    setattr(storage, name, slow)


async def test_a_moderator_hands_a_seat_on_while_its_player_moves(two: tuple[Table, Table]) -> None:
    a, b = two
    # The player's process is slow to store a move, the moderator's process stalls after anything it stores:
    # a move computed before the hand-on must not be stored after its note.
    _slowed(a.service.storage, "append_action", before=0.03)
    for name in ("append_action", "commit"):
        _slowed(b.service.storage, name, after=0.06)
    for round_ in range(4):
        a.channel = b.channel = f"move-{round_}"
        game_id = await started(a, users=("alice", "bob"), seed=5)
        move, handed = await asyncio.gather(a.say("alice", "buy HB"), _mod(b, "mod", "replace alice eve"))
        assert Outcome.INTERNAL not in (move.outcome, handed.outcome), (move.text, handed.text)
        assert handed.ok, handed.text
        records = await a.service.storage.load_action_records(game_id)
        (note,) = [r.seq for r in records if "takes over" in str(r.data.get("message", ""))]
        # Nothing alice sent is stored after her seat was handed on.
        assert not [r for r in records if r.actor == "alice" and r.seq > note]
        assert move.ok == any(r.actor == "alice" for r in records)
        await _mod(a, "mod", "abandon")
