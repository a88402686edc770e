"""The append-only action log: round trips, optimistic concurrency, races, and snapshots."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from bot.storage import GameStatus, NotFoundError, StaleStateError, StatusConflictError, Storage
from bot.storage.backends import INTEGRITY_ERRORS
from tests.bot.storage.conftest import FakeClock, make_game, raw

ACTIONS: list[dict[str, Any]] = [
    {"type": "bid", "entity": "P1", "company": "SC", "price": 45},
    {"type": "pass", "entity": "P2"},
    {"type": "lay_tile", "entity": "CPR", "hex": "E2", "tile": "57", "rotation": 2, "note": "Ünïcødé ¥80"},
    {"type": "run_routes", "routes": [{"train": "2-0", "hexes": ["E2", "F3"], "revenue": 40}], "x": None},
]


async def test_append_and_load_round_trip(storage: Storage, clock: FakeClock) -> None:
    game_id = await make_game(storage)
    assert await storage.last_seq(game_id) == 0
    assert await storage.load_actions(game_id) == []
    for seq, action in enumerate(ACTIONS, start=1):
        clock.advance(1)
        assert await storage.append_action(game_id, seq, action, actor=f"u{seq}") == seq
    assert await storage.last_seq(game_id) == len(ACTIONS)
    assert await storage.load_actions(game_id) == list(enumerate(ACTIONS, start=1))
    assert await storage.load_actions(game_id, after_seq=2) == [(3, ACTIONS[2]), (4, ACTIONS[3])]
    assert await storage.load_actions(game_id, after_seq=4) == []

    records = await storage.load_action_records(game_id)
    assert [(r.seq, r.actor) for r in records] == [(1, "u1"), (2, "u2"), (3, "u3"), (4, "u4")]
    assert records[-1].created_at == clock.now
    assert (await storage.get_game(game_id)).updated_at == clock.now


async def test_logs_of_different_games_are_independent(storage: Storage) -> None:
    a = await make_game(storage, channel="a")
    b = await make_game(storage, channel="b")
    await storage.append_action(a, 1, ACTIONS[0], "u")
    await storage.append_action(b, 1, ACTIONS[1], "u")
    await storage.append_action(a, 2, ACTIONS[2], "u")
    assert await storage.load_actions(b) == [(1, ACTIONS[1])]
    assert (await storage.last_seq(a), await storage.last_seq(b)) == (2, 1)


async def test_unknown_game(storage: Storage) -> None:
    with pytest.raises(NotFoundError):
        await storage.append_action(404, 1, {"type": "pass"}, "u")
    with pytest.raises(NotFoundError):
        await storage.last_seq(404)
    with pytest.raises(NotFoundError):
        await storage.load_actions(404)


async def test_stale_state_on_duplicate_seq(storage: Storage) -> None:
    game_id = await make_game(storage)
    await storage.append_action(game_id, 1, ACTIONS[0], "u1")
    with pytest.raises(StaleStateError) as excinfo:
        await storage.append_action(game_id, 1, ACTIONS[1], "u2")
    assert (excinfo.value.expected_seq, excinfo.value.last_seq) == (1, 1)
    assert await storage.load_actions(game_id) == [(1, ACTIONS[0])]


@pytest.mark.parametrize("bad_seq", [0, -1, 3, 10])
async def test_stale_state_on_gap_or_nonpositive_seq(storage: Storage, bad_seq: int) -> None:
    game_id = await make_game(storage)
    await storage.append_action(game_id, 1, ACTIONS[0], "u1")
    with pytest.raises(StaleStateError, match=f"seq {bad_seq}, the log ends at seq 1"):
        await storage.append_action(game_id, bad_seq, ACTIONS[1], "u2")
    assert await storage.last_seq(game_id) == 1


async def test_invalid_action_data_is_rejected_before_writing(storage: Storage) -> None:
    game_id = await make_game(storage)
    with pytest.raises(TypeError, match="JSON object"):
        await storage.append_action(game_id, 1, ["not", "a", "dict"], "u")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Out of range float"):
        await storage.append_action(game_id, 1, {"price": float("nan")}, "u")
    with pytest.raises(TypeError, match="not JSON serializable"):
        await storage.append_action(game_id, 1, {"when": object()}, "u")
    assert await storage.last_seq(game_id) == 0
    assert await storage.append_action(game_id, 1, ACTIONS[0], "u") == 1


async def test_log_is_append_only_in_the_database_itself(storage: Storage) -> None:
    game_id = await make_game(storage)
    await storage.append_action(game_id, 1, ACTIONS[0], "u")
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        await raw(storage, "DELETE FROM actions")
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        await raw(storage, "UPDATE actions SET actor = 'mallory'")
    with pytest.raises(INTEGRITY_ERRORS, match="last seq"):
        await raw(
            storage,
            "INSERT INTO actions (game_id, seq, data, actor, created_at) VALUES (?, 3, '{}', 'u', 0)",
            (game_id,),
        )
    with pytest.raises(INTEGRITY_ERRORS):  # a gap-free log has a seq once (primary key)
        await raw(
            storage,
            "INSERT INTO actions (game_id, seq, data, actor, created_at) VALUES (?, 1, '{}', 'u', 0)",
            (game_id,),
        )
    if storage.dialect == "postgresql":
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            await raw(storage, "TRUNCATE actions CASCADE")
    assert await storage.load_actions(game_id) == [(1, ACTIONS[0])]


async def test_racing_tasks_on_one_connection_exactly_one_wins(storage: Storage) -> None:
    game_id = await make_game(storage)
    for seq in range(1, 21):
        contenders = [{"type": "pass", "entity": f"P{i}", "seq": seq} for i in range(6)]
        results = await asyncio.gather(
            *(storage.append_action(game_id, seq, action, f"u{i}") for i, action in enumerate(contenders)),
            return_exceptions=True,
        )
        winners = [i for i, result in enumerate(results) if result == seq]
        losers = [result for result in results if isinstance(result, StaleStateError)]
        assert len(winners) == 1 and len(losers) == 5, results
        assert all(loser.last_seq == seq for loser in losers)
        assert (await storage.load_actions(game_id, after_seq=seq - 1)) == [(seq, contenders[winners[0]])]
    assert [seq for seq, _ in await storage.load_actions(game_id)] == list(range(1, 21))


async def test_racing_connections_exactly_one_wins(db_url: str, storage: Storage) -> None:
    """Separate connections (as separate bot processes would have) race through the database's own locking."""
    game_id = await make_game(storage)
    others = [await Storage.open(db_url) for _ in range(3)]
    writers = [storage, *others]
    try:
        for seq in range(1, 16):
            results = await asyncio.gather(
                *(
                    w.append_action(game_id, seq, {"type": "pass", "by": i}, f"u{i}")
                    for i, w in enumerate(writers)
                ),
                return_exceptions=True,
            )
            assert sum(result == seq for result in results) == 1, results
            assert sum(isinstance(result, StaleStateError) for result in results) == len(writers) - 1, results
    finally:
        for other in others:
            await other.close()
    assert [seq for seq, _ in await storage.load_actions(game_id)] == list(range(1, 16))


