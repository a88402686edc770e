"""The outbox tries a ping Slack refused again later: delivered once when Slack takes it, given up after the last
try, never doubled."""

from __future__ import annotations

from bot.core.service import RETRY_DELAYS
from bot.slack.app import SlackBot
from tests.bot.conftest import FakeClock
from tests.bot.slack.conftest import Slack, start_game
from tests.bot.slack.fake_slack import FakeSlack

HOUR = 3600.0


def _tries(fake: FakeSlack, mark: int) -> list[str]:
    return [str(c.params["text"]) for c in fake.since(mark, "chat.postMessage") if "<@U2>" in str(c.params["text"])]


async def test_a_refused_reminder_is_sent_again_once_slack_takes_it(
    slack: Slack, fake: FakeSlack, bot: SlackBot, clock: FakeClock
) -> None:
    await start_game(slack)
    await slack.command("U1", "buy HB")  # bob's turn
    clock.advance(25 * HOUR)
    fake.fail["chat.postMessage"] = "not_in_channel"  # the bot was removed from the channel meanwhile
    mark = fake.mark()
    assert await bot.reminders.tick() == []  # refused: not delivered
    assert len(_tries(fake, mark)) == 1
    queued = await bot.service.storage.outbox_pending(1, "U2")
    assert [item.dedupe_key.split(":")[0] for item in queued if item.sent_at is None].count("retry") == 1

    del fake.fail["chat.postMessage"]  # the bot is back in the channel
    clock.advance(RETRY_DELAYS[0] - 5)
    assert await bot.reminders.tick() == []  # not yet due
    clock.advance(10)
    [again] = await bot.reminders.tick()
    assert again.user_id == "U2"
    tries = _tries(fake, mark)
    assert len(tries) == 2 and "Reminder" in tries[-1]
    for delay in RETRY_DELAYS[1:]:  # the later tries are not sent: the first one got through
        clock.advance(delay + 1)
        assert await bot.reminders.tick() == []
    assert len(_tries(fake, mark)) == 2


async def test_a_ping_refused_every_time_is_given_up_after_the_last_try(
    slack: Slack, fake: FakeSlack, bot: SlackBot, clock: FakeClock
) -> None:
    await start_game(slack)
    await slack.command("U1", "buy HB")
    clock.advance(25 * HOUR)
    fake.fail["chat.postMessage"] = "channel_not_found"
    mark = fake.mark()
    await bot.reminders.tick()
    for delay in RETRY_DELAYS:
        clock.advance(delay + 1)
        assert await bot.reminders.tick() == []
    clock.advance(RETRY_DELAYS[-1] + 1)
    assert await bot.reminders.tick() == []
    assert len(_tries(fake, mark)) == 1 + len(RETRY_DELAYS)  # the first try and each retry, then no more
    assert not [i for i in await bot.service.storage.outbox_pending(1, "U2") if i.dedupe_key.startswith("retry")]
