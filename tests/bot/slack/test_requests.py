"""Request checks: Bolt's signature verification stays on, and a request Slack delivers twice applies once."""

from __future__ import annotations

import time
from pathlib import Path

from bot.slack.app import SlackBot
from bot.slack.redelivery import HandledRequests, request_key
from tests.bot.conftest import FakeClock
from tests.bot.slack.conftest import Slack, signed_headers, start_game
from tests.bot.slack.fake_slack import FakeSlack


async def _stored(bot: SlackBot, game_id: int = 1) -> int:
    return await bot.service.storage.last_seq(game_id)


async def test_a_bad_signature_is_rejected_before_anything_happens(slack: Slack, fake: FakeSlack) -> None:
    body = slack.command_body("U1", "new 1882")
    forged = signed_headers(body, secret="not-the-secret")
    response = await slack.dispatch(body, forged)
    assert response.status == 401
    tampered = signed_headers(body)
    response = await slack.dispatch(body.replace("new+1882", "new+1882+seed%3D1"), tampered)
    assert response.status == 401
    assert not fake.calls  # not even auth.test: no listener ran
    assert await slack.bot.service.storage.find_game("slack", "C1") is None


async def test_a_stale_timestamp_is_rejected(slack: Slack, fake: FakeSlack) -> None:
    body = slack.command_body("U1", "new 1882")
    response = await slack.dispatch(body, signed_headers(body, timestamp=int(time.time()) - 6 * 60))
    assert response.status == 401
    assert await slack.bot.service.storage.find_game("slack", "C1") is None
    response = await slack.dispatch(body, signed_headers(body))  # the same body, signed now, is fine
    assert response.status == 200
    assert await slack.bot.service.storage.find_game("slack", "C1") is not None


async def test_a_retried_command_applies_once(slack: Slack, fake: FakeSlack, bot: SlackBot) -> None:
    await start_game(slack)
    body = slack.command_body("U1", "buy HB", trigger="77.1.same")
    mark = fake.mark()
    assert (await slack.dispatch(body, signed_headers(body))).status == 200
    retry = signed_headers(body, **{"x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout"})
    again = await slack.dispatch(body, retry)
    assert again.status == 200 and again.body == ""
    assert len(fake.since(mark, "chat.postMessage")) == 1
    assert not fake.since(mark, "chat.postEphemeral")  # a second apply would have said "not your turn"
    # The same trigger can never apply twice, even in another body (the retry guard keys on it).
    other = slack.command_body("U2", "pass", trigger="77.1.same")
    assert (await slack.dispatch(other, signed_headers(other))).status == 200
    assert await _stored(bot) == 1
    assert len([c for c in fake.since(mark) if c.method != "views.publish"]) == 1  # App Homes are refreshed too


async def test_a_retried_click_applies_once(slack: Slack, fake: FakeSlack, bot: SlackBot) -> None:
    await start_game(slack)
    await slack.command("U1", "buy HB")
    button = slack.button("Pass")
    mark = fake.mark()
    await slack.click("U2", button, trigger="9.9.click")
    await slack.click("U2", button, trigger="9.9.click", **{"x-slack-retry-num": "2"})
    assert len(fake.since(mark, "chat.postMessage")) == 1
    assert await _stored(bot) == 2


async def test_a_retried_event_publishes_once(slack: Slack, fake: FakeSlack) -> None:
    await slack.open_home("U1", "EvSame")
    await slack.open_home("U1", "EvSame", **{"x-slack-retry-num": "1"})
    assert len(fake.of("views.publish")) == 1


async def test_handled_requests_survive_a_restart_and_are_forgotten_later(tmp_path: Path, clock: FakeClock) -> None:
    path = str(tmp_path / "requests.db")
    handled = await HandledRequests.open(path, keep_seconds=3600, clock=clock)
    assert await handled.claim("trigger:1")
    assert not await handled.claim("trigger:1")
    await handled.close()
    handled = await HandledRequests.open(path, keep_seconds=3600, clock=clock)
    try:
        assert not await handled.claim("trigger:1")  # a retry after a restart still does nothing
        clock.advance(7200)
        for n in range(1, 200):  # the sweep runs every PRUNE_EVERY claims
            await handled.claim(f"trigger:new{n}")
        assert await handled.claim("trigger:1")  # long gone: the table stays bounded
    finally:
        await handled.close()


def test_request_keys() -> None:
    assert request_key({"trigger_id": "1.2"}, "x") == request_key({"trigger_id": "1.2"}, "y")
    assert request_key({"payload": '{"trigger_id": "5.6"}'}, "") == "trigger:5.6"
    assert request_key({"event_id": "Ev9"}, "a") == "event:Ev9"
    assert request_key({}, "a=1") != request_key({}, "a=2")
    assert request_key({"a": 1}, "") != request_key({"a": 2}, "")  # Socket Mode bodies have no raw text