async def test_loser_reloads_and_retries(storage: Storage) -> None:
    """The intended service loop: on StaleStateError, reload, re-validate, and append at last_seq + 1."""
    game_id = await make_game(storage)

    async def command(actor: str) -> int:
        while True:
            seq = await storage.last_seq(game_id) + 1
            await asyncio.sleep(0)  # let the other command read the same seq
            try:
                return await storage.append_action(game_id, seq, {"type": "pass", "entity": actor}, actor)
            except StaleStateError:
                continue

    assert sorted(await asyncio.gather(command("a"), command("b"), command("c"))) == [1, 2, 3]


async def test_snapshots_keep_only_the_latest(storage: Storage, clock: FakeClock) -> None:
    game_id = await make_game(storage)
    assert await storage.load_snapshot(game_id) is None
    for seq in (1, 2, 3):
        await storage.append_action(game_id, seq, ACTIONS[seq], "u")

    await storage.save_snapshot(game_id, 0, b"\x00initial")
    clock.advance(5)
    await storage.save_snapshot(game_id, 2, b"\x00\xffstate@2")
    snapshot = await storage.load_snapshot(game_id)
    assert snapshot is not None
    assert (snapshot.seq, snapshot.data, snapshot.created_at) == (2, b"\x00\xffstate@2", clock.now)

    await storage.save_snapshot(game_id, 1, b"older")  # a slow writer must not regress the snapshot
    snapshot = await storage.load_snapshot(game_id)
    assert snapshot is not None and snapshot.seq == 2

    await storage.save_snapshot(game_id, 3, b"state@3")
    snapshot = await storage.load_snapshot(game_id)
    assert snapshot is not None and (snapshot.seq, snapshot.data) == (3, b"state@3")

    with pytest.raises(ValueError, match=r"outside the log 0\.\.3"):
        await storage.save_snapshot(game_id, 4, b"future")
    with pytest.raises(NotFoundError):
        await storage.save_snapshot(404, 0, b"x")
    assert [tuple(row) for row in await raw(storage, "SELECT count(*) FROM snapshots")] == [(1,)]


async def _append_until_refused(writer: Storage, game_id: int, who: int) -> None:
    with contextlib.suppress(StatusConflictError):
        for _ in range(5):
            seq = await writer.last_seq(game_id) + 1
            with contextlib.suppress(StaleStateError):
                await writer.append_action(game_id, seq, {"type": "pass", "by": who}, f"u{who}")


async def _finish(storage: Storage, game_id: int, delay: float) -> int:
    await asyncio.sleep(delay)
    await storage.update_game_status(game_id, GameStatus.FINISHED)
    return await storage.last_seq(game_id)


async def test_no_action_lands_after_another_connection_finished_the_game(db_url: str, storage: Storage) -> None:
    """Appends racing a status change: once ``update_game_status`` has returned, the log is closed for good."""
    others = [await Storage.open(db_url) for _ in range(3)]
    try:
        for round_ in range(8):
            game_id = await make_game(storage, channel=f"race-{round_}", status=GameStatus.ACTIVE)
            *_, closed_at = await asyncio.gather(
                *(_append_until_refused(w, game_id, i) for i, w in enumerate(others)),
                _finish(storage, game_id, 0.001 * round_),
            )
            await asyncio.sleep(0.01)
            assert await storage.last_seq(game_id) == closed_at
            with pytest.raises(StatusConflictError):
                await storage.append_action(game_id, closed_at + 1, {"type": "pass"}, "late")
    finally:
        for other in others:
            await other.close()
