"""Programmed auto-actions: carried out when their seat acts, public, and switched off (with a message to their
owner) when the situation they were set for changes; forced passes; no ping for a turn an auto-action took."""

from __future__ import annotations

import pytest

from bot.core import auto
from bot.core.replies import Outcome, Reply
from engine import new_game
from engine.core import query
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
    assert [b.label for b in listing.buttons] == ["Auto-pass this round", "Auto off"]
    one = (await table.say("alice", "auto @bob")).text  # one player's
    assert "bob: auto pass" in one and "carol" not in one
    assert "bob: auto pass for the rest of this round" in listing.text
    assert "carol: auto pass for the rest of this round" in listing.text
    assert "Auto: carol: pass for the rest of this round" in (await table.say("alice", "status")).text
    moved = await table.say("alice", "buy CPR")
    assert "bob passes" in moved.text and "(automatic: programmed: auto pass for the rest of this round)" in moved.text
    assert _turn_pings(moved) == []  # bob's and carol's turns were taken; alice is back, having just moved
    assert "bob" not in moved.mentions and "carol" not in moved.mentions
    log = (await table.say("carol", "history")).text  # the log keeps which moves were programmed
    assert "bob's next move is automatic (programmed: auto pass for the rest of this round)" in log, log
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


async def test_the_listing_buttons_program_whoever_clicks(table: Table) -> None:
    await _start(table, "1882")
    listing = await table.say("carol", "auto")
    button = next(b for b in listing.buttons if b.label == "Auto-pass this auction")
    clicked = await table.service.handle("test", "general", "bob", "bob", button.command, clicked=True)
    assert clicked[0].ok and "bob programmed: auto pass for the rest of this auction" in clicked[0].text
    assert "bob: auto pass for the rest of this auction" in (await table.say("carol", "auto")).text


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


# ---------------------------------------------------------------------- the switch-off rules, title by title


@pytest.mark.parametrize(("title", "players"), [("1882", 3), ("1828", 3), ("1822", 3), ("1862", 4)])
def test_each_change_switches_an_auto_action_off_in_every_title(title: str, players: int) -> None:
    game = new_game(title, [(i + 1, f"p{i + 1}") for i in range(players)], seed=7)
    corp = next(iter(game.corporations))
    first = game.acting()[0]
    offers = query.choices(game, first, "bid") if "bid" in game.actions_for(first) else []
    company = str(offers[0]["company"]) if offers else next(iter(game.companies))
    owner, other = 1, 2
    pass_round = {"kind": "pass", "scope": "round", "phase": str(game.phase["name"]), "round": auto.round_key(game)}
    buy = {"kind": "buy", "corp": corp, "percent": 60, "price": None, "phase": str(game.phase["name"]),
           "round": auto.round_key(game)}
    bid = {"kind": "bid", "company": company, "ceiling": 10_000, "phase": str(game.phase["name"]),
           "round": auto.round_key(game)}
    nothing = {"type": "pass", "entity": other, "entity_type": "player"}
    for spec in (pass_round, buy, bid):
        assert auto.stale_reason(spec, game, owner, nothing, other) is None, spec
    # The phase moved past what was set.
    for spec in (pass_round, buy, bid):
        earlier = {**spec, "phase": "0"}
        assert auto.stale_reason(earlier, game, owner, nothing, other) == f"the phase changed to {game.phase['name']}"
    # The round it was set for ended.
    assert auto.stale_reason({**pass_round, "round": "stock:Stock Round 0"}, game, owner, nothing, other) == (
        "the round it was set for ended"
    )
    # Another player bought into, sold or set the par of the company concerned (the owner's own moves do not).
    moves = {
        "bought into": {"type": "buy_shares", "entity": other, "shares": [f"{corp}_1"], "percent": 10},
        "sold": {"type": "sell_shares", "entity": other, "shares": [f"{corp}_1"], "percent": 10},
        "set the par of": {"type": "par", "entity": other, "corporation": corp, "share_price": "100,0,6"},
    }
    for verb, action in moves.items():
        assert auto.stale_reason(buy, game, owner, action, other) == f"p2 {verb} {corp}"
        assert auto.stale_reason(buy, game, owner, {**action, "entity": owner}, owner) is None
    # The share price moved from the one it was set at.
    assert auto.stale_reason({**buy, "price": 1}, game, owner, nothing, other) is not None
    # A bid ceiling below the next bid (every title here opens with an auction, the owner first to bid).
    assert offers and first.id == owner
    low = auto.stale_reason({**bid, "ceiling": 0}, game, owner, nothing, other)
    assert low is not None and "over your ceiling" in low, low
