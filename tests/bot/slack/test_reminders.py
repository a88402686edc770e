"""Turn pings follow each player's preferences; reminders come when the injected clock says so, once, and
survive a restart of the bot."""

from __future__ import annotations

from pathlib import Path

from bot.slack.app import SlackBot
from tests.bot.conftest import FakeClock
from tests.bot.slack.conftest import CHANNEL, Slack, open_bot, start_game
from tests.bot.slack.fake_slack import FakeSlack

HOUR = 3600.0


async def test_a_reminder_comes_when_the_clock_reaches_it_and_only_once(
    slack: Slack, fake: FakeSlack, bot: SlackBot, clock: FakeClock
) -> None:
    await start_game(slack)
    await slack.command("U1", "buy HB")  # bob's turn starts now
    clock.advance(23 * HOUR)
    mark = fake.mark()
    assert await bot.reminders.tick() == []
    assert not fake.since(mark)

    clock.advance(2 * HOUR)
    [note] = await bot.reminders.tick()
    assert note.user_id == "U2" and note.kind == "reminder"
    [ping] = fake.since(mark, "chat.postMessage")
    assert ping.params["channel"] == CHANNEL
    text = str(ping.params["text"])
    assert text.startswith("<@U2> Reminder: it is your turn in 1882 game #1")
    assert text.count("<@") == 1  # only bob is pinged
    assert "(since <!date^" in text  # in the reader's own time zone
    assert await bot.reminders.tick() == []  # handed out once

    await slack.command("U2", "buy SC")  # bob acted: his reminders stop, carol's start
    clock.advance(30 * HOUR)
    assert [n.user_id for n in await bot.reminders.tick()] == ["U3"]


async def test_direct_message_preference(slack: Slack, fake: FakeSlack, bot: SlackBot, clock: FakeClock) -> None:
    await start_game(slack)
    await slack.command("U2", "notify dm")
    assert "direct message" in str(fake.ephemerals("U2")[-1].params["text"])
    mark = fake.mark()
    await slack.command("U1", "buy HB")
    [opened] = fake.since(mark, "conversations.open")
    assert opened.params["users"] == "U2"
    move, direct = fake.since(mark, "chat.postMessage")
    assert move.params["channel"] == CHANNEL and "<@U2>" not in str(move.params["text"])  # no double ping
    assert direct.params["channel"] == "DU2" and "Your turn" in str(direct.params["text"])
    assert "<#C1>" in str(direct.params["text"])  # a link back to the game

    clock.advance(25 * HOUR)
    mark = fake.mark()
    await bot.reminders.tick()
    [reminder] = fake.since(mark, "chat.postMessage")
    assert reminder.params["channel"] == "DU2" and "Reminder" in str(reminder.params["text"])
    assert not fake.since(mark, "conversations.open")  # the DM channel is remembered


async def test_both_and_away(slack: Slack, fake: FakeSlack) -> None:
    await start_game(slack)
    await slack.command("U2", "notify both")
    await slack.command("U3", "away on")
    mark = fake.mark()
    await slack.command("U1", "buy HB")
    move, direct = fake.since(mark, "chat.postMessage")
    assert str(move.params["text"]).startswith("<@U2> ") and direct.params["channel"] == "DU2"
    mark = fake.mark()
    await slack.command("U2", "buy SC")  # carol is away: no mention, no DM
    [move] = fake.since(mark, "chat.postMessage")
    assert "<@" not in str(move.params["text"]) and "Next: carol" in str(move.params["text"])


async def test_pending_reminders_survive_a_restart(tmp_path: Path, fake: FakeSlack, clock: FakeClock) -> None:
    db = tmp_path / "bot.db"
    bot, service, handled = await open_bot(db, fake, clock)
    try:
        slack = Slack(bot, fake)
        await start_game(slack, ("U1", "U2"))
        await slack.command("U1", "buy HB")
    finally:
        await handled.close()
        await service.close()

    clock.advance(25 * HOUR)  # the bot was down meanwhile
    bot, service, handled = await open_bot(db, fake, clock)
    try:
        mark = fake.mark()
        [note] = await bot.reminders.tick()
        assert note.user_id == "U2"
        [ping] = fake.since(mark, "chat.postMessage")
        assert str(ping.params["text"]).startswith("<@U2> Reminder")
        assert await bot.reminders.tick() == []
    finally:
        await handled.close()
        await service.close()


async def test_a_failed_delivery_does_not_stop_the_round(
    slack: Slack, fake: FakeSlack, bot: SlackBot, clock: FakeClock
) -> None:
    await start_game(slack)
    await slack.command("U1", "buy HB")
    fake.fail["chat.postMessage"] = "ratelimited"
    clock.advance(25 * HOUR)
    assert await bot.reminders.tick() == []  # logged, not raised
