"""Out-of-turn prompts (a private's power usable outside its owner's turn) and certificate-limit obligations."""

from __future__ import annotations

from typing import Any

from bot.core.auto_prompts import over_limit
from bot.core.replies import Notification, Reply
from engine import new_game
from engine.core.events import Outcome
from tests.bot.conftest import Table

PLAYERS = ("alice", "bob", "carol", "dave")


async def _start_1862(table: Table) -> None:
    assert (await table.say("alice", "new 1862 seed=7")).ok
    for user in PLAYERS[1:]:
        assert (await table.say(user, "join")).ok
    assert (await table.say("alice", "start")).ok


def _prompts(reply: Reply) -> list[Notification]:
    return [n for n in reply.notify if n.kind == "prompt"]


async def test_the_erie_owner_is_prompted_once_with_buttons_and_may_use_it_out_of_turn(table: Table) -> None:
    await _start_1862(table)
    assert (await table.say("alice", "bid ERIE 45")).ok
    won = await table.say("bob", "buy BOM")  # BOM sold: alice's bid wins ERIE; it is carol's turn
    assert "alice buys ERIE" in won.text, won.text
    (prompt,) = _prompts(won)
    assert prompt.user_id == "alice" and prompt.delivery == "dm" and prompt.to_dm
    assert "ERIE" in prompt.text and "outside your turn" in prompt.text, prompt.text
    use = [b for b in prompt.buttons if b.label.startswith("Use:")]
    assert use and "erie lay E28" in use[0].command, prompt.buttons
    clicked = await table.service.handle("test", "general", "alice", "alice", use[0].command, clicked=True)
    assert clicked[0].ok and "Erie tile" in clicked[0].text, clicked[0].text
    assert "Next: carol" in clicked[0].text  # used out of turn: it is still carol's turn
    later = await table.say("carol", "pass")
    assert _prompts(later) == []  # once per window (and the power is used now)


async def test_the_prompt_is_not_repeated_after_every_move(table: Table) -> None:
    await _start_1862(table)
    assert (await table.say("alice", "bid ERIE 45")).ok
    assert len(_prompts(await table.say("bob", "buy BOM"))) == 1
    for user in ("carol", "dave", "alice", "bob"):
        assert _prompts(await table.say(user, "pass")) == [], user


async def test_going_over_the_certificate_limit_is_said_in_the_reply_and_each_turn_ping(table: Table) -> None:
    await _start_1862(table)
    assert (await table.say("alice", "bid ERIE 45")).ok
    assert (await table.say("bob", "buy BOM")).ok  # bob buys BOM, alice wins ERIE: one certificate each
    live = table.service._cache.get(1)
    assert live is not None
    played = live.game.process

    def lowering(action: dict[str, Any]) -> Outcome:
        outcome = played(action)
        live.game.cert_limit = 0  # a stand-in for a limit that falls during a move (1862: a company closes)
        return outcome

    live.game.process = lowering
    moved = await table.say("carol", "pass")
    assert "alice holds 1 certificates, over the limit of 0: alice must sell the excess" in moved.text, moved.text
    assert "bob holds 1 certificates, over the limit of 0" in moved.text
    turn = await table.say("dave", "pass")  # alice's turn: her ping says it too
    (note,) = [n for n in turn.notify if n.kind == "turn" and n.user_id == "alice"]
    assert "alice holds 1 certificates, over the limit of 0" in note.text, note.text
    assert "alice holds" not in turn.text  # said once in the channel, when it arose


def test_over_limit_names_each_player_over_it_and_what_they_must_do() -> None:
    game = new_game("1882", [(1, "a"), (2, "b")], seed=7)
    game.process({"type": "bid", "entity": 1, "entity_type": "player", "company": "HB", "price": 20})
    assert over_limit(game) == {}
    game.cert_limit = 0
    assert over_limit(game) == {
        1: "a holds 1 certificates, over the limit of 0: a must sell the excess in their next stock round turn."
    }
