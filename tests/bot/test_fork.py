"""The what-if sandbox: a practice copy of a game, played by one player on every seat, that never touches the
real game and pings nobody."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from bot.core.fork_verbs import FORK_HOURS
from bot.core.replies import Outcome
from tests.bot.conftest import FakeClock, Table, started


def _stored_log(db: Path, game_id: int) -> list[tuple[int, bytes, str, float]]:
    """The real game's rows exactly as the database holds them (a separate reader, raw bytes)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT seq, CAST(data AS BLOB), actor, created_at FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
    finally:
        con.close()
    return [(int(r[0]), bytes(r[1]), str(r[2]), float(r[3])) for r in rows]


def _channel(text: str) -> str:
    match = re.search(r"own channel `([^`]+)`", text)
    assert match is not None, text
    return match.group(1)


async def test_a_fork_is_played_on_every_seat_and_leaves_the_real_log_byte_identical(
    table: Table, tmp_path: Path
) -> None:
    await started(table, ("alice", "bob", "carol"), seed=7)
    assert (await table.say("alice", "buy HB")).ok
    assert (await table.say("bob", "buy SC")).ok
    db = tmp_path / "bot.db"
    before = _stored_log(db, 1)
    made = await table.say("carol", "fork")
    assert made.ok and "Practice copy game #2 of game #1 at action" in made.text, made.text
    here = _channel(made.text)
    # carol plays carol's seat, then alice's and bob's, all from the copy's channel; nobody is pinged.
    for move in ("buy NWR", "buy TB", "buy CP", "par CPR 100"):
        reply = await table.say("carol", move, channel=here)
        assert reply.ok, (move, reply.text)
        assert reply.notify == [] and reply.mentions == [], (move, reply.notify, reply.mentions)
    assert "alice buys TB" in (await table.say("carol", "history", channel=here)).text
    assert (await table.say("alice", "buy NWR", channel=here)).outcome == Outcome.NOT_SEATED
    exported = await table.say("carol", "export", channel=here)
    (attachment,) = exported.attachments
    doc = json.loads(attachment.data)
    assert len(doc["actions"]) == len(before) + 4
    assert _stored_log(db, 1) == before  # the real game's stored log, byte for byte
    # The real game goes on where it was, its seats its own.
    real = await table.say("carol", "buy NWR")
    assert real.ok and "carol buys NWR" in real.text
    assert await table.service.storage.outbox_pending(2) == []  # no reminder for anyone in the copy


async def test_a_fork_at_an_earlier_action_and_closing_it(table: Table, clock: FakeClock) -> None:
    await started(table, ("alice", "bob"), seed=7)
    assert (await table.say("alice", "buy HB")).ok
    assert (await table.say("bob", "buy SC")).ok
    made = await table.say("bob", "fork at 1")
    assert made.ok and "at action 1" in made.text, made.text
    here = _channel(made.text)
    assert "bob buys SC" not in (await table.say("bob", "history", channel=here)).text
    assert (await table.say("alice", "fork close", channel=here)).outcome == Outcome.DENIED
    closed = await table.say("bob", "fork close", channel=here)
    assert closed.ok and "is closed" in closed.text
    assert (await table.say("bob", "buy SC", channel=here)).outcome == Outcome.NO_GAME
    bad = await table.say("bob", "fork at 99")
    assert bad.outcome == Outcome.MALFORMED and "actions 0 to" in bad.text
    # A copy left open closes by itself when its time is up.
    later = await table.say("alice", "fork")
    there = _channel(later.text)
    clock.advance(FORK_HOURS * 3600 + 1)
    await table.service.due_notifications()
    assert (await table.say("alice", "status", channel=there)).outcome == Outcome.NO_GAME
    assert (await table.say("eve", "fork")).outcome == Outcome.NOT_SEATED
