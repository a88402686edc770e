"""Slack refuses a post after a stored move: the sender is told, and the next ping is queued and retried."""

from __future__ import annotations

from bot.core.service import RETRY_DELAYS
from bot.slack.app import SlackBot
from tests.bot.conftest import FakeClock
from tests.bot.slack.conftest import CHANNEL, Slack, start_game
from tests.bot.slack.fake_slack import FakeSlack


async def test_a_refused_post_after_a_stored_move_is_explained_and_the_ping_retried(
    bot: SlackBot, slack: Slack, fake: FakeSlack, clock: FakeClock
) -> None:
    await start_game(slack, ("U1", "U2"))
    fake.fail["chat.postMessage"] = "restricted_action_read_only_channel"  # the channel became read-only
    mark = fake.mark()
    await slack.command("U1", "buy HB")
    assert await bot.service.storage.last_seq(1) == 1
    told = " ".join(str(c.params.get("text")) for c in fake.since(mark, "chat.postEphemeral"))
    assert "Your move was stored (action 1)" in told and "restricted_action_read_only_channel" in told
    assert "something went wrong" not in told
    pending = await bot.service.storage.outbox_pending(1, "U2")
    assert any(item.dedupe_key.startswith("retry:1:U2:") for item in pending)
    del fake.fail["chat.postMessage"]
    clock.advance(RETRY_DELAYS[0] + 1)
    mark = fake.mark()
    assert [n.user_id for n in await bot.reminders.tick()] == ["U2"]
    assert any("<@U2>" in str(c.params.get("text")) for c in fake.since(mark, "chat.postMessage"))
    assert any(c.params.get("channel") == CHANNEL for c in fake.since(mark, "chat.postMessage"))
