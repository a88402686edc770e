"""Notification settings and reminders: commands, escalation, quiet hours, away, and restarts.

The clock is a FakeClock: time passes by ``clock.advance``, never by sleeping. It starts at
2023-11-14 22:13:20 UTC, which is 16:13:20 in America/Winnipeg (UTC-6 in November).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.config import Settings
from bot.core.prefs import MAX_REMINDERS, quiet_until, reminder_gap
from bot.core.prefs import Quiet as QuietWindow
from bot.core.replies import Notification, Outcome
from bot.core.service import GameService
from bot.storage import Storage
from tests.bot.conftest import FakeClock, Table, started

HOUR = 3600.0
WINNIPEG = ZoneInfo("America/Winnipeg")


async def _due(service: GameService) -> list[Notification]:
    return await service.due_notifications()


async def _bobs_turn(table: Table) -> int:
    """A started game in which alice has just moved and it is bob's turn."""
    game_id = await started(table, seed=5)
    assert (await table.say("alice", "buy HB")).ok
    return game_id


# ---------------------------------------------------------------------- the commands


async def test_settings_round_trip_and_show_in_prefs(table: Table) -> None:
    prefs = await table.say("bob", "prefs")
    assert prefs.ephemeral and "Turn pings: channel" in prefs.text and "after 24 h" in prefs.text
    assert "Quiet hours: none" in prefs.text and "Away: no" in prefs.text
    for command in ("notify dm", "remind 12", "quiet 22:30-07:00 europe/berlin", "away on"):
        reply = await table.say("bob", command)
        assert reply.outcome == Outcome.OK and reply.ephemeral, (command, reply.text)
    stored = await table.service.storage.get_prefs("test", "bob")
    assert stored == {
        "notify": "dm",
        "remind": 12.0,
        "quiet": {"start": 22 * 60 + 30, "end": 7 * 60, "zone": "Europe/Berlin"},
        "away": True,
    }
    text = (await table.say("bob", "prefs")).text
    assert "Turn pings: dm" in text and "after 12 h" in text
    assert "22:30-07:00 Europe/Berlin (your time now: 23:13)" in text and "Away: yes" in text
    for command in ("notify both", "remind off", "quiet off", "away off"):
        assert (await table.say("bob", command)).ok
    text = (await table.say("bob", "prefs")).text
    assert "Turn pings: both" in text and "Reminders: off" in text and "Quiet hours: none" in text
    assert "Away: no" in text
    # Settings belong to the user on one platform.
    assert await table.service.storage.get_prefs("other", "bob") == {}


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("notify loud", "`loud` is not a delivery mode; use `notify channel`"),
        ("notify dm everywhere", "unexpected `everywhere`"),
        ("remind soon", "give a number of hours (e.g. `remind 24`) or `remind off`"),
        ("remind 1", "reminders can come after 2 to 336 hours"),
        ("remind 1000", "reminders can come after 2 to 336 hours"),
        ("quiet", "say when: write `quiet HH:MM-HH:MM"),
        ("quiet 22:00", "`22:00` is not a window of time"),
        ("quiet 24:00-07:00", "`24:00` is not a time of day; write 24-hour HH:MM"),
        ("quiet 22:00-7", "`7` is not a time of day"),
        ("quiet 07:00-07:00", "is an empty window"),
        (
            "quiet 22:00-07:00 Europe/Berln",
            "`Europe/Berln` is not an IANA time zone, did you mean Europe/Berlin?",
        ),
        ("quiet 22:00-07:00 Europe/Berlin extra", "too many words after the window"),
        ("away maybe", "use `away on` or `away off`"),
        ("away", "use `away on` or `away off`"),
    ],
)
async def test_bad_values_are_refused_with_what_is_allowed(table: Table, command: str, message: str) -> None:
    reply = await table.say("bob", command)
    assert reply.outcome == Outcome.MALFORMED and reply.ephemeral
    assert message in reply.text, reply.text
    assert await table.service.storage.get_prefs("test", "bob") == {}  # nothing was changed


