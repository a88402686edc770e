"""HTTP mode and Socket Mode wiring, start-up checks, the manifest, and the loopback guard of these tests."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import cast

import pytest
from aiohttp.test_utils import TestClient, TestServer
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

import bot.slack
from bot.__main__ import choose_mode
from bot.__main__ import main as entry
from bot.config import ROOT
from bot.core.replies import Reply
from bot.core.service import GameService
from bot.slack.app import SlackBot
from bot.slack.redelivery import HandledRequests
from bot.slack.settings import SlackSettings, load_slack_settings
from tests.bot.slack.conftest import CHANNEL, SECRET, Slack, signed_headers
from tests.bot.slack.fake_slack import FakeSlack

MANIFEST = ROOT / "config" / "slack-manifest.json"


async def test_http_mode_serves_signed_requests_and_refuses_unsigned_ones(
    bot: SlackBot, slack: Slack, fake: FakeSlack
) -> None:
    async with TestClient(TestServer(bot.app.web_app(path="/slack/events"))) as client:
        body = slack.command_body("U1", "new 1882")
        headers = {"content-type": "application/x-www-form-urlencoded", **signed_headers(body)}
        response = await client.post("/slack/events", data=body, headers=headers)
        assert response.status == 200
        assert "created 1882 game #1" in str(fake.posts(CHANNEL)[-1].params["text"])

        again = slack.command_body("U2", "join")
        unsigned = await client.post(
            "/slack/events", data=again, headers={"content-type": "application/x-www-form-urlencoded"}
        )
        assert unsigned.status == 401
        assert len(fake.posts()) == 1


async def test_socket_mode_handler_is_built_on_the_same_app(bot: SlackBot) -> None:
    handler = AsyncSocketModeHandler(bot.app, "xapp-test")  # constructed only: it would dial Slack
    try:
        assert handler.app is bot.app
        assert handler.client.app_token == "xapp-test"
        assert handler.client.socket_mode_request_listeners  # Bolt's dispatch is attached
    finally:
        await handler.close_async()


async def test_a_command_is_acknowledged_before_its_work_is_done(tmp_path: Path, fake: FakeSlack) -> None:
    gate = asyncio.Event()

    class SlowService:
        """Holds every command until the test opens the gate (drawing pictures can take seconds)."""

        async def handle(self, *args: object, **kwargs: object) -> list[Reply]:
            await gate.wait()
            return [Reply("done")]

    handled = await HandledRequests.open(":memory:")
    client = AsyncWebClient(token="xoxb-test", base_url=f"{fake.url}/api/")
    settings = SlackSettings(signing_secret=SECRET)
    real = SlackBot(cast(GameService, SlowService()), client, handled, settings, process_before_response=False)
    try:
        body = Slack(real, fake).command_body("U1", "status")
        response = await real.app.async_dispatch(AsyncBoltRequest(body=body, headers=signed_headers(body)))
        assert response.status == 200  # answered while the command still waits
        assert not fake.posts()
        gate.set()
        await asyncio.wait_for(fake.posted.wait(), timeout=10)
        assert fake.posts()[0].params["text"] == "done"
    finally:
        await handled.close()


def test_main_refuses_to_start_without_tokens(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "ROUNDHOUSE_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    assert entry(["slack", "--db", str(tmp_path / "x.db")]) == 2  # python -m bot slack
    assert "SLACK_BOT_TOKEN" in capsys.readouterr().err
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-1")
    assert bot.slack.main(["--db", str(tmp_path / "x.db"), "--mode", "socket"]) == 2
    assert "SLACK_APP_TOKEN" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()  # nothing was opened


def test_mode_selection() -> None:
    assert choose_mode([], {"SLACK_BOT_TOKEN": "xoxb-1"}) == ("slack", [])
    assert choose_mode(["slack", "--port", "1"], {}) == ("slack", ["--port", "1"])
    both = SlackSettings(bot_token="xoxb-1", app_token="xapp-1", signing_secret="s")
    assert both.resolved_mode() == "socket"
    assert SlackSettings(bot_token="xoxb-1", signing_secret="s").resolved_mode() == "http"
    with pytest.raises(ValueError, match="SLACK_SIGNING_SECRET"):
        SlackSettings(bot_token="xoxb-1", mode="http", app_token="xapp-1").resolved_mode()


def test_settings_come_from_the_toml_and_the_environment(tmp_path: Path) -> None:
    extra = tmp_path / "mine.toml"
    extra.write_text('[slack]\nport = 8123\nmode = "http"\n', "utf-8")
    settings = load_slack_settings(extra, {"SLACK_BOT_TOKEN": " xoxb-9 ", "SLACK_SIGNING_SECRET": "s"})
    assert (settings.port, settings.mode, settings.bot_token, settings.command) == (8123, "http", "xoxb-9", "/18xx")
    # The retry guard lives in the game database itself: processes sharing a PostgreSQL database share it.
    assert settings.requests_path("data/games.db") == "data/games.db"
    assert settings.requests_path("postgresql://bot@db.example/roundhouse") == "postgresql://bot@db.example/roundhouse"


def test_manifest_declares_what_the_adapter_uses() -> None:
    manifest = json.loads(MANIFEST.read_text("utf-8"))
    features, settings = manifest["features"], manifest["settings"]
    assert [c["command"] for c in features["slash_commands"]] == [SlackSettings().command]
    assert features["app_home"]["home_tab_enabled"] is True
    assert set(manifest["oauth_config"]["scopes"]["bot"]) == {
        "app_mentions:read",  # games in threads are addressed by mentioning the bot
        "commands",
        "chat:write",
        "files:write",
        "im:write",
        "pins:write",  # each game's board message is pinned
    }
    assert settings["event_subscriptions"]["bot_events"] == ["app_home_opened", "app_mention"]
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["socket_mode_enabled"] is True


def test_the_loopback_guard_refuses_remote_connections() -> None:
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError, match="only loopback"):
        sock.connect(("192.0.2.1", 443))
