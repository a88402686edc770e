"""A 1882 game played through /18xx commands and button clicks, as Slack delivers them to the Bolt app."""

from __future__ import annotations

import pytest

from bot.slack.app import SlackBot
from tests.bot.slack.conftest import CHANNEL, Slack, start_game
from tests.bot.slack.fake_slack import FakeSlack


def _text(call_params: dict[str, object]) -> str:
    return str(call_params.get("text", ""))


async def test_four_players_through_the_auction_into_a_stock_round_buy(slack: Slack, fake: FakeSlack) -> None:
    response = await slack.command("U1", "new 1882 seed=7")
    assert response.body == ""  # an empty ack: the answer follows as a message
    created = fake.posts(CHANNEL)[-1]
    assert "alice created 1882 game #1" in _text(created.params)
    assert created.params["blocks"][0]["type"] == "section"
    for user in ("U2", "U3", "U4"):
        await slack.command(user, "join")
    assert "Seated: alice, bob, carol, dave" in _text(fake.posts(CHANNEL)[-1].params)

    await slack.command("U1", "start")
    started = fake.posts(CHANNEL)[-1]
    assert "Auction Round. Next: alice" in _text(started.params)
    actions = [b for b in started.params["blocks"] if b["type"] == "actions"]
    assert [e["text"]["text"] for e in actions[0]["elements"]] == ["Buy HB $20", "Pass"]
    assert all(e["action_id"].startswith("rh_btn_") for e in actions[0]["elements"])

    # alice types her move; bob becomes the actor and is the only one mentioned.
    mark = fake.mark()
    await slack.command("U1", "buy HB")
    [move] = fake.since(mark, "chat.postMessage")
    assert _text(move.params).startswith("<@U2> ")
    assert "alice buys HB for $20" in _text(move.params)
    assert "<@" not in _text(move.params).removeprefix("<@U2> ")  # nobody else is pinged
    assert not fake.since(mark, "chat.postEphemeral")
    assert "thread_ts" not in move.params  # a top-level message: commands never come from a thread

    # bob clicks his button: the click is his command.
    mark = fake.mark()
    await slack.click("U2", slack.button("Buy SC $50"))
    [move] = fake.since(mark, "chat.postMessage")
    assert "bob buys SC for $50" in _text(move.params) and _text(move.params).startswith("<@U3> ")
    [update] = fake.since(mark, "chat.update")  # the clicked message loses its buttons
    assert not [b for b in update.params["blocks"] if b["type"] == "actions"]
    assert "<@U2> chose *Buy SC $50*" in str(update.params["blocks"][-1])

    await slack.command("U3", "buy NWR")
    await slack.command("U4", "buy TB")
    await slack.command("U1", "buy CP")
    mark = fake.mark()
    await slack.command("U1", "par CPR 67")
    [par] = fake.since(mark, "chat.postMessage")
    assert "alice pars CPR at $67" in _text(par.params) and "Stock Round 1" in _text(par.params)
    assert _text(par.params).startswith("<@U2> ")

    mark = fake.mark()
    await slack.click("U2", slack.button("Buy 1 CPR"))
    [buy] = fake.since(mark, "chat.postMessage")
    assert "bob buys 10% of CPR for $67" in _text(buy.params) and _text(buy.params).startswith("<@U3> ")
    assert not fake.since(mark, "chat.postEphemeral")

    # Every answer went through the bot token, and no old-style upload was ever called.
    assert {c.authorization for c in fake.calls if c.method != "upload"} == {"Bearer xoxb-test"}
    assert not fake.of("files.upload")


async def test_a_click_from_someone_else_is_refused_to_them_only(slack: Slack, fake: FakeSlack) -> None:
    await start_game(slack)
    await slack.command("U1", "buy HB")
    button = slack.button("Buy SC $50")  # bob's button, visible to all
    mark = fake.mark()
    await slack.click("U4", button)
    assert not fake.since(mark, "chat.postMessage")
    assert not fake.since(mark, "chat.update")
    [refusal] = fake.since(mark, "chat.postEphemeral")
    assert refusal.params["user"] == "U4" and refusal.params["channel"] == CHANNEL
    assert "not your turn" in _text(refusal.params)

    await slack.click("U5", button)  # a spectator
    assert "not playing" in _text(fake.ephemerals("U5")[-1].params)

    mark = fake.mark()
    await slack.click("U2", button)  # the button still works for bob
    assert "bob buys SC" in _text(fake.since(mark, "chat.postMessage")[0].params)


async def test_errors_and_private_answers_are_ephemeral(slack: Slack, fake: FakeSlack) -> None:
    await start_game(slack)
    mark = fake.mark()
    await slack.command("U2", "pass")
    await slack.command("U1", "bid XX 100")
    await slack.command("U3", "help")
    await slack.command("U1", "prefs")
    assert not fake.since(mark, "chat.postMessage")
    wrong, bad, helped, prefs = fake.since(mark, "chat.postEphemeral")
    assert wrong.params["user"] == "U2" and "not your turn" in _text(wrong.params)
    assert bad.params["user"] == "U1" and "no private company XX" in _text(bad.params)
    assert helped.params["user"] == "U3" and "/18xx" in _text(helped.params)
    assert prefs.params["user"] == "U1" and "Turn pings" in _text(prefs.params)