async def test_notify_here_overrides_one_game_only(service: GameService) -> None:
    here, there = Table(service, channel="here"), Table(service, channel="there")
    one = await started(here, seed=5)
    await started(there, seed=5)
    assert (await here.say("bob", "notify dm here")).ok
    moved = await here.say("alice", "buy HB")
    (note,) = moved.notify
    assert note.delivery == "dm" and moved.mentions == []
    stored = await service.storage.get_prefs("test", "bob")
    assert stored == {"games": {str(one): {"notify": "dm"}}}
    assert "In game #1 here: turn pings dm" in (await here.say("bob", "prefs")).text
    moved = await there.say("alice", "buy HB")
    (note,) = moved.notify
    assert note.delivery == "channel" and note.mentioned and moved.mentions == ["bob"]


async def test_notify_test_goes_where_the_user_wants(table: Table) -> None:
    reply = await table.say("bob", "notify test")
    (note,) = reply.notify
    assert (note.kind, note.delivery, note.to_channel, note.to_dm) == ("test", "channel", False, False)
    assert reply.mentions == ["bob"] and not reply.ephemeral  # the reply itself is the channel ping
    await table.say("bob", "notify dm")
    reply = await table.say("bob", "notify test")
    (note,) = reply.notify
    assert (note.delivery, note.to_dm, note.to_channel) == ("dm", True, False)
    assert reply.mentions == [] and note.platform == "test" and note.channel == "general"
    await table.say("bob", "notify off")
    reply = await table.say("bob", "notify test")
    assert reply.notify == [] and "off" in reply.text


# ---------------------------------------------------------------------- pings follow the settings


async def test_turn_ping_follows_the_delivery_mode(table: Table) -> None:
    await started(table, seed=5)
    await table.say("bob", "notify dm")
    reply = await table.say("alice", "buy HB")
    (note,) = reply.notify
    assert (note.user_id, note.delivery, note.to_dm, note.to_channel) == ("bob", "dm", True, False)
    assert (note.platform, note.channel, note.game_id) == ("test", "general", reply.game_id)
    assert reply.mentions == []  # a mention would ping bob a second time
    assert [b.command for b in note.buttons] == [b.command for b in reply.buttons]  # bob alone acts


@pytest.mark.parametrize("setting", ["away on", "notify off"])
async def test_no_turn_ping_or_reminder_when_away_or_off(
    table: Table, clock: FakeClock, setting: str
) -> None:
    await started(table, seed=5)
    await table.say("bob", setting)
    reply = await table.say("alice", "buy HB")
    assert reply.notify == [] and "bob" not in reply.mentions
    assert "Next: bob" in reply.text  # the channel still says who is up
    clock.advance(100 * HOUR)
    assert await _due(table.service) == []
    # Requests still reach them, in the channel.
    await table.say("bob", "pass")
    ask = await table.say("alice", "undo")
    (note,) = ask.notify
    assert (note.kind, note.delivery, note.mentioned) == ("consent", "channel", True)


async def test_away_shows_in_who_and_status(table: Table) -> None:
    await started(table, seed=5)
    await table.say("bob", "away on")
    assert "bob (away)" in (await table.say("carol", "who")).text
    assert "Away: bob" in (await table.say("carol", "status")).text
    await table.say("bob", "away off")
    assert "(away)" not in (await table.say("carol", "who")).text


# ---------------------------------------------------------------------- reminders


async def test_reminders_escalate_and_stop_after_the_cap(table: Table, clock: FakeClock) -> None:
    game_id = await _bobs_turn(table)
    start = clock.now
    # Gaps of 24, 12, 6, 3 and then 2 hours (halved, but never under 2 h), five in all.
    for hours in (24, 36, 42, 45, 47):
        clock.now = start + hours * HOUR - 1
        assert await _due(table.service) == [], hours
        clock.now = start + hours * HOUR
        (note,) = await _due(table.service)
        assert (note.user_id, note.kind, note.game_id) == ("bob", "reminder", game_id)
        assert note.text.startswith(
            f"Reminder: it is your turn in 1882 game #{game_id} (Auction Round, phase 2)"
        )
        assert f"waiting {hours} h" in note.text
        assert (note.platform, note.channel, note.delivery, note.mentioned) == (
            "test",
            "general",
            "channel",
            False,
        )
        assert note.to_channel and note.due_at == clock.now
        assert [b.command for b in note.buttons][-1] == "@1 pass"  # bob's moves at this step, for a DM
    assert MAX_REMINDERS == 5
    clock.advance(30 * 24 * HOUR)
    assert await _due(table.service) == []


