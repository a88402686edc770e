"""Games and seats."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.storage import (
    BrokenMark,
    ChannelBusyError,
    GameRecord,
    GameStatus,
    NotFoundError,
    ReplayFailure,
    SeatRecord,
    SeatTakenError,
    StatusConflictError,
    Storage,
)
from tests.bot.storage.conftest import FakeClock, make_game


async def test_create_and_get_round_trip(storage: Storage, clock: FakeClock) -> None:
    game_id = await make_game(storage, seed=2**63 - 1, options={"deck": ["A", "B"], "ü": {"n": 1.5}})
    assert await storage.get_game(game_id) == GameRecord(
        id=game_id,
        platform="discord",
        channel="chan-1",
        title="1882",
        seed=2**63 - 1,
        options={"deck": ["A", "B"], "ü": {"n": 1.5}},
        engine_version="0.1.0",
        status=GameStatus.OPEN,
        created_by="u-host",
        created_at=clock.now,
        updated_at=clock.now,
    )


async def test_get_unknown_game_raises(storage: Storage) -> None:
    with pytest.raises(NotFoundError, match="game 42 not found"):
        await storage.get_game(42)


async def test_seed_must_fit_int64(storage: Storage) -> None:
    with pytest.raises(ValueError, match="64-bit"):
        await make_game(storage, seed=2**63)


async def test_one_live_game_per_channel(storage: Storage) -> None:
    first = await make_game(storage)
    with pytest.raises(ChannelBusyError) as excinfo:
        await make_game(storage)
    assert excinfo.value.game_id == first
    # Same channel id on another platform, or another channel, is independent.
    await make_game(storage, platform="slack")
    await make_game(storage, channel="chan-2")

    found = await storage.find_game("discord", "chan-1")
    assert found is not None and found.id == first

    await storage.update_game_status(first, GameStatus.ACTIVE)
    with pytest.raises(ChannelBusyError):
        await make_game(storage)
    await storage.update_game_status(first, GameStatus.FINISHED)
    assert await storage.find_game("discord", "chan-1") is None

    second = await make_game(storage)
    found = await storage.find_game("discord", "chan-1")
    assert found is not None and found.id == second
    # Reviving the finished game would put two live games in the channel.
    with pytest.raises(ChannelBusyError):
        await storage.update_game_status(first, GameStatus.ACTIVE)
    await storage.update_game_status(second, GameStatus.ABANDONED)
    assert (await storage.update_game_status(first, GameStatus.ACTIVE)).status == GameStatus.ACTIVE


async def test_update_status_compare_and_set(storage: Storage, clock: FakeClock) -> None:
    game_id = await make_game(storage)
    clock.advance(60)
    started = await storage.update_game_status(game_id, GameStatus.ACTIVE, expected=GameStatus.OPEN)
    assert started.status == GameStatus.ACTIVE
    assert started.updated_at == clock.now > started.created_at
    with pytest.raises(StatusConflictError, match="'active', expected 'open'"):
        await storage.update_game_status(game_id, GameStatus.ACTIVE, expected=GameStatus.OPEN)
    with pytest.raises(NotFoundError):
        await storage.update_game_status(999, GameStatus.FINISHED)


async def test_seats_auto_number_and_constraints(storage: Storage) -> None:
    game_id = await make_game(storage)
    alice = await storage.add_seat(game_id, platform="discord", user_id="alice", display_name="Alice")
    bob = await storage.add_seat(game_id, platform="discord", user_id="bob", display_name="Bob")
    assert (alice.seat, bob.seat) == (0, 1)
    carol = await storage.add_seat(game_id, platform="discord", user_id="carol", display_name="Carol", seat=5)
    assert carol == SeatRecord(game_id, 5, "discord", "carol", "Carol", None)

    with pytest.raises(SeatTakenError, match="already has a seat"):
        await storage.add_seat(game_id, platform="discord", user_id="alice", display_name="Alice")
    with pytest.raises(SeatTakenError, match="seat 1 is taken"):
        await storage.add_seat(game_id, platform="discord", user_id="dave", display_name="Dave", seat=1)
    with pytest.raises(NotFoundError):
        await storage.add_seat(999, platform="discord", user_id="dave", display_name="Dave")

    await storage.remove_seat(game_id, "alice")
    with pytest.raises(NotFoundError):
        await storage.remove_seat(game_id, "alice")
    dave = await storage.add_seat(game_id, platform="discord", user_id="dave", display_name="Dave")
    assert dave.seat == 0  # lowest free seat
    assert [s.user_id for s in await storage.list_seats(game_id)] == ["dave", "bob", "carol"]


async def test_assign_player_ids(storage: Storage) -> None:
    game_id = await make_game(storage)
    for user in ("a", "b", "c"):
        await storage.add_seat(game_id, platform="discord", user_id=user, display_name=user.upper())
    seats = await storage.assign_player_ids(game_id, {0: 10, 1: 11, 2: 12})
    assert [s.player_id for s in seats] == [10, 11, 12]
    # Swapping two ids is fine even though UNIQUE(game_id, player_id) holds at every step.
    seats = await storage.assign_player_ids(game_id, {0: 11, 1: 10})
    assert [s.player_id for s in seats] == [11, 10, 12]
    with pytest.raises(SeatTakenError, match="not be unique"):
        await storage.assign_player_ids(game_id, {0: 12})
    with pytest.raises(NotFoundError):
        await storage.assign_player_ids(game_id, {7: 1})
    with pytest.raises(SeatTakenError, match="player id 12"):
        await storage.add_seat(game_id, platform="discord", user_id="d", display_name="D", player_id=12)
    assert [s.player_id for s in await storage.list_seats(game_id)] == [11, 10, 12]


async def test_list_games_for_user(storage: Storage, clock: FakeClock) -> None:
    older = await make_game(storage, channel="c1")
    newer = await make_game(storage, channel="c2")
    other = await make_game(storage, channel="c3")
    await storage.add_seat(older, platform="discord", user_id="alice", display_name="Alice")
    await storage.add_seat(other, platform="discord", user_id="bob", display_name="Bob")
    clock.advance(10)
    await storage.add_seat(newer, platform="discord", user_id="alice", display_name="Alice")

    games = await storage.list_games_for_user("discord", "alice")
    assert [g.id for g in games] == [newer, older]
    assert await storage.list_games_for_user("slack", "alice") == []

    clock.advance(10)
    await storage.update_game_status(older, GameStatus.FINISHED)
    live = await storage.list_games_for_user(
        "discord", "alice", statuses={GameStatus.OPEN, GameStatus.ACTIVE}
    )
    assert [g.id for g in live] == [newer]
    assert await storage.list_games_for_user("discord", "alice", statuses=()) == []


async def test_list_games_by_id_and_status(storage: Storage) -> None:
    first = await make_game(storage, channel="c1")
    second = await make_game(storage, channel="c2", status=GameStatus.ACTIVE)
    assert [g.id for g in await storage.list_games()] == [first, second]
    assert [g.id for g in await storage.list_games(statuses=[GameStatus.ACTIVE])] == [second]
    assert await storage.list_games(statuses=()) == []


FAILURE = ReplayFailure(3, 3, "bid", "a bid must now be a multiple of 10", "engine-new")


async def test_broken_mark_round_trip_and_one_notice_per_failure(storage: Storage, clock: FakeClock) -> None:
    game_id = await make_game(storage, status=GameStatus.ACTIVE)
    await storage.append_action(game_id, 1, {"type": "pass"}, "u1")
    assert (await storage.get_game(game_id)).broken is None
    assert not await storage.claim_broken_notice(game_id)  # nothing to tell

    marked = await storage.mark_broken(game_id, FAILURE)
    assert marked.broken == BrokenMark(FAILURE, found_at=clock.now, noticed_at=None)
    assert marked.status == GameStatus.ACTIVE and marked.updated_at == (await storage.get_game(game_id)).updated_at
    assert await storage.find_game("discord", "chan-1") == marked  # still holds its channel
    clock.advance(5)
    assert await storage.claim_broken_notice(game_id)
    assert not await storage.claim_broken_notice(game_id)
    told = await storage.get_game(game_id)
    assert told.broken is not None and told.broken.noticed_at == clock.now

    # The same refusal found again (by another engine build, say) keeps the mark and its notice.
    clock.advance(5)
    assert await storage.mark_broken(game_id, replace(FAILURE, engine_version="engine-newer")) == told
    # A different refusal is a new mark that needs a new notice.
    moved = await storage.mark_broken(game_id, replace(FAILURE, seq=1, action_id=1, action_type="pass"))
    assert moved.broken == BrokenMark(replace(FAILURE, seq=1, action_id=1, action_type="pass"), clock.now, None)
    assert await storage.claim_broken_notice(game_id)

    cleared = await storage.clear_broken(game_id)
    assert cleared.broken is None and (await storage.get_game(game_id)).broken is None
    assert await storage.load_actions(game_id) == [(1, {"type": "pass"})]  # the log is untouched
    with pytest.raises(NotFoundError):
        await storage.mark_broken(999, FAILURE)
    with pytest.raises(NotFoundError):
        await storage.clear_broken(999)


async def test_close_is_idempotent(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    await storage.close()
    await storage.close()
