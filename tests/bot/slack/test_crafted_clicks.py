"""Signed clicks whose button value we never wrote: refused with a short private answer, nothing else happens."""

from __future__ import annotations

import json
import logging
from urllib.parse import quote

import pytest

from tests.bot.slack.conftest import CHANNEL, Slack, signed_headers, start_game
from tests.bot.slack.fake_slack import FakeSlack

DEEP = "[" * 10_000 + "]" * 10_000


def _click(value: str) -> str:
    payload = {
        "type": "block_actions",
        "user": {"id": "U1", "username": "alice", "name": "alice", "team_id": "T1"},
        "api_app_id": "A1",
        "token": "legacy",
        "container": {"type": "message", "message_ts": "1.1", "channel_id": CHANNEL, "is_ephemeral": False},
        "trigger_id": "5.5.crafted",
        "team": {"id": "T1", "domain": "test"},
        "channel": {"id": CHANNEL, "name": "games"},
        "message": {"type": "message", "ts": "1.1", "text": "x", "bot_id": "B1"},
        "response_url": "http://127.0.0.1:9/respond/1",
        "actions": [
            {
                "type": "button",
                "action_id": "rh_btn_0",
                "block_id": "rh_actions",
                "text": {"type": "plain_text", "text": "Pass"},
                "value": value,
                "action_ts": "1700000000.5",
            }
        ],
    }
    return "payload=" + quote(json.dumps(payload))


@pytest.mark.parametrize(
    "value",
    [
        DEEP,  # nested 10,000 levels deep
        '{"g": ' + "[" * 900 + "]" * 900 + ', "c": "pass"}',  # deep, yet short enough to be a value
        '{"g": 99999999999999999999999999, "c": "@0 pass"}',  # a game number beyond 64 bits
        '{"g": "1", "c": "@0 pass"}',
    ],
    ids=["10000 deep", "900 deep", "beyond 64 bits", "game as text"],
)
async def test_a_crafted_button_value_is_refused_without_an_incident(
    slack: Slack, fake: FakeSlack, caplog: pytest.LogCaptureFixture, value: str
) -> None:
    await start_game(slack, ("U1", "U2"))
    body = _click(value)
    mark = fake.mark()
    with caplog.at_level(logging.WARNING):
        response = await slack.dispatch(body, signed_headers(body))
    assert response.status == 200
    [refusal] = fake.since(mark, "chat.postEphemeral")
    assert "not one of mine" in str(refusal.params["text"])
    assert not fake.since(mark, "chat.postMessage")
    assert await slack.bot.service.storage.last_seq(1) == 0
    assert not [r for r in caplog.records if r.exc_info or "incident" in r.getMessage()]
