"""Slack HTTP mode on several processes behind a load balancer, all on one PostgreSQL database.

Each "process" here is a whole bot of its own: its own connection pool, game service, Bolt app and aiohttp
server on its own port, sharing only the database (as two machines would). A request Slack retries may reach
the other process; the record of handled requests is in the shared database, so it is carried out once.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer
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
from tests.bot.storage.conftest import fresh_schema, postgres_server  # noqa: F401  (fixture)

FORM = "application/x-www-form-urlencoded"


@dataclass
class Process:
    """One bot process serving Slack's HTTP requests."""

    bot: SlackBot
    http: TestClient  # type: ignore[type-arg]

    async def post(self, body: str, **headers: str) -> int:
        hdrs = {"content-type": FORM, **signed_headers(body, **headers)}
        response = await self.http.post("/slack/events", data=body.encode(), headers=hdrs)
        return response.status

    async def event(self, body: str) -> int:
        hdrs = {"content-type": "application/json", **signed_headers(body)}
        response = await self.http.post("/slack/events", data=body.encode(), headers=hdrs)
        return response.status


@pytest.fixture
async def processes(postgres_server: str, fake: FakeSlack, clock: FakeClock) -> AsyncIterator[list[Process]]:  # noqa: F811
    async with fresh_schema(postgres_server) as url:
        started: list[tuple[Process, Storage]] = []
        try:
            for _ in range(2):
                storage = await Storage.open(url, clock=clock)
                service = GameService(storage, Settings(images=False), clock=clock)
                client = AsyncWebClient(token="xoxb-test", base_url=f"{fake.url}/api/")
                bot = SlackBot(
                    service,
                    client,
                    HandledRequests(storage, clock=clock),
                    SlackSettings(signing_secret=SECRET),
                    clock=clock,
                    process_before_response=True,
                )
                http = TestClient(TestServer(bot.web_app(path="/slack/events")))
                await http.start_server()
                started.append((Process(bot, http), storage))
            yield [p for p, _ in started]
        finally:
            for process, storage in started:
                await process.http.close()
                await storage.close()


async def _start(slack: Slack, a: Process, b: Process) -> None:
    assert await a.post(slack.command_body("U1", "new 1882 seed=7")) == 200
    assert await b.post(slack.command_body("U2", "join")) == 200
    assert await a.post(slack.command_body("U3", "join")) == 200
    assert await b.post(slack.command_body("U1", "start")) == 200


async def test_a_retried_request_reaching_the_other_process_is_applied_once(
    processes: list[Process], fake: FakeSlack
) -> None:
    a, b = processes
    slack = Slack(a.bot, fake)
    await _start(slack, a, b)
    storage = a.bot.service.storage
    assert await storage.last_seq(1) == 0
    assert await b.bot.service.storage.count_requests() == 4  # both processes wrote to the one record

    body = slack.command_body("U1", "buy HB", trigger="41.1.retried")
    mark = fake.mark()
    assert await a.post(body) == 200
    # Slack got no answer in time and retries: the load balancer sends the retry to the other process.
    assert await b.post(body, **{"x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout"}) == 200
    assert await storage.last_seq(1) == 1
    posted = fake.since(mark, "chat.postMessage")
    assert len(posted) == 1 and "buys" in str(posted[0].params["text"]).lower()
    assert not fake.since(mark, "chat.postEphemeral")  # a second apply would have said "not your turn"

    # Both copies at once, one to each process: one claim wins, the game moves one step.
    body = slack.command_body("U2", "pass", trigger="42.1.raced")
    mark = fake.mark()
    statuses = await asyncio.gather(a.post(body), b.post(body, **{"x-slack-retry-num": "1"}))
    assert statuses == [200, 200]
    assert await storage.last_seq(1) == 2
    assert len(fake.since(mark, "chat.postMessage")) == 1
    actions = await storage.load_action_records(1)
    assert [(r.seq, r.actor) for r in actions] == [(1, "U1"), (2, "U2")]


async def test_threads_and_app_home_work_across_two_processes(processes: list[Process], fake: FakeSlack) -> None:
    a, b = processes
    slack = Slack(a.bot, fake)
    await _start(slack, a, b)
    # A second game in the busy channel opens a thread (process b); its players use process a.
    mark = fake.mark()
    assert await b.post(slack.command_body("U4", "new 1882 seed=3")) == 200
    root = fake.since(mark, "chat.postMessage")[0]
    thread_ts = str(root.result["ts"])
    assert (await a.bot.service.storage.get_game(2)).channel == f"{CHANNEL}/{thread_ts}"
    assert await a.post(slack.command_body("U5", "#2 join")) == 200
    mark = fake.mark()
    assert await b.post(slack.command_body("U4", "#2 start")) == 200
    started = fake.since(mark, "chat.postMessage")
    assert started and all(c.params.get("thread_ts") == thread_ts for c in started)

    # The App Home, asked of either process, lists both of U1's and U4's games as the database has them.
    home = json.dumps(
        {
            "token": "legacy",
            "team_id": "T1",
            "api_app_id": "A1",
            "type": "event_callback",
            "event_id": "EvHome1",
            "event_time": 1_700_000_000,
            "event": {"type": "app_home_opened", "user": "U1", "channel": "DU1", "tab": "home"},
        }
    )
    mark = fake.mark()
    assert await b.event(home) == 200
    assert await a.event(home) == 200  # the same event redelivered to the other process: published once
    published = fake.since(mark, "views.publish")
    assert len(published) == 1 and published[0].params["user_id"] == "U1"
    assert "#1" in json.dumps(published[0].params["view"])
    # A move in game 1 through process a refreshes the homes of its players (process a publishes them).
    mark = fake.mark()
    assert await a.post(slack.command_body("U1", "buy HB")) == 200
    users = {c.params["user_id"] for c in fake.since(mark, "views.publish")}
    assert users == {"U1", "U2", "U3"}
