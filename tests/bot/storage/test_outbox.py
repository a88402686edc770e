"""The notification outbox: dedupe, due ordering, delivery bookkeeping."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.storage import NotFoundError, StatusConflictError, Storage
from tests.bot.storage.conftest import FakeClock, make_game


async def _enqueue(storage: Storage, key: str, due_at: float, game_id: int | None = None) -> int | None:
    return await storage.outbox_enqueue(
        key,
        platform="discord",
        user_id="alice",
        kind="your_turn",
        payload={"key": key, "text": "It's your turn ¥"},
        due_at=due_at,
        game_id=game_id,
    )


async def test_enqueue_ignores_duplicate_keys(storage: Storage) -> None:
    game_id = await make_game(storage)
    first = await _enqueue(storage, "turn:1:7:alice", 100.0, game_id)
    assert isinstance(first, int)
    assert await _enqueue(storage, "turn:1:7:alice", 50.0, game_id) is None
    due = await storage.outbox_due(1_000.0)
    assert [(item.id, item.due_at, item.game_id) for item in due] == [(first, 100.0, game_id)]
    assert due[0].payload == {"key": "turn:1:7:alice", "text": "It's your turn ¥"}
    # Still a duplicate after delivery: a retried command cannot notify twice.
    await storage.outbox_mark_sent(first, now=200.0)
    assert await _enqueue(storage, "turn:1:7:alice", 300.0, game_id) is None


async def test_due_is_ordered_and_filtered(storage: Storage) -> None:
    ids = {}
    for key, due_at in [("c", 30.0), ("a", 10.0), ("later", 99.0), ("b", 20.0), ("a2", 10.0)]:
        ids[key] = await _enqueue(storage, key, due_at)
    due = await storage.outbox_due(30.0)
    assert [item.dedupe_key for item in due] == ["a", "a2", "b", "c"]  # by due_at, then enqueue order
    assert [item.dedupe_key for item in await storage.outbox_due(30.0, limit=2)] == ["a", "a2"]
    assert await storage.outbox_due(9.99) == []


async def test_due_defaults_to_the_clock(storage: Storage, clock: FakeClock) -> None:
    await _enqueue(storage, "k", clock.now + 60)
    assert await storage.outbox_due() == []
    clock.advance(60)
    assert [item.dedupe_key for item in await storage.outbox_due()] == ["k"]


async def test_mark_sent_and_reschedule(storage: Storage) -> None:
    item_id = await _enqueue(storage, "k", 10.0)
    assert item_id is not None
    assert await storage.outbox_reschedule(item_id, 40.0) == 1
    assert await storage.outbox_reschedule(item_id, 50.0) == 2
    assert await storage.outbox_due(45.0) == []
    (item,) = await storage.outbox_due(50.0)
    assert (item.attempts, item.due_at, item.sent_at) == (2, 50.0, None)

    assert await storage.outbox_mark_sent(item_id, now=51.0)
    assert not await storage.outbox_mark_sent(item_id, now=99.0)  # idempotent, keeps the first time
    assert (await storage.outbox_get(item_id)).sent_at == 51.0
    assert await storage.outbox_due(1e9) == []
    with pytest.raises(StatusConflictError):
        await storage.outbox_reschedule(item_id, 60.0)

    with pytest.raises(NotFoundError):
        await storage.outbox_mark_sent(999)
    with pytest.raises(NotFoundError):
        await storage.outbox_reschedule(999, 1.0)
    with pytest.raises(NotFoundError):
        await storage.outbox_get(999)
    with pytest.raises(ValueError, match="finite"):
        await storage.outbox_reschedule(item_id, float("inf"))


async def test_cancel_and_purge(storage: Storage) -> None:
    sent = await _enqueue(storage, "sent", 1.0)
    assert sent is not None
    await _enqueue(storage, "reminder", 5.0)
    await storage.outbox_mark_sent(sent, now=2.0)

    assert await storage.outbox_cancel("reminder") is True
    assert await storage.outbox_cancel("reminder") is False
    assert await storage.outbox_cancel("sent") is False  # already delivered: history is kept
    assert await storage.outbox_due(100.0) == []

    assert await storage.outbox_purge_sent(before=2.0) == 0
    assert await storage.outbox_purge_sent(before=3.0) == 1
    assert await _enqueue(storage, "sent", 10.0) is not None  # key reusable after purge


async def test_enqueue_for_unknown_game_raises(storage: Storage) -> None:
    with pytest.raises(NotFoundError):
        await _enqueue(storage, "k", 1.0, game_id=404)


async def test_racing_processes_claim_each_due_item_exactly_once(storage: Storage, db_url: str) -> None:
    """Four bot processes (connections) find the same items due and all try to claim every one of them:
    each item is handed out by exactly one."""
    keys = [f"remind:{n}" for n in range(60)]
    for n, key in enumerate(keys):
        await _enqueue(storage, key, float(n % 7))
    workers = [storage, *[await Storage.open(db_url) for _ in range(3)]]
    seen = await asyncio.gather(*(w.outbox_due(100.0, limit=100) for w in workers))
    assert all(len(items) == len(keys) for items in seen)  # every process sees every item due

    async def claim(index: int) -> list[int]:
        order = [item.id for item in seen[index]]
        random.Random(index).shuffle(order)
        won = []
        for item_id in order:
            if await workers[index].outbox_mark_sent(item_id, now=100.0):
                won.append(item_id)
            await asyncio.sleep(0)
        return won

    try:
        won = await asyncio.gather(*(claim(i) for i in range(len(workers))))
    finally:
        for other in workers[1:]:
            await other.close()
    claimed = [item_id for ids in won for item_id in ids]
    assert sorted(claimed) == sorted(item.id for item in seen[0])  # each exactly once, none lost
    assert await storage.outbox_due(1e9) == []