async def test_reminder_is_dropped_when_the_player_acts(table: Table, clock: FakeClock) -> None:
    game_id = await _bobs_turn(table)
    clock.advance(10 * HOUR)
    assert (await table.say("bob", "pass")).ok  # now alice's turn again
    assert [i.user_id for i in await table.service.storage.outbox_pending(game_id)] == ["alice"]
    clock.advance(15 * HOUR)
    assert await _due(table.service) == []  # bob's would have been due at 24 h
    clock.advance(10 * HOUR)
    (note,) = await _due(table.service)  # alice's: 24 h after bob passed
    assert note.user_id == "alice"


async def test_undo_moves_the_reminder_back(table: Table, clock: FakeClock) -> None:
    game_id = await _bobs_turn(table)
    assert (await table.say("alice", "undo")).ok  # alice's turn again, bob's reminder goes
    assert [i.user_id for i in await table.service.storage.outbox_pending(game_id)] == ["alice"]


async def test_a_turn_that_is_over_is_never_reminded_of(table: Table, clock: FakeClock) -> None:
    """An item that outlived its turn (e.g. the process stopped before dropping it) is checked against the
    live game when due and dropped."""
    game_id = await _bobs_turn(table)
    await table.service.storage.outbox_enqueue(
        "remind:stale",
        platform="test",
        user_id="alice",
        kind="reminder",
        payload={"turn": "0", "n": 1, "since": clock.now},
        due_at=clock.now + HOUR,
        game_id=game_id,
    )
    clock.advance(2 * HOUR)
    assert await _due(table.service) == []
    assert all(i.dedupe_key != "remind:stale" for i in await table.service.storage.outbox_pending(game_id))


async def test_remind_setting_changes_the_wait(table: Table, clock: FakeClock) -> None:
    await table.say("bob", "remind 6")
    await _bobs_turn(table)
    clock.advance(6 * HOUR + 1)
    assert [n.user_id for n in await _due(table.service)] == ["bob"]
    await table.say("bob", "remind off")
    clock.advance(100 * HOUR)
    assert await _due(table.service) == []


async def test_coming_back_from_away_restarts_the_reminders(table: Table, clock: FakeClock) -> None:
    await table.say("bob", "away on")
    await _bobs_turn(table)
    clock.advance(48 * HOUR)
    assert await _due(table.service) == []
    await table.say("bob", "away off")
    clock.advance(24 * HOUR + 1)
    (note,) = await _due(table.service)
    assert note.user_id == "bob" and "waiting 24 h" in note.text  # counted from coming back


# ---------------------------------------------------------------------- quiet hours


def test_quiet_window_end_in_local_time() -> None:
    quiet = QuietWindow(22 * 60, 7 * 60, "America/Winnipeg")
    late = datetime(2023, 11, 14, 23, 30, tzinfo=WINNIPEG).timestamp()
    early = datetime(2023, 11, 15, 6, 59, tzinfo=WINNIPEG).timestamp()
    seven = datetime(2023, 11, 15, 7, 0, tzinfo=WINNIPEG).timestamp()
    assert quiet_until(quiet, late) == seven
    assert quiet_until(quiet, early) == seven
    assert quiet_until(quiet, seven) is None
    assert quiet_until(quiet, datetime(2023, 11, 15, 12, 0, tzinfo=WINNIPEG).timestamp()) is None
    # Across a daylight-saving change (Winnipeg went to UTC-5 on 2024-03-10 at 02:00).
    before = datetime(2024, 3, 9, 23, 0, tzinfo=WINNIPEG).timestamp()
    assert quiet_until(quiet, before) == datetime(2024, 3, 10, 7, 0, tzinfo=WINNIPEG).timestamp()
    assert [reminder_gap(5, n) / HOUR for n in (1, 2, 3)] == [5.0, 2.5, 2.0]


