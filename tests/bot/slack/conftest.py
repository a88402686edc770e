"""Fixtures for the Slack adapter: a fake Web API on loopback, the Bolt app on a temporary database, and a
driver that sends it signed slash commands, button clicks and events as Slack would."""

from __future__ import annotations

import ipaddress
import itertools
import json
import socket
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from aiohttp.test_utils import TestServer
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web.async_client import AsyncWebClient

from bot.config import Settings
from bot.core.service import GameService
from bot.slack.app import SlackBot
from bot.slack.redelivery import HandledRequests
from bot.slack.settings import SlackSettings
from bot.storage import Storage
from tests.bot.conftest import FakeClock
from tests.bot.slack.fake_slack import Call, FakeSlack

SECRET = "test-secret"
NAMES = {"U1": "alice", "U2": "bob", "U3": "carol", "U4": "dave", "U5": "eve"}
CHANNEL = "C1"


def _refuse_remote(address: Any) -> None:
    if not isinstance(address, tuple):
        return  # AF_UNIX paths
    host = str(address[0]).split("%")[0]
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        raise ConnectionRefusedError(f"tests may not connect to {address!r}: only loopback is allowed")


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every socket connection must stay on this machine: no test may reach Slack."""
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex

    def guarded(self: socket.socket, address: Any) -> None:
        _refuse_remote(address)
        connect(self, address)

    def guarded_ex(self: socket.socket, address: Any) -> int:
        _refuse_remote(address)
        return connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_ex)
    yield


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    slack = FakeSlack()
    server = TestServer(slack.app(), host="127.0.0.1", port=0)
    await server.start_server()
    slack.url = str(server.make_url("")).rstrip("/")
    try:
        yield slack
    finally:
        await server.close()


def signed_headers(body: str, *, timestamp: int | None = None, secret: str = SECRET, **extra: str) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)  # Bolt checks it against the real time
    signature = SignatureVerifier(secret).generate_signature(timestamp=ts, body=body)
    assert signature is not None
    return {"x-slack-request-timestamp": ts, "x-slack-signature": signature, **extra}


@dataclass
class Button:
    """A button as posted: the message it is in, and its element."""

    call: Call
    element: dict[str, Any]

    @property
    def label(self) -> str:
        return str(self.element["text"]["text"])


class Slack:
    """Talks to the Bolt app the way Slack does (signed HTTP bodies through ``async_dispatch``)."""

    def __init__(self, bot: SlackBot, fake: FakeSlack) -> None:
        self.bot = bot
        self.fake = fake
        self._n = itertools.count(1)

    def trigger(self) -> str:
        return f"{next(self._n)}.1.trigger"

    async def dispatch(self, body: str, headers: dict[str, str]) -> BoltResponse:
        return await self.bot.app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))

    def command_body(self, user: str, text: str, channel: str = CHANNEL, *, trigger: str | None = None) -> str:
        return urlencode(
            {
                "token": "legacy",
                "team_id": "T1",
                "team_domain": "test",
                "channel_id": channel,
                "channel_name": "games",
                "user_id": user,
                "user_name": NAMES.get(user, user.lower()),
                "command": "/18xx",
                "text": text,
                "api_app_id": "A1",
                "response_url": f"{self.fake.url}/respond/{next(self._n)}",
                "trigger_id": trigger or self.trigger(),
            }
        )

    async def command(
        self, user: str, text: str, channel: str = CHANNEL, *, trigger: str | None = None, **headers: str
    ) -> BoltResponse:
        body = self.command_body(user, text, channel, trigger=trigger)
        response = await self.dispatch(body, signed_headers(body, **headers))
        assert response.status == 200, (response.status, response.body)
        return response

    def click_body(self, user: str, button: Button, *, trigger: str | None = None, thread_ts: str | None = None) -> str:
        posted = button.call
        channel = str(posted.params["channel"])
        ts = str(posted.result.get("ts") or posted.result.get("message_ts"))
        ephemeral = posted.method == "chat.postEphemeral"
        element = button.element
        payload = {
            "type": "block_actions",
            "user": {"id": user, "username": NAMES.get(user, user), "name": NAMES.get(user, user), "team_id": "T1"},
            "api_app_id": "A1",
            "token": "legacy",
            "container": {"type": "message", "message_ts": ts, "channel_id": channel, "is_ephemeral": ephemeral},
            "trigger_id": trigger or self.trigger(),
            "team": {"id": "T1", "domain": "test"},
            "channel": {"id": channel, "name": "games"},
            "message": {
                "type": "message",
                "ts": ts,
                "text": posted.params.get("text", ""),
                "blocks": posted.params.get("blocks"),
                "bot_id": "B1",
            },
            "response_url": f"{self.fake.url}/respond/{next(self._n)}",
            "actions": [  # the clicked button, as Slack echoes it
                {
                    "type": "button",
                    "action_id": element["action_id"],
                    "block_id": "rh_actions",
                    "text": element["text"],
                    "value": element["value"],
                    "action_ts": "1700000000.5",
                }
            ],
        }
        if thread_ts is not None:  # the message sits in a thread
            payload["message"]["thread_ts"] = thread_ts  # type: ignore[index]
            payload["container"]["thread_ts"] = thread_ts  # type: ignore[index]
        return "payload=" + quote(json.dumps(payload))

    async def click(
        self, user: str, button: Button, *, trigger: str | None = None, thread_ts: str | None = None, **headers: str
    ) -> BoltResponse:
        body = self.click_body(user, button, trigger=trigger, thread_ts=thread_ts)
        response = await self.dispatch(body, signed_headers(body, **headers))
        assert response.status == 200, (response.status, response.body)
        return response

    def home_body(self, user: str, event_id: str = "Ev1") -> str:
        return json.dumps(
            {
                "token": "legacy",
                "team_id": "T1",
                "api_app_id": "A1",
                "type": "event_callback",
                "event_id": event_id,
                "event_time": 1_700_000_000,
                "event": {"type": "app_home_opened", "user": user, "channel": "D" + user, "tab": "home"},
            }
        )

    async def open_home(self, user: str, event_id: str = "Ev1", **headers: str) -> BoltResponse:
        body = self.home_body(user, event_id)
        hdrs = {"content-type": "application/json", **signed_headers(body, **headers)}
        response = await self.dispatch(body, hdrs)
        assert response.status == 200, (response.status, response.body)
        return response

    def button(self, label: str, *, since: int = 0) -> Button:
        """The newest posted button labelled ``label`` (after call number ``since``)."""
        for call in reversed(self.fake.calls[since:]):
            if call.method not in ("chat.postMessage", "chat.postEphemeral"):
                continue
            for block in call.params.get("blocks") or []:
                for element in block.get("elements", []) if block.get("type") == "actions" else []:
                    if element["text"]["text"] == label:
                        return Button(call, element)
        raise AssertionError(f"no button {label!r} was posted")


async def open_bot(
    db: Path, fake: FakeSlack, clock: FakeClock, *, images: bool = False
) -> tuple[SlackBot, GameService, HandledRequests]:
    storage = await Storage.open(db, clock=clock)
    service = GameService(storage, Settings(images=images, snapshot_every=25), clock=clock)
    handled = HandledRequests(storage, clock=clock)
    client = AsyncWebClient(token="xoxb-test", base_url=f"{fake.url}/api/")
    bot = SlackBot(
        service, client, handled, SlackSettings(signing_secret=SECRET), clock=clock, process_before_response=True
    )
    return bot, service, handled


@pytest.fixture
async def bot(tmp_path: Path, fake: FakeSlack, clock: FakeClock) -> AsyncIterator[SlackBot]:
    bot, service, handled = await open_bot(tmp_path / "bot.db", fake, clock)
    try:
        yield bot
    finally:
        await handled.close()
        await service.close()


@pytest.fixture
def slack(bot: SlackBot, fake: FakeSlack) -> Slack:
    return Slack(bot, fake)


async def start_game(slack: Slack, players: tuple[str, ...] = ("U1", "U2", "U3", "U4"), seed: int = 7) -> None:
    """A started 1882 game in C1 with ``players`` seated in that order."""
    await slack.command(players[0], f"new 1882 seed={seed}")
    for user in players[1:]:
        await slack.command(user, "join")
    mark = slack.fake.mark()
    await slack.command(players[0], "start")
    assert "starts" in slack.fake.since(mark, "chat.postMessage")[0].params["text"]
