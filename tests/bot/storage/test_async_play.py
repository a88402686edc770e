"""The asynchronous-play tables on SQLite and PostgreSQL: one open pace span per game and player, away periods,
per-game settings, auto-actions that end once, and practice forks."""

from __future__ import annotations

from bot.storage import Storage
from bot.storage.async_play import AsyncPlayStore, ForkRecord
from tests.bot.storage.conftest import make_game


async def test_pace_spans_open_once_and_close_with_their_waking_time(storage: Storage) -> None:
    store = AsyncPlayStore(storage)
    game = await make_game(storage)
    assert await store.move_spans(game, [], [("u1", 100.0), ("u2", 100.0)]) == ["u1", "u2"]
    assert await store.move_spans(game, [], [("u1", 150.0)]) == []  # one open span per player (another process)
    one, _ = await store.spans(game, open_only=True)
    assert (one.user_id, one.started_at, one.ended_at) == ("u1", 100.0, None)
    assert await store.move_spans(game, [(one.id, 400.0, 250.0)], [("u1", 400.0)]) == ["u1"]
    spans = await store.spans(game)
    assert [(s.user_id, s.started_at, s.ended_at, s.waking) for s in spans] == [
        ("u1", 100.0, 400.0, 250.0),
        ("u2", 100.0, None, None),
        ("u1", 400.0, None, None),
    ]
    closed = await store.closed_spans_of_platform("discord")
    assert [(s.user_id, s.waking) for s in closed] == [("u1", 250.0)]
    assert await store.closed_spans_of_platform("slack") == []


async def test_away_periods_extras_auto_actions_and_forks(storage: Storage) -> None:
    store = AsyncPlayStore(storage)
    await store.set_away("discord", "u1", True, 10.0)
    await store.set_away("discord", "u1", True, 20.0)  # already away: the period began at 10
    assert await store.away_spans("discord", "u1", 50.0) == [(10.0, 50.0)]
    await store.set_away("discord", "u1", False, 30.0)
    await store.set_away("discord", "u1", False, 40.0)  # back already
    assert await store.away_spans("discord", "u1", 50.0) == [(10.0, 30.0)]

    game = await make_game(storage)
    await store.set_extra(game, "pace_nudge_hours", 12.0, 1.0)
    await store.set_extra(game, "prompted", ["ERIE:open"], 2.0)
    assert await store.extras(game) == {"pace_nudge_hours": 12.0, "prompted": ["ERIE:open"]}
    await store.set_extra(game, "pace_nudge_hours", None, 3.0)
    assert await store.extras(game) == {"prompted": ["ERIE:open"]}

    first = await store.arm(game, "u1", {"kind": "pass", "scope": "round"}, 5.0)
    await store.arm(game, "u2", {"kind": "bid", "company": "TB", "ceiling": 200}, 6.0)
    assert [a.user_id for a in await store.armed(game)] == ["u1", "u2"]
    assert await store.disarm(first, "the round ended", 7.0)
    assert not await store.disarm(first, "a second reason", 8.0)  # it ends once
    assert [a.spec["company"] for a in await store.armed(game)] == ["TB"]

    copy = await make_game(storage, channel="fork-1")
    await store.add_fork(ForkRecord(copy, game, 3, "u1", 100.0, None))
    assert (await store.fork(copy)) == ForkRecord(copy, game, 3, "u1", 100.0, None)
    assert [f.game_id for f in await store.forks_of("u1")] == [copy]
    assert await store.expired_forks(99.0) == [] and len(await store.expired_forks(100.0)) == 1
    assert await store.close_fork(copy, 101.0) and not await store.close_fork(copy, 102.0)
    assert await store.forks_of("u1") == [] and await store.expired_forks(200.0) == []
