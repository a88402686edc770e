"""The game service end to end on a temporary database: setting up, moves, refusals, undo, export, races."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.console.scripted import Move, Policy, next_move
from bot.core.live import decode_snapshot
from bot.core.notify import acting_player_ids
from bot.core.replies import Outcome, Reply
from bot.core.service import GameService
from bot.storage import GameStatus, StaleStateError, Storage
from engine import new_game
from engine.importer import parse_game_json, replay
from tests.bot.conftest import FakeClock, Table, started


class Driver:
    """Plays the policy on a mirror game and sends the same moves to the bot."""

    def __init__(self, table: Table, seed: int = 7, users: tuple[str, ...] = ("alice", "bob")) -> None:
        self.table = table
        self.users = users
        self.names = {i + 1: u for i, u in enumerate(users)}
        self.mirror = new_game("1882", [(i + 1, u) for i, u in enumerate(users)], seed=seed)
        self.policy = Policy(seed)

    async def step(self) -> tuple[Move, Reply, list[int], list[int]]:
        before = acting_player_ids(self.mirror)
        move = next_move(self.mirror, self.policy, self.names)
        assert move is not None
        reply = await self.table.say(move.user, move.command)
        if move.approver is not None:
            assert reply.outcome == Outcome.PENDING, reply.text
            reply = await self.table.say(move.approver, "approve")
        assert reply.outcome == Outcome.OK, (move, reply.text)
        return move, reply, before, acting_player_ids(self.mirror)

    async def until(self, predicate: Any, limit: int = 3000) -> None:
        for _ in range(limit):
            if predicate(self.mirror):
                return
            await self.step()
        pytest.fail("state not reached")


async def _stored(service: GameService, game_id: int) -> int:
    return await service.storage.last_seq(game_id)


# ---------------------------------------------------------------------- setting up


async def test_create_join_start_in_join_order(table: Table) -> None:
    reply = await table.say("Alice", "new 1882 seed=3")
    assert reply.ok and "created 1882 game" in reply.text
    assert (await table.say("Bob", "join")).ok
    assert (await table.say("Carol", "join")).ok
    reply = await table.say("Alice", "start")
    assert "Seat order: Alice, Bob, Carol" in reply.text
    assert reply.mentions == ["alice"]  # Alice acts first: pinged even though she started it
    seats = await table.service.storage.list_seats(reply.game_id or 0)
    assert [(s.display_name, s.player_id) for s in seats] == [("Alice", 1), ("Bob", 2), ("Carol", 3)]


async def test_setup_refusals(table: Table) -> None:
    assert (await table.say("alice", "new 1883")).outcome == Outcome.MALFORMED
    assert "did you mean 1882" in (await table.say("alice", "new 1883")).text
    assert (await table.say("alice", "new 1882 players=2")).ok
    assert (await table.say("alice", "new 1882")).outcome == Outcome.ILLEGAL  # channel busy
    assert (await table.say("alice", "join")).outcome == Outcome.ILLEGAL  # already seated
    assert (await table.say("alice", "start")).outcome == Outcome.ILLEGAL  # one player
    assert (await table.say("bob", "join")).ok
    assert "full" in (await table.say("carol", "join")).text
    assert (await table.say("bob", "start")).outcome == Outcome.DENIED
    assert (await table.say("bob", "leave")).ok
    assert (await table.say("bob", "join")).ok
    assert (await table.say("alice", "start")).ok
    assert (await table.say("carol", "join")).outcome == Outcome.ILLEGAL  # started


async def test_start_shuffle_is_deterministic_for_the_seed(service: GameService) -> None:
    orders = []
    for channel in ("a", "b"):
        t = Table(service, channel=channel)
        await t.say("p1", "new 1882 seed=11")
        for u in ("p2", "p3", "p4"):
            await t.say(u, "join")
        reply = await t.say("p1", "start shuffle")
        orders.append(reply.text.split("Seat order: ")[1].split(".")[0])
    assert orders[0] == orders[1]
    assert sorted(orders[0].split(", ")) == ["p1", "p2", "p3", "p4"]


async def test_games_in_several_channels(service: GameService) -> None:
    one, two = Table(service, channel="one"), Table(service, channel="two")
    await started(one, ("alice", "bob"))
    await started(two, ("bob", "alice"))
    reply = await one.say("alice", "games")
    assert reply.ephemeral
    lines = reply.text.splitlines()
    assert any("in one" in line and "YOUR TURN" in line for line in lines)
    assert any("in two" in line and "waiting for bob" in line for line in lines)


# ---------------------------------------------------------------------- refusals store nothing


async def test_refusals_store_nothing(table: Table) -> None:
    game_id = await started(table)
    before = await _stored(table.service, game_id)
    cases = [
        ("bob", "pass", Outcome.NOT_YOUR_TURN, "it's not your turn: waiting for alice"),
        ("carol", "pass", Outcome.NOT_SEATED, "you are not playing"),
        ("alice", "biy HB", Outcome.MALFORMED, "Did you mean `buy`?"),
        ("alice", "bid TB", Outcome.MALFORMED, "not enough to go on"),
        ("alice", "bid XX 100", Outcome.MALFORMED, "no private company XX"),
        ("alice", "bid TB 5", Outcome.ILLEGAL, "the minimum bid for TB"),
        ("alice", "par CPR 100", Outcome.ILLEGAL, "you can: `buy HB`, `bid SC 55`"),
        ("alice", "bid TB 10000", Outcome.ILLEGAL, "cannot bid"),
    ]
    for user, text, outcome, message in cases:
        reply = await table.say(user, text)
        assert (reply.outcome, reply.ephemeral) == (outcome, True), (text, reply.text)
        assert message in reply.text, (text, reply.text)
    assert await _stored(table.service, game_id) == before


async def test_no_game_in_channel(table: Table) -> None:
    for text in ("pass", "status", "undo", "export"):
        assert (await table.say("alice", text)).outcome == Outcome.NO_GAME


# ---------------------------------------------------------------------- moves and pings


async def test_only_newly_active_players_are_pinged(table: Table) -> None:
    await started(table, seed=5)
    driver = Driver(table, seed=5)
    same_player_steps = 0
    for _ in range(150):
        move, reply, before, after = await driver.step()
        pinged = sorted(n.user_id for n in reply.notify if n.kind == "turn")
        expected = sorted(driver.names[p] for p in after if p not in before and driver.names[p] != move.user)
        if move.approver is None:
            assert pinged == expected, (move, reply.text)
            assert reply.mentions == expected
        if set(after) == set(before):
            same_player_steps += 1
            assert pinged == []
    assert same_player_steps > 10  # e.g. a president laying track, then placing a token


async def test_turn_ping_has_a_digest_of_what_happened(table: Table) -> None:
    await started(table, seed=5)
    await table.say("alice", "buy HB")
    reply = await table.say("bob", "pass")
    note = next(n for n in reply.notify if n.user_id == "alice")
    assert "Your turn" in note.text and "Since your last turn" in note.text and "bob passes" in note.text


async def test_status_who_history_moves(table: Table) -> None:
    await started(table, seed=5)
    driver = Driver(table, seed=5)
    for _ in range(40):
        await driver.step()
    status = await table.say("carol", "status")  # spectators may look
    assert status.ok and "Game #" in status.text
    who = await table.say("carol", "who")
    assert "Waiting for" in who.text and "alice" in who.text
    page1 = await table.say("bob", "history")
    assert "page 1 of" in page1.text
    page2 = await table.say("bob", "history 2")
    assert page2.text.splitlines()[1:] != page1.text.splitlines()[1:]
    actor = driver.names[acting_player_ids(driver.mirror)[0]]
    moves = await table.say(actor, "moves")
    assert moves.ephemeral and "You can send" in moves.text
    idle = next(u for u in driver.users if u != actor)
    assert "Nothing to do" in (await table.say(idle, "moves")).text


async def test_numbers_too_large_for_storage_are_refused_not_crashed(table: Table) -> None:
    await started(table, seed=5)
    huge = "99999999999999999999"
    for user, text in [("alice", f"decline {huge}"), ("bob", f"approve #{huge}"), ("carol", f"history {huge}")]:
        reply = await table.say(user, text)
        assert reply.outcome == Outcome.MALFORMED, reply.text
        assert "far too large" in reply.text
    refused = await table.say("dan", f"new 1882 seed={huge}", channel="elsewhere")
    assert refused.outcome == Outcome.MALFORMED and "far too large" in refused.text


# ---------------------------------------------------------------------- undo, redo, consent


async def test_undo_own_last_action_is_free_and_redo(table: Table) -> None:
    game_id = await started(table, seed=5)
    await table.say("alice", "buy HB")
    undo = await table.say("alice", "undo")
    assert undo.outcome == Outcome.OK and "Taken back" in undo.text
    assert await _stored(table.service, game_id) == 2  # the buy and the undo, both in the log
    assert (await table.say("bob", "redo")).outcome == Outcome.DENIED
    redo = await table.say("alice", "redo")
    assert redo.ok and "alice buys HB" in redo.text
    assert (await table.say("alice", "redo")).outcome == Outcome.ILLEGAL
    assert (await table.say("bob", "undo")).outcome == Outcome.ILLEGAL  # bob has not acted


async def test_undo_past_another_players_action_needs_their_approval(table: Table) -> None:
    game_id = await started(table, seed=5)
    await table.say("alice", "buy HB")
    await table.say("bob", "pass")
    stored = await _stored(table.service, game_id)
    ask = await table.say("alice", "undo")
    assert ask.outcome == Outcome.PENDING and "`approve 1`" in ask.text
    assert ask.mentions == ["bob"] and [n.user_id for n in ask.notify] == ["bob"]
    assert await _stored(table.service, game_id) == stored
    assert (await table.say("carol", "approve 1")).outcome == Outcome.DENIED
    assert (await table.say("alice", "approve 1")).outcome == Outcome.DENIED
    done = await table.say("bob", "approve 1")
    assert done.ok and "approves request 1" in done.text
    assert "alice buys HB" in done.text and "bob passes" in done.text  # both taken back
    assert await _stored(table.service, game_id) == stored + 1
    assert "Waiting for alice" in (await table.say("bob", "who")).text
    assert (await table.say("bob", "approve 1")).outcome == Outcome.ILLEGAL  # already settled


async def test_declined_or_outdated_requests_change_nothing(table: Table) -> None:
    game_id = await started(table, seed=5)
    await table.say("alice", "buy HB")
    await table.say("bob", "pass")
    await table.say("alice", "undo")
    stored = await _stored(table.service, game_id)
    declined = await table.say("bob", "decline")
    assert declined.ok and "declines request 1" in declined.text
    assert await _stored(table.service, game_id) == stored
    await table.say("alice", "undo")  # request 2
    assert (await table.say("alice", "pass")).ok  # the game moves on
    late = await table.say("bob", "approve 2")
    assert late.outcome == Outcome.ILLEGAL and "moved on" in late.text


async def test_request_expires(table: Table, clock: FakeClock) -> None:
    await started(table, seed=5)
    await table.say("alice", "buy HB")
    await table.say("bob", "pass")
    await table.say("alice", "undo")
    clock.advance(3 * 24 * 3600)
    assert "expired" in (await table.say("bob", "approve 1")).text


async def test_abandon_needs_everyone(table: Table) -> None:
    game_id = await started(table)
    ask = await table.say("alice", "abandon")
    assert ask.outcome == Outcome.PENDING
    assert (await table.say("bob", "approve")).ok
    record = await table.service.storage.get_game(game_id)
    assert record.status == GameStatus.ABANDONED
    assert (await table.say("alice", "new 1882")).ok  # the channel is free again


# ---------------------------------------------------------------------- export, import, snapshots


async def _export(table: Table, user: str = "alice") -> dict[str, Any]:
    reply = await table.say(user, "export")
    assert reply.ok, reply.text
    (attachment,) = reply.attachments
    assert attachment.kind == "file" and attachment.filename.endswith(".json")
    return json.loads(attachment.data)


async def test_export_replays_to_the_same_state(table: Table) -> None:
    await started(table, seed=5)
    driver = Driver(table, seed=5)
    for _ in range(120):
        move, *_ = await driver.step()
    assert (await table.say(move.user, "undo")).ok
    pid = next(p for p, n in driver.names.items() if n == move.user)
    driver.mirror.process({"type": "undo", "entity": pid, "entity_type": "player"})
    doc = await _export(table)
    game = replay(parse_game_json(doc))
    assert [(a["type"], a["id"]) for a in doc["actions"]] == [
        (a["type"], a["id"]) for a in driver.mirror.raw_actions
    ]
    assert game.result() == driver.mirror.result()
    assert game.log_lines == driver.mirror.log_lines
    assert [p["name"] for p in doc["players"]] == ["alice", "bob"]
    assert doc["settings"]["seed"] == 5 and doc["status"] == "active"


async def test_import_continues_a_game_here(service: GameService) -> None:
    source = Table(service, channel="source")
    await started(source, seed=5)
    driver = Driver(source, seed=5)
    for _ in range(80):
        await driver.step()
    doc = await _export(source)
    doc["id"] = 4242
    target = Table(service, channel="target")
    blob = json.dumps(doc).encode()
    (reply,) = await service.handle("test", "target", "carol", "carol", "import", attachments=[blob])
    assert reply.ok and "Imported 1882 game 4242" in reply.text
    near_miss = await target.say("dave", "join bobb")
    assert near_miss.outcome == Outcome.MALFORMED
    assert "did you mean bob" in near_miss.text.lower() and "free: alice, bob" in near_miss.text
    assert (await target.say("dave", "join bob")).ok
    assert (await target.say("carol", "start")).outcome == Outcome.ILLEGAL  # alice's seat is free
    assert (await target.say("carol", "join")).ok
    assert (await target.say("carol", "start")).ok
    # carol now plays alice's seat and dave bob's: the next move works under the new names.
    actor = driver.names[acting_player_ids(driver.mirror)[0]]
    move = next_move(driver.mirror, driver.policy, driver.names)
    assert move is not None and move.approver is None
    new_user = "carol" if actor == "alice" else "dave"
    assert (await target.say(new_user, move.command)).ok
    exported = await _export(target, new_user)
    assert replay(parse_game_json(exported)).result() == driver.mirror.result()


async def test_import_refuses_broken_files(table: Table) -> None:
    (reply,) = await table.service.handle("test", "x", "u", "u", "import", attachments=[b"not json"])
    assert reply.outcome == Outcome.MALFORMED
    (reply,) = await table.service.handle("test", "x", "u", "u", "import", attachments=[b'{"title": "1882"}'])
    assert reply.outcome == Outcome.MALFORMED
    assert (await table.say("u", "import")).outcome == Outcome.MALFORMED


async def test_snapshot_makes_a_fresh_process_continue_identically(
    tmp_path: Path, service: GameService, table: Table, clock: FakeClock, settings: Settings
) -> None:
    game_id = await started(table, seed=5)
    driver = Driver(table, seed=5)
    for _ in range(60):
        await driver.step()
    snapshot = await service.storage.load_snapshot(game_id)
    assert snapshot is not None and snapshot.seq >= 50
    assert decode_snapshot(snapshot.data) is not None
    storage = await Storage.open(tmp_path / "bot.db", clock=clock)
    other = GameService(storage, settings, clock=clock)
    try:
        fresh = Table(other)
        a = await table.say("carol", "status")
        b = await fresh.say("carol", "status")
        assert a.text == b.text
        # Moves go on in the fresh process, and the first one catches up through the log.
        driver.table = fresh
        for _ in range(10):
            await driver.step()
        doc = await _export(fresh)
        assert replay(parse_game_json(doc)).result() == driver.mirror.result()
        assert (await table.say("carol", "history")).text == (await fresh.say("carol", "history")).text
    finally:
        await other.close()


async def test_stale_snapshot_falls_back_to_replay(service: GameService, table: Table) -> None:
    game_id = await started(table, seed=5)
    driver = Driver(table, seed=5)
    for _ in range(30):
        await driver.step()
    seq = await _stored(service, game_id)
    await service.storage.save_snapshot(game_id, seq, b"RHS1" + b"\0" * 32 + b"junk")
    service._cache.drop(game_id)
    assert (await driver.step())[1].ok


# ---------------------------------------------------------------------- races


async def test_racing_commands_from_two_processes_apply_once(
    tmp_path: Path, service: GameService, table: Table, clock: FakeClock, settings: Settings
) -> None:
    game_id = await started(table, seed=5)
    storage = await Storage.open(tmp_path / "bot.db", clock=clock)
    other = GameService(storage, settings, clock=clock)
    try:
        twin = Table(other)
        await table.say("x", "status")
        await twin.say("x", "status")  # both caches are warm and equal
        stored = await _stored(service, game_id)
        a, b = await asyncio.gather(table.say("alice", "buy HB"), twin.say("alice", "pass"))
        assert sorted([a.ok, b.ok]) == [False, True], (a.text, b.text)
        loser = a if not a.ok else b
        assert loser.outcome in (Outcome.NOT_YOUR_TURN, Outcome.CONFLICT), loser.text
        assert await _stored(service, game_id) == stored + 1
        # Both processes agree on what happened.
        assert (await table.say("x", "history")).text == (await twin.say("x", "history")).text
    finally:
        await other.close()


async def test_a_command_computed_on_stale_state_is_rechecked_not_stored(
    tmp_path: Path, service: GameService, table: Table, clock: FakeClock, settings: Settings
) -> None:
    """Process B validates on its (stale) cache, A stores first, B's append is refused and B re-checks."""
    game_id = await started(table, seed=5)
    storage = await Storage.open(tmp_path / "bot.db", clock=clock)
    other = GameService(storage, settings, clock=clock)
    go = asyncio.Event()
    attempts: list[str] = []
    real_append = storage.append_action

    async def held_append(*args: Any, **kwargs: Any) -> int:
        await go.wait()
        try:
            return await real_append(*args, **kwargs)
        except StaleStateError:
            attempts.append("stale")
            raise

    storage.append_action = held_append  # type: ignore[method-assign]
    try:
        twin = Table(other)
        await twin.say("x", "status")
        b_task = asyncio.create_task(twin.say("alice", "pass"))
        await asyncio.sleep(0.05)  # B has applied "pass" in memory and waits to store it
        a = await table.say("alice", "buy HB")
        go.set()
        b = await b_task
        assert a.ok
        assert attempts == ["stale"]
        assert b.outcome == Outcome.NOT_YOUR_TURN, b.text  # re-checked on the fresh state: bob's turn now
        assert await _stored(service, game_id) == 1
        assert "alice passes" not in (await twin.say("x", "history")).text
    finally:
        await other.close()


async def test_same_command_twice_concurrently_in_one_process(table: Table) -> None:
    game_id = await started(table, seed=5)
    replies = await asyncio.gather(*(table.say("alice", "buy HB") for _ in range(5)))
    assert sum(r.ok for r in replies) == 1
    assert await _stored(table.service, game_id) == 1


# ---------------------------------------------------------------------- pictures


async def test_moves_come_with_map_and_market(tmp_path: Path, clock: FakeClock) -> None:
    storage = await Storage.open(tmp_path / "img.db", clock=clock)
    service = GameService(storage, Settings(images=True), clock=clock)
    try:
        table = Table(service)
        await started(table, seed=5)
        reply = await table.say("alice", "buy HB")
        names = sorted(a.filename for a in reply.images)
        assert names == ["game1-0001-map.png", "game1-0001-market.png"]
        assert all(a.data.startswith(b"\x89PNG\r\n\x1a\n") and a.alt for a in reply.images)
        assert (await table.say("bob", "map")).images[0].filename.endswith("map.png")
    finally:
        await service.close()
