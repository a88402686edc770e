"""The pace clock: waking time the game waited on each player, across quiet hours, time away and restarts.

The FakeClock starts at 2023-11-14 22:13:20 UTC, which is 16:13:20 in America/Winnipeg (UTC-6 in November).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.config import Settings
from bot.core.clock_math import waking_deadline, waking_seconds
from bot.core.prefs import Quiet
from bot.core.service import GameService
from bot.storage import Storage
from tests.bot.conftest import FakeClock, Table, started

HOUR = 3600.0
MINUTE = 60.0
WINNIPEG = ZoneInfo("America/Winnipeg")


async def _bobs_turn(table: Table) -> None:
    await started(table, seed=5)
    assert (await table.say("alice", "buy HB")).ok


def _line(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(f"{name}:"))


def test_waking_time_leaves_out_quiet_hours_in_local_time_and_away_periods() -> None:
    quiet = Quiet(22 * 60, 7 * 60, "America/Winnipeg")
    start = datetime(2023, 11, 14, 20, 0, tzinfo=WINNIPEG).timestamp()
    end = datetime(2023, 11, 15, 9, 0, tzinfo=WINNIPEG).timestamp()
    assert waking_seconds(quiet, [], start, end) == 4 * HOUR  # 20-22 and 7-9
    away = [(end - 3 * HOUR, end - HOUR)]  # 6:00-8:00, half of it quiet anyway
    assert waking_seconds(quiet, away, start, end) == 3 * HOUR
    # Across the spring daylight-saving change the night is an hour shorter in absolute time.
    spring = datetime(2024, 3, 9, 21, 0, tzinfo=WINNIPEG).timestamp()
    after = datetime(2024, 3, 10, 8, 0, tzinfo=WINNIPEG).timestamp()
    assert after - spring == 10 * HOUR
    assert waking_seconds(quiet, [], spring, after) == 2 * HOUR
    # Three waking hours from 20:00 end at 08:00 the next morning.
    assert waking_deadline(quiet, start, 3 * HOUR) == datetime(2023, 11, 15, 8, 0, tzinfo=WINNIPEG).timestamp()


async def test_the_clock_stops_in_quiet_hours_and_survives_a_restart(
    tmp_path: Path, service: GameService, table: Table, clock: FakeClock, settings: Settings
) -> None:
    assert (await table.say("bob", "quiet 22:00-07:00 America/Winnipeg")).ok
    await started(table, seed=5)
    clock.advance(30 * MINUTE)
    assert (await table.say("alice", "buy HB")).ok  # alice took 30 minutes; bob's turn starts at 16:43:20 local
    clock.advance(8 * HOUR)  # 00:43 local: 5h 16m 40s of bob's waking time, then quiet
    text = (await table.say("carol", "clock")).text
    assert "bob: 5h 16m over 0 turns; waiting on them now for 5h 16m" in text, text
    assert "alice: 30m over 1 turn" in text, text
    await service.close()  # the process stops; another one takes over the same database
    clock.advance(7 * HOUR)  # 07:43:20 local: 43m 20s waking time more
    storage = await Storage.open(tmp_path / "bot.db", clock=clock)
    fresh = GameService(storage, settings, clock=clock)
    try:
        again = Table(fresh)
        text = (await again.say("alice", "clock")).text
        assert "bob: 6h 00m over 0 turns; waiting on them now for 6h 00m" in text, text
        assert (await again.say("bob", "buy SC")).ok
        text = (await again.say("alice", "clock")).text
        assert _line(text, "bob").strip() == "bob: 6h 00m over 1 turn", text
        assert "waiting on them now" in _line(text, "alice")
        stats = (await again.say("bob", "stats")).text
        assert "bob: no finished game; median 6h 00m over 1 turns" in stats, stats
    finally:
        await fresh.close()


async def test_time_away_does_not_count(table: Table, clock: FakeClock) -> None:
    await _bobs_turn(table)
    clock.advance(HOUR)
    assert (await table.say("bob", "away on")).ok
    clock.advance(10 * HOUR)
    assert (await table.say("bob", "away off")).ok
    clock.advance(HOUR)
    text = (await table.say("alice", "clock")).text
    assert "bob: 2h 00m over 0 turns; waiting on them now for 2h 00m" in text, text


async def test_the_pace_nudge_comes_after_waking_hours_only(table: Table, clock: FakeClock) -> None:
    assert (await table.say("bob", "quiet 22:00-07:00 America/Winnipeg")).ok
    await started(table, seed=5)
    setting = await table.say("alice", "clock nudge 6")
    assert setting.ok and "passes 6 hours of their waking time" in setting.text, setting.text
    assert (await table.say("alice", "buy HB")).ok  # bob's turn from 16:13:20 local
    clock.advance(8 * HOUR)  # 00:13 local: only 5h 46m 40s were waking time
    assert [n for n in await table.service.due_notifications() if "Pace nudge" in n.text] == []
    clock.advance(7 * HOUR + 1)  # 07:13:21 local: six waking hours
    (note,) = [n for n in await table.service.due_notifications() if "Pace nudge" in n.text]
    assert note.user_id == "bob" and "6h 00m of your waking time" in note.text, note.text
    assert [n for n in await table.service.due_notifications() if "Pace nudge" in n.text] == []  # once
    refused = await table.say("alice", "clock nudge soon")
    assert not refused.ok and "is not a number of hours" in refused.text
    assert (await table.say("alice", "clock nudge off")).ok
