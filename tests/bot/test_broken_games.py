"""Games whose stored log no longer replays after an engine change: marked, explained, exported, checked.

An engine upgrade is simulated in two ways: a rule change (the 1882 title's action hook is wrapped so that it
refuses one stored action, as a rules fix might) and a changed stored action (the row is rewritten behind the
log's append-only triggers, as if the engine now read it differently). A "restart" is a fresh GameService on
the same database, with an empty cache, as after deploying the new engine.
"""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import check_games
from bot.__main__ import main as bot_main
from bot.config import Settings
from bot.core.replies import Outcome
from bot.core.service import GameService
from bot.storage import GameRecord, Storage
from engine import ErrorCode, GameError, title_class
from engine.importer import parse_game_json, replay
from tests.bot.conftest import FakeClock, Table, started
from tests.bot.test_service import Driver

RULE = "a bid must now be a multiple of 10"
HOUR = 3600.0


def refuse_action(
    monkeypatch: pytest.MonkeyPatch, action_id: int, error: Exception | None = None, *, seed: int | None = None
) -> None:
    """From now on the engine refuses the action with ``action_id`` (in games of ``seed`` only, if given): a
    rule change, taken back by ``monkeypatch.undo()``."""
    cls = title_class("1882")
    original: Callable[[Any, dict[str, Any]], None] = cls.action_processed

    def action_processed(self: Any, action: dict[str, Any]) -> None:
        if action.get("id") == action_id and seed in (None, self.seed):
            raise error or GameError(ErrorCode.ILLEGAL, RULE)
        original(self, action)

    monkeypatch.setattr(cls, "action_processed", action_processed)


def rewrite_action(db: str, game_id: int, seq: int, data: dict[str, Any]) -> None:
    """Change a stored action in place, past the log's append-only trigger (an engine reading it anew)."""
    with sqlite3.connect(db) as con:
        (trigger,) = con.execute("SELECT sql FROM sqlite_master WHERE name = 'actions_no_update'").fetchone()
        con.execute("DROP TRIGGER actions_no_update")
        con.execute(
            "UPDATE actions SET data = ? WHERE game_id = ? AND seq = ?", (json.dumps(data), game_id, seq)
        )
        con.execute(trigger)


async def played(table: Table, moves: int, seed: int = 5) -> tuple[int, Driver]:
    game_id = await started(table, seed=seed)
    driver = Driver(table, seed=seed)
    for _ in range(moves):
        await driver.step()
    return game_id, driver


def restart(service: GameService, settings: Settings, clock: FakeClock, channel: str = "general") -> Table:
    """The bot after a deploy: same database, nothing in memory."""
    return Table(GameService(service.storage, settings, clock=clock), channel=channel)


async def record_of(table: Table, game_id: int) -> GameRecord:
    return await table.service.storage.get_game(game_id)


# ---------------------------------------------------------------------- the bot


