"""A Slack button counts once, at the step it was made for: a double or late click is refused."""

from __future__ import annotations

import json

from bot.slack.app import SlackBot
from tests.bot.slack.conftest import Slack, start_game
from tests.bot.slack.fake_slack import FakeSlack


async def test_a_button_clicked_twice_or_late_applies_once(slack: Slack, fake: FakeSlack, bot: SlackBot) -> None:
    await start_game(slack, ("U1", "U2"))
    button = slack.button("Pass")  # U1's, at action 0
    assert json.loads(button.element["value"])["c"] == "@0 pass"
    await slack.click("U1", button)
    mark = fake.mark()
    await slack.click("U1", button, trigger="late.click")  # a second click, with its own trigger id
    assert await bot.service.storage.last_seq(1) == 1
    [refusal] = fake.since(mark, "chat.postEphemeral")
    assert "earlier step" in str(refusal.params["text"])
