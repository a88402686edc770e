"""HTTP mode as in production: aiohttp ``web_app()`` behind the guard, ``process_before_response=False``, 429s.

Malformed requests are answered 401 (unsigned) or 400 (signed but unreadable) before Bolt parses them, so
nothing reaches the log as a traceback and no listener runs.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from aiohttp.test_utils import TestClient, TestServer
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient

from bot.config import Settings
from bot.core.service import GameService
from bot.slack.app import SlackBot
from bot.slack.redelivery import HandledRequests
from bot.slack.settings import SlackSettings
from bot.storage import Storage
from tests.bot.conftest import FakeClock
from tests.bot.slack.conftest import CHANNEL, SECRET, Slack, signed_headers
from tests.bot.slack.fake_slack import FakeSlack

FORM = "application/x-www-form-urlencoded"
DEEP = "[" * 50_000 + "]" * 50_000

MALFORMED_UNSIGNED: list[tuple[str, bytes, dict[str, str]]] = [
    ("non-numeric timestamp", b"command=/18xx", {"x-slack-request-timestamp": "soon", "x-slack-signature": "v0=0"}),
    ("non-UTF-8 body", b"payload=\xff\xfe", {"content-type": FORM}),
    ("bad payload=", b"payload=%7B%22type%22", {"content-type": FORM}),
    ("invalid JSON", b'{"type": ', {"content-type": "application/json"}),
    ("deeply nested JSON", DEEP.encode(), {"content-type": "application/json"}),
    ("deeply nested payload", b"payload=" + quote(DEEP).encode(), {"content-type": FORM}),
]


def _signed(body: bytes, content_type: str) -> dict[str, str]:
    stamp = str(int(time.time()))
    digest = hmac.new(SECRET.encode(), b"v0:" + stamp.encode() + b":" + body, hashlib.sha256).hexdigest()
    return {"content-type": content_type, "x-slack-request-timestamp": stamp, "x-slack-signature": "v0=" + digest}


@pytest.mark.parametrize(("what", "body", "headers"), MALFORMED_UNSIGNED, ids=[m[0] for m in MALFORMED_UNSIGNED])
async def test_malformed_unsigned_requests_get_401_without_a_traceback(
    bot: SlackBot, fake: FakeSlack, caplog: pytest.LogCaptureFixture, what: str, body: bytes, headers: dict[str, str]
) -> None:
    async with TestClient(TestServer(bot.web_app(path="/slack/events"))) as client:
        with caplog.at_level(logging.WARNING):
            response = await client.post("/slack/events", data=body, headers=headers)
        assert response.status == 401, (what, response.status, await response.text())
    assert not [r for r in caplog.records if r.exc_info], what
    assert not fake.calls


@pytest.mark.parametrize(
    ("what", "body", "content_type", "reason"),
    [
        ("non-UTF-8", b"payload=\xff\xfe", FORM, "not UTF-8"),
        ("bad payload=", b"payload=%7B%22type%22", FORM, "not valid JSON"),
        ("payload a list", b"payload=%5B1%5D", FORM, "not a JSON object"),
        ("invalid JSON", b'{"type": ', "application/json", "not valid JSON"),
        ("deep JSON", b'{"a": ' + b"[" * 200 + b"]" * 200 + b"}", "application/json", "nested too deeply"),
    ],
)
async def test_signed_but_unreadable_requests_get_400(
    bot: SlackBot,
    fake: FakeSlack,
    caplog: pytest.LogCaptureFixture,
    what: str,
    body: bytes,
    content_type: str,
    reason: str,
) -> None:
    async with TestClient(TestServer(bot.web_app(path="/slack/events"))) as client:
        response = await client.post("/slack/events", data=body, headers=_signed(body, content_type))
        assert response.status == 400, what
        assert reason in await response.text()
    assert not [r for r in caplog.records if r.exc_info]
    assert not fake.calls


async def test_production_http_mode_acks_first_and_waits_out_a_429(
    tmp_path: Path, fake: FakeSlack, clock: FakeClock
) -> None:
    """As ``bot/slack/run.py`` builds it: process_before_response=False and the rate-limit retry handler."""
    storage = await Storage.open(tmp_path / "bot.db", clock=clock)
    service = GameService(storage, Settings(images=False), clock=clock)
    handled = await HandledRequests.open(str(tmp_path / "requests.db"), clock=clock)
    client = AsyncWebClient(token="xoxb-test", base_url=f"{fake.url}/api/")
    client.retry_handlers.append(AsyncRateLimitErrorRetryHandler(max_retry_count=2))
    real = SlackBot(service, client, handled, SlackSettings(signing_secret=SECRET), clock=clock)
    try:
        async with TestClient(TestServer(real.web_app(path="/slack/events"))) as http:
            slack = Slack(real, fake)
            fake.limited["chat.postMessage"] = 1
            body = slack.command_body("U1", "new 1882 seed=3")
            headers = {"content-type": FORM, **signed_headers(body)}
            response = await http.post("/slack/events", data=body, headers=headers)
            assert response.status == 200
            await asyncio.wait_for(fake.posted.wait(), timeout=10)  # after the Retry-After second
        posts = fake.of("chat.postMessage")
        assert [c.result.get("ok") for c in posts] == [False, True]  # the 429, then the retry
        assert "created 1882 game #1" in str(posts[-1].params["text"])
        assert posts[-1].params["channel"] == CHANNEL
        assert (await service.storage.find_game("slack", CHANNEL)) is not None
    finally:
        await handled.close()
        await service.close()
