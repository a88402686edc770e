"""A move nobody meant is never stored: double clicks, late buttons, racing duplicates, late requests, joins.

The train case is 18xx.games game 10526 cut after 52 actions: QLL (Player 1's) must buy a train, and
"train 2" stays legal after the first 2-train is bought, so only the position check stops a second one.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.config import Settings
from bot.core.commands import split_position
from bot.core.replies import Outcome, Reply
from bot.core.service import GameService
from bot.storage import GameStatus, Storage
from tests.bot.conftest import FakeClock, Table, started
from tests.conftest import SHARED_FIXTURES

GAME_10526 = SHARED_FIXTURES / "1882" / "10526.json"
PLAYERS = ("Player 1", "Player 2", "Player 3")


async def _train_step(service: GameService, channel: str = "g") -> Table:
    """Game 10526 imported after action 52 and seated p1..p3: QLL (p1) is to buy a train."""
    if not GAME_10526.exists():
        pytest.skip(f"{GAME_10526} is absent")
    doc = json.loads(GAME_10526.read_text())
    doc["actions"] = doc["actions"][:52]
    table = Table(service, channel=channel)
    (reply,) = await service.handle("test", channel, "p1", "p1", "import", attachments=[json.dumps(doc).encode()])
    assert reply.ok, reply.text
    for n, name in enumerate(PLAYERS, start=1):
        assert (await table.say(f"p{n}", f"join {name}")).ok
    assert (await table.say("p1", "start")).ok
    return table


async def _click(table: Table, user: str, command: str) -> Reply:
    (reply,) = await table.service.handle("test", table.channel, user, user, command, clicked=True)
    return reply


def _train_button(reply: Reply) -> str:
    return next(b.command for b in reply.buttons if b.label.startswith("Buy 2-train"))


async def _trains_bought(table: Table) -> int:
    return (await table.say("p1", "history")).text.count("buys a 2 train")


async def test_double_click_on_a_train_button_buys_one_train(service: GameService) -> None:
    table = await _train_step(service)
    button = _train_button(await table.say("p2", "status"))
    assert split_position(button) == (52, "train 2")
    first, second = await asyncio.gather(_click(table, "p1", button), _click(table, "p1", button))
    assert sorted([first.outcome, second.outcome]) == sorted([Outcome.OK, Outcome.STALE])
    late = await _click(table, "p1", button)  # a slow second click, long after the first
    assert late.outcome == Outcome.STALE and "earlier step" in late.text
    assert await service.storage.last_seq(1) == 53
    assert await _trains_bought(table) == 1
    # A click made for the new step still works: the second train is bought on purpose.
    again = _train_button(await table.say("p2", "status"))
    assert split_position(again)[0] == 53
    assert (await _click(table, "p1", again)).ok
    assert await _trains_bought(table) == 2


async def test_the_same_typed_command_racing_itself_applies_once(service: GameService) -> None:
    table = await _train_step(service)
    replies = await asyncio.gather(*(table.say("p1", "train 2") for _ in range(3)))
    assert [r.outcome for r in replies].count(Outcome.OK) == 1, [r.text for r in replies]
    assert all("sent twice" in r.text for r in replies if not r.ok)
    assert await _trains_bought(table) == 1
    # Typed again later, it is a new command: the player means a second train.
    assert (await table.say("p1", "train 2")).ok
    assert await _trains_bought(table) == 2


async def test_identical_commands_from_two_processes_apply_once(
    tmp_path: Path, service: GameService, clock: FakeClock, settings: Settings
) -> None:
    table = await _train_step(service)
    other = GameService(await Storage.open(tmp_path / "bot.db", clock=clock), settings, clock=clock)
    try:
        twin = Table(other, channel=table.channel)
        await twin.say("p2", "status")  # both processes hold the game at action 52
        button = _train_button(await table.say("p2", "status"))
        for a, b in [(table.say("p1", "train 2"), twin.say("p1", "train 2"))]:
            replies = await asyncio.gather(a, b)
            assert [r.outcome for r in replies].count(Outcome.OK) == 1, [r.text for r in replies]
        clicks = await asyncio.gather(_click(table, "p1", button), _click(twin, "p1", button))
        assert not any(r.ok for r in clicks)  # that step is over in both processes
        assert await _trains_bought(table) == 1
        assert (await table.say("p1", "history")).text == (await twin.say("p1", "history")).text
    finally:
        await other.close()


async def test_buttons_from_a_turn_dm_and_from_before_a_restart_are_refused_once_stale(
    tmp_path: Path, service: GameService, table: Table, clock: FakeClock, settings: Settings
) -> None:
    await started(table, users=("alice", "bob"), seed=5)
    opening = await table.say("bob", "status")
    buy = next(b.command for b in opening.buttons if b.label.startswith("Buy"))
    moved = await _click(table, "alice", buy)
    assert moved.ok
    (note,) = [n for n in moved.notify if n.user_id == "bob"]
    dm_pass = next(b.command for b in note.buttons if b.label == "Pass")  # bob's turn DM
    assert split_position(dm_pass) == (1, "pass")
    assert (await table.say("bob", "pass")).ok  # typed: the DM's step is over
    stored = await service.storage.last_seq(1)
    # A restart: a new process gets the old buttons.
    fresh = GameService(await Storage.open(tmp_path / "bot.db", clock=clock), settings, clock=clock)
    try:
        again = Table(fresh)
        assert (await _click(again, "alice", buy)).outcome == Outcome.STALE
        assert (await _click(again, "bob", dm_pass)).outcome == Outcome.STALE
        # A move button from before buttons carried a position is refused, not applied to this step.
        legacy = await _click(again, "alice", "pass")
        assert legacy.outcome == Outcome.STALE and "earlier version" in legacy.text
        assert await fresh.storage.last_seq(1) == stored
    finally:
        await fresh.close()


async def test_typed_commands_may_carry_a_position(table: Table) -> None:
    await started(table, seed=5)
    assert (await table.say("alice", "@3 buy HB")).outcome == Outcome.STALE
    assert (await table.say("alice", "@0 buy HB")).ok


async def test_a_request_does_not_outlive_its_game(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    await table.say("alice", "buy HB")
    await table.say("bob", "pass")
    undo = await table.say("alice", "undo")
    assert undo.outcome == Outcome.PENDING
    abandon = await table.say("bob", "abandon")
    assert abandon.outcome == Outcome.PENDING
    assert (await table.say("alice", "approve 2")).ok
    assert (await table.service.storage.get_game(game_id)).status == GameStatus.ABANDONED
    late = await table.say("bob", "approve 1")
    assert late.outcome == Outcome.ILLEGAL and "abandoned" in late.text
    assert await table.service.storage.last_seq(game_id) == 2  # the undo was not stored


async def test_an_abandon_approved_after_the_end_leaves_the_game_finished(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    assert (await table.say("alice", "abandon")).outcome == Outcome.PENDING
    # The final move lands (here: by another process) before bob answers.
    await table.service.storage.update_game_status(game_id, GameStatus.FINISHED)
    late = await table.say("bob", "approve 1")
    assert late.outcome == Outcome.ILLEGAL
    assert (await table.service.storage.get_game(game_id)).status == GameStatus.FINISHED


async def test_nothing_is_appended_to_an_ended_game(service: GameService, table: Table) -> None:
    game_id = await started(table, seed=5)
    await service.storage.update_game_status(game_id, GameStatus.ABANDONED)  # by another process
    reply = await table.say("alice", "buy HB")
    assert not reply.ok
    assert await service.storage.last_seq(game_id) == 0


async def test_simultaneous_joins_never_seat_more_than_the_cap(
    tmp_path: Path, service: GameService, table: Table, clock: FakeClock, settings: Settings
) -> None:
    assert (await table.say("host", "new 1882 players=3")).ok
    other = GameService(await Storage.open(tmp_path / "bot.db", clock=clock), settings, clock=clock)
    try:
        twin = Table(other)
        joins = [(table if n % 2 else twin).say(f"u{n}", "join") for n in range(30)]
        replies = await asyncio.gather(*joins)
        assert sum(r.ok for r in replies) == 2
        assert all("full" in r.text for r in replies if not r.ok)
        assert len(await service.storage.list_seats(1)) == 3
    finally:
        await other.close()


async def test_the_first_player_to_act_is_pinged_at_the_start(table: Table) -> None:
    await table.say("alice", "new 1882 seed=5")
    await table.say("bob", "join")
    start = await table.say("alice", "start")  # alice acts first: she is pinged too, with her buttons
    assert start.mentions == ["alice"]
    (note,) = start.notify
    assert (note.user_id, note.kind) == ("alice", "turn") and note.buttons


async def test_an_imported_game_pings_whoever_acts_when_it_starts(service: GameService) -> None:
    if not GAME_10526.exists():
        pytest.skip(f"{GAME_10526} is absent")
    doc = json.loads(GAME_10526.read_text())
    doc["actions"] = doc["actions"][:52]
    table = Table(service, channel="g")
    await service.handle("test", "g", "p1", "p1", "import", attachments=[json.dumps(doc).encode()])
    for n, name in enumerate(PLAYERS, start=1):
        assert (await table.say(f"p{n}", f"join {name}")).ok
    start = await table.say("p1", "start")  # p1 imported it days ago; QLL (p1's) is to act
    assert start.mentions == ["p1"] and [n.user_id for n in start.notify] == ["p1"]