async def test_an_empty_command_shows_help(slack: Slack, fake: FakeSlack) -> None:
    await slack.command("U1", "")
    [helped] = fake.ephemerals("U1")
    assert "new TITLE" in _text(helped.params)


async def test_consent_buttons_approve_an_undo(slack: Slack, fake: FakeSlack) -> None:
    await start_game(slack, ("U1", "U2"))
    await slack.command("U1", "buy HB")
    await slack.command("U2", "pass")
    mark = fake.mark()
    await slack.command("U1", "undo")  # takes back bob's pass too: bob must agree
    [request] = fake.since(mark, "chat.postMessage")
    assert _text(request.params).startswith("<@U2> ") and "Request 1" in _text(request.params)
    approve = slack.button("Approve", since=mark)
    assert slack.button("Decline", since=mark).element["style"] == "danger"

    mark = fake.mark()
    await slack.click("U1", approve)  # not alice's to approve
    assert "not waiting for you" in _text(fake.since(mark, "chat.postEphemeral")[0].params)
    await slack.click("U2", approve)
    [done] = fake.since(mark, "chat.postMessage")
    assert "bob approves request 1" in _text(done.params) and "Taken back" in _text(done.params)


async def test_approve_from_a_direct_message_acts_in_the_game_channel(slack: Slack, fake: FakeSlack) -> None:
    await start_game(slack, ("U1", "U2"))
    await slack.command("U2", "notify dm")
    await slack.command("U1", "buy HB")
    await slack.command("U2", "pass")
    mark = fake.mark()
    await slack.command("U1", "undo")
    request, direct = fake.since(mark, "chat.postMessage")
    assert request.params["channel"] == CHANNEL and "<@U2>" not in _text(request.params)
    assert direct.params["channel"] == "DU2" and "approve 1" in _text(direct.params)
    approve = slack.button("Approve", since=fake.calls.index(direct))
    assert approve.call is direct

    mark = fake.mark()
    await slack.click("U2", approve)
    [done] = fake.since(mark, "chat.postMessage")
    assert done.params["channel"] == CHANNEL and "bob approves request 1" in _text(done.params)
    [update] = fake.since(mark, "chat.update")
    assert update.params["channel"] == "DU2"  # the DM's buttons are retired


async def test_a_stale_button_of_an_older_game_is_refused(slack: Slack, fake: FakeSlack) -> None:
    await start_game(slack, ("U1", "U2"))
    button = slack.button("Buy HB $20")
    await slack.command("U1", "abandon")
    await slack.click("U2", slack.button("Approve"))
    await slack.command("U1", "new 1882 seed=3")
    mark = fake.mark()
    await slack.click("U1", button)
    [refusal] = fake.since(mark, "chat.postEphemeral")
    assert "game #1, which is no longer played there" in _text(refusal.params)
    assert not fake.since(mark, "chat.postMessage")


async def test_app_home_lists_games_and_turns(slack: Slack, fake: FakeSlack) -> None:
    await slack.open_home("U1", "Ev0")
    [empty] = fake.of("views.publish")
    assert empty.params["user_id"] == "U1"
    assert "not in any game" in str(empty.params["view"])

    await start_game(slack, ("U1", "U2"))
    await slack.open_home("U1", "Ev1")
    await slack.open_home("U2", "Ev2")
    alice, bob = fake.of("views.publish")[1:]
    assert alice.params["view"]["type"] == "home"
    assert "Your turn in 1 game" in str(alice.params["view"]) and "<#C1>" in str(alice.params["view"])
    assert "YOUR TURN" in str(alice.params["view"]) and "YOUR TURN" not in str(bob.params["view"])
    assert "waiting for alice" in str(bob.params["view"])


async def test_when_the_bot_is_not_in_the_channel_the_command_still_answers(
    slack: Slack, fake: FakeSlack, bot: SlackBot
) -> None:
    fake.fail["chat.postMessage"] = "not_in_channel"
    await slack.command("U1", "new 1882")
    [answer] = fake.responses
    assert answer["response_type"] == "in_channel" and "created 1882 game #1" in answer["text"]
    assert "/invite" in str(answer["blocks"])

    fake.fail["chat.postEphemeral"] = "channel_not_found"  # a private channel the bot cannot see
    await slack.command("U2", "help")
    assert fake.responses[-1]["response_type"] == "ephemeral" and "new TITLE" in fake.responses[-1]["text"]


async def test_a_bug_in_the_adapter_gets_an_apology_with_an_incident_id(
    slack: Slack, fake: FakeSlack, bot: SlackBot, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the adapter")

    bot.poster.reply = broken  # type: ignore[method-assign]
    await slack.command("U1", "new 1882")
    [apology] = fake.ephemerals("U1")
    assert "Sorry, something went wrong on our side (incident " in _text(apology.params)
    incident = _text(apology.params).split("incident ")[1].split(")")[0]
    assert f"incident {incident}" in caplog.text


async def test_app_home_is_refreshed_after_moves_for_the_seated_players(slack: Slack, fake: FakeSlack) -> None:
    await start_game(slack, ("U1", "U2"))
    mark = fake.mark()
    await slack.command("U1", "buy HB")  # now it is U2's turn
    published = {str(c.params["user_id"]): str(c.params["view"]) for c in fake.since(mark, "views.publish")}
    assert set(published) == {"U1", "U2"}
    assert "YOUR TURN" in published["U2"] and "YOUR TURN" not in published["U1"]
