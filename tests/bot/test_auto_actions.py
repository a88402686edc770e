"""Programmed auto-actions: carried out when their seat acts, public, and switched off (with a message to their
owner) when the situation they were set for changes; forced passes; no ping for a turn an auto-action took."""

from __future__ import annotations

from bot.core.replies import Outcome, Reply
from tests.bot.conftest import Table

PLAYERS = ("alice", "bob", "carol")


async def _start(table: Table, title: str, seed: int = 7) -> None:
    assert (await table.say("alice", f"new {title} seed={seed}")).ok
    for user in PLAYERS[1:]:
        assert (await table.say(user, "join")).ok
    assert (await table.say("alice", "start")).ok


async def _stock_round_1882(table: Table) -> None:
    """1882 with every private sold in the first pass; bob sets CPR's par; the stock round begins (alice)."""
    await _start(table, "1882")
    for user, move in (("alice", "buy HB"), ("bob", "buy SC"), ("carol", "buy NWR"), ("alice", "buy TB"),
                       ("bob", "buy CP"), ("bob", "par CPR 100")):
        reply = await table.say(user, move)
        assert reply.ok, (move, reply.text)


def _turn_pings(reply: Reply) -> list[str]:
    return [n.user_id for n in reply.notify if n.kind == "turn"]


def _switched_off(reply: Reply, user: str) -> str:
    (note,) = [n for n in reply.notify if n.kind == "auto" and n.user_id == user]
    assert "switched itself off" in note.text
    return note.text


async def test_auto_pass_carries_a_stock_round_without_pinging_and_ends_with_it(table: Table) -> None:
    await _stock_round_1882(table)
    assert (await table.say("bob", "auto pass round")).ok
    armed = await table.say("carol", "auto pass")
    assert armed.ok and "carol programmed: auto pass for the rest of this round" in armed.text
    listing = await table.say("alice", "auto")  # public: anyone sees everyone's
    assert "bob: auto pass for the rest of this round" in listing.text
    assert "carol: auto pass for the rest of this round" in listing.text
    assert "Auto: carol: pass for the rest of this round" in (await table.say("alice", "status")).text
    moved = await table.say("alice", "buy CPR")
    assert "bob passes" in moved.text and "(automatic: programmed: auto pass for the rest of this round)" in moved.text
    assert _turn_pings(moved) == []  # bob's and carol's turns were taken; alice is back, having just moved
    assert "bob" not in moved.mentions and "carol" not in moved.mentions
    ended = await table.say("alice", "pass")  # everyone passed: the stock round ends
    assert "Operating Round" in ended.text, ended.text
    assert "the round it was set for ended" in _switched_off(ended, "bob")
    assert "the round it was set for ended" in _switched_off(ended, "carol")
    assert "No auto-action is armed" in (await table.say("bob", "auto")).text


async def test_auto_buy_stops_when_another_player_buys_into_the_company(table: Table) -> None:
    await _stock_round_1882(table)
    armed = await table.say("carol", "auto buy CPR 60%")
    assert armed.ok, armed.text
    assert "auto buy CPR in each stock turn until holding 60% or it floats, then pass" in armed.text
    moved = await table.say("alice", "pass")
    assert "bob" in _turn_pings(moved)
    bought = await table.say("bob", "buy CPR")  # bob, not carol, buys into CPR
    assert "bob bought into CPR" in _switched_off(bought, "carol"), bought.text
    assert "carol" in _turn_pings(bought)  # her turn is hers again, so she is pinged


async def test_auto_buy_buys_in_each_stock_turn(table: Table) -> None:
    await _stock_round_1882(table)  # carol has the priority deal
    armed = await table.say("carol", "auto buy CPR 60%")  # her turn now: the first share is bought at once
    assert "carol buys" in armed.text and "(automatic: programmed: auto buy CPR" in armed.text, armed.text
    assert "alice" in _turn_pings(armed)
    assert (await table.say("alice", "pass")).ok
    moved = await table.say("bob", "pass")
    assert "carol buys" in moved.text and "(automatic: programmed: auto buy CPR" in moved.text, moved.text
    assert "carol" not in _turn_pings(moved)  # carol's turn was taken: no ping for her
    assert "alice" in _turn_pings(moved)


async def test_auto_bid_steps_up_to_its_ceiling_then_switches_off(table: Table) -> None:
    await _start(table, "1882")
    assert (await table.say("bob", "auto bid TB 155")).ok
    assert (await table.say("carol", "auto pass auction")).ok
    first = await table.say("alice", "bid TB 145")
    assert "bob bids $150 for TB (automatic" in first.text and "carol passes" in first.text, first.text
    assert _turn_pings(first) == []  # back to alice, who just moved: nobody to ping
    over = await table.say("alice", "bid TB 160")
    assert "over your ceiling" in _switched_off(over, "bob"), over.text
    assert "bob" in _turn_pings(over)


async def test_a_forced_step_switches_an_auto_pass_off(table: Table) -> None:
    await _start(table, "1882")
    for user, move in (("alice", "buy HB"), ("bob", "buy SC"), ("carol", "buy NWR"), ("alice", "buy TB"),
                       ("bob", "buy CP")):
        assert (await table.say(user, move)).ok
    armed = await table.say("bob", "auto pass always")  # bob must set CPR's par: not a pass to make for him
    assert "a forced step or a decision came up (par)" in armed.text, armed.text
    assert "No auto-action is armed" in (await table.say("bob", "auto")).text


async def test_auto_off_and_bad_programs(table: Table) -> None:
    await _start(table, "1882")
    assert (await table.say("bob", "auto pass auction")).ok
    off = await table.say("bob", "auto off")
    assert off.ok and "1 switched off" in off.text
    for command, message in (
        ("auto", "No auto-action is armed"),
        ("auto jump", "is not something the bot can do for you"),
        ("auto buy CRP 60%", "did you mean CPR"),
        ("auto buy CPR lots", "is not a share of a company"),
        ("auto bid TB", "write `auto bid PRIVATE CEILING`"),
        ("auto pass sometimes", "say `auction`, `round` or `always`"),
    ):
        reply = await table.say("bob", command)
        assert message in reply.text, (command, reply.text)
        if command != "auto":
            assert reply.outcome == Outcome.MALFORMED
    assert (await table.say("eve", "auto pass")).outcome == Outcome.NOT_SEATED


async def test_1828_auto_bid_ceiling_and_auto_pass_auction(table: Table) -> None:
    await _start(table, "1828")
    assert (await table.say("bob", "auto bid SVN 35")).ok
    assert (await table.say("carol", "auto pass auction")).ok
    first = await table.say("alice", "bid SVN 25")
    assert "bob bids $30 for SVN (automatic" in first.text, first.text
    over = await table.say("alice", "bid SVN 40")
    assert "over your ceiling" in _switched_off(over, "bob"), over.text
    listing = (await table.say("alice", "auto")).text
    assert "carol: auto pass for the rest of this auction" in listing and "bob:" not in listing
