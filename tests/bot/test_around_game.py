"""Around the game: the pinned board text, times in the reader's zone, nudges, the lobby and stats."""

from __future__ import annotations

from bot.core.replies import Outcome
from tests.bot.conftest import FakeClock, Table, started


async def test_moves_carry_the_board_text(table: Table) -> None:
    await started(table, ("alice", "bob"))
    reply = await table.say("alice", "buy HB")
    assert reply.board.startswith("📌 1882 game #1 · Auction Round")
    assert "Waiting for bob" in reply.board and "Players: alice $" in reply.board
    assert (await table.say("bob", "status")).board.startswith("📌 1882 game #1")
    assert (await table.say("bob", "moves")).board == ""  # a private answer changes nothing pinned


async def test_who_says_since_when_in_the_readers_zone(table: Table, clock: FakeClock) -> None:
    await started(table, ("alice", "bob"))
    clock.advance(3600)
    assert (await table.say("alice", "buy HB")).ok
    stamp = int(clock.now)
    text = (await table.say("bob", "who")).text
    assert text.splitlines()[0].endswith("(since 2023-11-14 23:13 UTC)")  # the console's rendering
    from bot.core.timefmt import mark, render

    assert render(f"since {mark(stamp)}", "discord") == f"since <t:{stamp}:R>"
    assert render(f"since {mark(stamp)}", "slack").startswith(f"since <!date^{stamp}^")


async def test_nudge_pings_the_acting_player_and_is_rate_limited(table: Table, clock: FakeClock) -> None:
    await started(table, ("alice", "bob", "carol"))
    mine = await table.say("alice", "nudge")
    assert mine.outcome == Outcome.ILLEGAL and "your move" in mine.text
    nudge = await table.say("bob", "nudge")
    assert nudge.ok and nudge.mentions == ["alice"] and "bob nudges alice" in nudge.text
    assert [n.user_id for n in nudge.notify] == ["alice"]
    again = await table.say("carol", "nudge")
    assert again.outcome == Outcome.DENIED and "try again in 60 minutes" in again.text
    clock.advance(3601)
    assert (await table.say("carol", "nudge")).ok
    spectator = await table.say("eve", "nudge")
    assert spectator.outcome == Outcome.NOT_SEATED


async def test_stats_count_results_and_time_to_move(table: Table, clock: FakeClock) -> None:
    await started(table, ("alice", "bob"))
    clock.advance(120)
    assert (await table.say("alice", "buy HB")).ok
    clock.advance(600)
    assert (await table.say("bob", "buy SC")).ok
    text = (await table.say("bob", "stats")).text
    assert "alice: no finished game; median 2m over 1 turns" in text
    assert "bob: no finished game; median 10m over 1 turns" in text


def test_a_cut_digest_keeps_the_lines_about_the_reader() -> None:
    from bot.core.notify import digest
    from bot.core.service_core import _concerns
    from engine import new_game

    game = new_game("1882", [(1, "alice"), (2, "bob")])
    log = ["2-0 rusts", "alice's CNR loses a train", *[f"bob buys share {i}" for i in range(20)]]
    kept = digest(log, 0, limit=6, keep=_concerns(game, 1))
    assert kept[0] == "alice's CNR loses a train" and kept[1].startswith("(")
    assert kept[-1] == "bob buys share 19"
    plain = digest(log, 0, limit=6)
    assert "alice's CNR loses a train" not in plain