async def test_a_refused_stored_action_marks_the_game_and_tells_its_channel_once(
    table: Table, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _ = await played(table, 6)
    stored = await table.service.storage.load_actions(game_id)
    refused_type = stored[2][1]["type"]
    refuse_action(monkeypatch, stored[2][1]["id"])
    bot = restart(table.service, settings, clock)

    notice = await bot.say("bob", "status")
    assert notice.outcome == Outcome.BROKEN and not notice.ephemeral
    assert notice.mentions == ["alice", "bob"]
    assert f"1882 game #{game_id} cannot continue with this version of the rules engine" in notice.text
    assert f"stored action 3, {refused_type}, is no longer accepted: {RULE}." in notice.text
    for hint in ("`export`", "`undo` is not possible", "python -m bot check-games", "Nothing was deleted"):
        assert hint in notice.text

    mark = (await record_of(bot, game_id)).broken
    assert mark is not None and mark.noticed_at == clock.now
    assert (mark.failure.seq, mark.failure.action_type, mark.failure.message) == (3, refused_type, RULE)

    # Every later command in the channel is answered privately with the same explanation, and stores nothing.
    for user, text in [("alice", "pass"), ("bob", "undo"), ("alice", "who"), ("carol", "join"), ("carol", "new 1882")]:
        reply = await bot.say(user, text)
        assert reply.outcome == Outcome.BROKEN and reply.ephemeral, (text, reply.text)
        assert reply.mentions == [] and "stored action 3" in reply.text
    assert await bot.service.storage.last_seq(game_id) == len(stored)
    assert (await record_of(bot, game_id)).broken == mark
    assert (await bot.say("alice", "help")).ok

    # Elsewhere the game is listed as stuck, and nothing else breaks.
    games = await bot.say("alice", "games", channel="elsewhere")
    assert games.ok and f"#{game_id} 1882 in general: cannot continue with this engine" in games.text
    assert (await bot.say("alice", "remind 12", channel="elsewhere")).ok
    assert await bot.service.suggest("test", "general", "alice", "buy", [], "") == []


async def test_an_engine_failing_on_a_stored_action_counts_as_refusing_it(
    table: Table, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await played(table, 4)
    refuse_action(monkeypatch, 2, KeyError("par_price"))
    notice = await restart(table.service, settings, clock).say("alice", "status")
    assert notice.outcome == Outcome.BROKEN
    assert "stored action 2" in notice.text and "KeyError('par_price')" in notice.text


async def test_a_changed_stored_action_is_named_with_the_engines_message(
    table: Table, settings: Settings, clock: FakeClock
) -> None:
    game_id, _ = await played(table, 5)
    storage = table.service.storage
    (seq, action), *_ = await storage.load_actions(game_id, after_seq=3)
    rewrite_action(storage.path, game_id, seq, {**action, "entity": 99})
    notice = await restart(table.service, settings, clock).say("alice", "moves")
    assert notice.outcome == Outcome.BROKEN and f"stored action {seq}, {action['type']}," in notice.text
    mark = (await storage.get_game(game_id)).broken
    assert mark is not None and mark.failure.seq == seq and mark.failure.message in notice.text


async def test_export_of_a_broken_game_has_every_stored_action(
    table: Table, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, driver = await played(table, 8)
    records = await table.service.storage.load_action_records(game_id)
    refuse_action(monkeypatch, 4)
    bot = restart(table.service, settings, clock)
    assert (await bot.say("alice", "status")).outcome == Outcome.BROKEN

    reply = await bot.say("bob", "export")
    assert reply.ok, reply.text
    assert "exported as stored" in reply.text and "stored action 4" in reply.text
    (attachment,) = reply.attachments
    doc = json.loads(attachment.data)
    assert [a["id"] for a in doc["actions"]] == [r.data["id"] for r in records]
    assert [{k: v for k, v in a.items() if k != "created_at"} for a in doc["actions"]] == [
        {k: v for k, v in r.data.items() if k != "created_at"} for r in records
    ]
    assert [p["name"] for p in doc["players"]] == ["alice", "bob"]
    assert doc["settings"]["seed"] == 5 and doc["title"] == "1882"
    assert doc["status"] == "active" and doc["result"] == {}
    assert "turn" not in doc and "round" not in doc and "acting" not in doc
    assert doc["broken"]["seq"] == 4 and doc["broken"]["message"] == RULE

    # Nothing was lost: with the rule taken back, the exported file replays to the game as it was played.
    monkeypatch.undo()
    assert replay(parse_game_json(doc)).log_lines == driver.mirror.log_lines


async def test_a_game_that_replays_again_loses_its_mark_and_continues(
    table: Table, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, driver = await played(table, 6)
    refuse_action(monkeypatch, 5)
    assert (await restart(table.service, settings, clock).say("alice", "status")).outcome == Outcome.BROKEN
    assert (await record_of(table, game_id)).broken is not None

    monkeypatch.undo()  # the engine is fixed and deployed
    bot = restart(table.service, settings, clock)
    status = await bot.say("bob", "status")
    assert status.ok, status.text
    assert (await record_of(bot, game_id)).broken is None
    driver.table = bot
    await driver.step()
    assert await bot.service.storage.last_seq(game_id) == 7


async def test_a_due_reminder_posts_the_notice_once_instead(
    table: Table, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await started(table, seed=5)
    assert (await table.say("alice", "buy HB")).ok  # bob's turn: his reminder is due in a day
    refuse_action(monkeypatch, 1)
    bot = restart(table.service, settings, clock)
    clock.advance(30 * HOUR)

    (note,) = await bot.service.due_notifications()
    assert note.kind == "broken" and note.user_id == "bob" and note.game_id == game_id
    assert note.to_channel and note.channel == "general" and not note.to_dm
    assert "stored action 1" in note.text and RULE in note.text
    assert await bot.service.due_notifications() == []

    # The channel has been told: commands there get the explanation privately.
    reply = await bot.say("alice", "status")
    assert reply.outcome == Outcome.BROKEN and reply.ephemeral


# ---------------------------------------------------------------------- check-games


async def test_check_games_replays_the_whole_log_past_the_snapshot(
    service: GameService, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    sick, fine = Table(service, channel="sick"), Table(service, channel="fine")
    sick_id, _ = await played(sick, 30, seed=5)
    await played(fine, 3, seed=7)
    snapshot = await service.storage.load_snapshot(sick_id)
    assert snapshot is not None and snapshot.seq >= 25
    refused = await service.storage.load_actions(sick_id, after_seq=1)
    refuse_action(monkeypatch, 2, seed=5)

    # Loading for play resumes from the snapshot (unchanged behaviour), which hides a change before it ...
    assert (await restart(service, settings, clock, "sick").say("alice", "status")).ok
    # ... but check-games replays every game from its first action.
    out = io.StringIO()
    assert await check_games.run(service.storage.path, mark=False, out=out) == 1
    assert out.getvalue().splitlines() == [
        f"game {sick_id} 1882 in test/sick: stored action 2, {refused[0][1]['type']}, is no longer accepted: {RULE}",
        "checked 2 games: 1 replay, 1 fail",
    ]
    assert (await service.storage.get_game(sick_id)).broken is None  # not marked without --mark


async def test_check_games_mark_records_failures_and_clears_games_fixed_since(
    service: GameService, table: Table, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _ = await played(table, 6)
    other = Table(service, channel="other")
    await started(other, ("carol", "dave"), seed=9)
    await other.say("carol", "abandon")
    refuse_action(monkeypatch, 4)
    db = service.storage.path

    out = io.StringIO()
    assert await check_games.run(db, mark=True, out=out) == 1
    assert out.getvalue().splitlines()[-1] == "checked 2 games: 1 replay, 1 fail"
    mark = (await service.storage.get_game(game_id)).broken
    assert mark is not None and mark.failure.seq == 4 and mark.noticed_at is None
    assert (await service.storage.get_game(game_id + 1)).broken is None

    # The bot, restarted on the new engine, tells the channel at the first command there.
    bot = restart(service, settings, clock)
    notice = await bot.say("bob", "history")
    assert notice.outcome == Outcome.BROKEN and not notice.ephemeral and "stored action 4" in notice.text
    assert (await bot.say("bob", "history")).ephemeral
    out = io.StringIO()
    assert await check_games.run(db, mark=True, out=out) == 1  # marking again changes nothing
    assert (await service.storage.get_game(game_id)).broken == (await bot.service.storage.get_game(game_id)).broken

    monkeypatch.undo()  # the fix
    out = io.StringIO()
    assert await check_games.run(db, mark=True, out=out) == 0
    assert out.getvalue().splitlines() == [
        f"game {game_id} replays again: its broken mark is cleared",
        "checked 2 games: 2 replay, 0 fail",
    ]
    assert (await service.storage.get_game(game_id)).broken is None


def test_python_m_bot_check_games_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.db"

    async def make_games() -> int:
        service = GameService(await Storage.open(db), Settings(images=False))
        try:
            game_id, _ = await played(Table(service), 5)
            await started(Table(service, channel="open"), seed=3)
        finally:
            await service.close()
        return game_id

    game_id = asyncio.run(make_games())
    assert bot_main(["check-games", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "checked 2 games: 2 replay, 0 fail\n"

    stored = asyncio.run(_actions(db, game_id))
    seq, action = stored[2]
    rewrite_action(str(db), game_id, seq, {**action, "entity": 99})
    assert bot_main(["check-games", "--db", str(db)]) == 1
    first, summary = capsys.readouterr().out.splitlines()
    assert first.startswith(f"game {game_id} 1882 in test/general: stored action {seq}, {action['type']}, ")
    assert summary == "checked 2 games: 1 replay, 1 fail"

    assert bot_main(["check-games", "--db", str(tmp_path / "missing.db")]) == 2
    assert not (tmp_path / "missing.db").exists()


async def _actions(db: Path, game_id: int) -> list[tuple[int, dict[str, Any]]]:
    async with await Storage.open(db) as storage:
        return await storage.load_actions(game_id)