async def test_reminder_due_in_quiet_hours_waits_for_their_end(table: Table, clock: FakeClock) -> None:
    # The turn starts at 16:13 local; the reminder is due 12 h later at 04:13, inside 22:00-07:00.
    await table.say("bob", "remind 12")
    await table.say("bob", "quiet 22:00-07:00 America/Winnipeg")
    await _bobs_turn(table)
    end = datetime(2023, 11, 15, 7, 0, tzinfo=WINNIPEG).timestamp()
    clock.advance(12 * HOUR + 60)
    assert await _due(table.service) == []
    clock.now = end - 1
    assert await _due(table.service) == []
    clock.now = end
    (note,) = await _due(table.service)
    assert note.user_id == "bob" and note.due_at == end
    assert await _due(table.service) == []
    # The next one is 6 h after the delivery (13:00 local, not quiet).
    clock.now = end + 6 * HOUR
    assert [n.user_id for n in await _due(table.service)] == ["bob"]


async def test_quiet_hours_set_later_still_hold_the_reminder(table: Table, clock: FakeClock) -> None:
    await _bobs_turn(table)  # reminder due at 16:13 local tomorrow
    await table.say("bob", "quiet 16:00-17:00 America/Winnipeg")
    clock.advance(24 * HOUR + 60)
    assert await _due(table.service) == []  # checked again when due, and moved
    clock.now = datetime(2023, 11, 15, 17, 0, tzinfo=WINNIPEG).timestamp()
    assert [n.user_id for n in await _due(table.service)] == ["bob"]


async def test_turn_ping_in_quiet_hours_is_delivered_when_they_end(table: Table, clock: FakeClock) -> None:
    await started(table, seed=5)
    await table.say("bob", "quiet 16:00-17:30 America/Winnipeg")  # it is 16:13 there
    reply = await table.say("alice", "buy HB")
    assert reply.notify == [] and reply.mentions == []
    end = datetime(2023, 11, 14, 17, 30, tzinfo=WINNIPEG).timestamp()
    clock.now = end - 60
    assert await _due(table.service) == []
    clock.now = end
    (note,) = await _due(table.service)
    assert (note.kind, note.user_id, note.due_at, note.mentioned) == ("turn", "bob", end, False)
    assert "Your turn in 1882 game #1" in note.text and "alice buys HB" in note.text
    assert await _due(table.service) == []


async def test_held_turn_ping_is_dropped_if_the_turn_passes(table: Table, clock: FakeClock) -> None:
    await started(table, seed=5)
    await table.say("bob", "quiet 16:00-17:30 America/Winnipeg")
    await table.say("alice", "buy HB")
    assert (await table.say("bob", "pass")).ok  # bob played anyway
    clock.advance(2 * HOUR)
    assert await _due(table.service) == []


# ---------------------------------------------------------------------- restarts


async def test_a_restarted_service_delivers_a_reminder_exactly_once(
    tmp_path: Path, service: GameService, table: Table, clock: FakeClock, settings: Settings
) -> None:
    await _bobs_turn(table)
    await service.close()  # the process stops
    clock.advance(25 * HOUR)
    seen: list[Notification] = []
    for _ in range(3):  # it restarts, delivers, and restarts again before the next reminder
        storage = await Storage.open(tmp_path / "bot.db", clock=clock)
        fresh = GameService(storage, settings, clock=clock)
        try:
            seen += await fresh.due_notifications()
        finally:
            await fresh.close()
    assert [(n.user_id, n.kind) for n in seen] == [("bob", "reminder")]
    storage = await Storage.open(tmp_path / "bot.db", clock=clock)
    fresh = GameService(storage, settings, clock=clock)
    try:
        clock.advance(12 * HOUR)  # the escalation was stored with the delivery
        assert [n.user_id for n in await fresh.due_notifications()] == ["bob"]
    finally:
        await fresh.close()


async def test_each_adapter_takes_only_its_platform(table: Table, clock: FakeClock) -> None:
    await _bobs_turn(table)
    clock.advance(25 * HOUR)
    assert await table.service.due_notifications(platforms=("discord",)) == []
    assert [n.platform for n in await table.service.due_notifications(platforms=("test",))] == ["test"]
