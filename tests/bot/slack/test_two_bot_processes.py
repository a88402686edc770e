"""Two real bot processes (``python -m bot slack --mode http``) serving Slack on one PostgreSQL database: a request
Slack retries reaches the other process and is applied once.

Both processes talk to the fake Slack Web API on 127.0.0.1 (``[slack] api_url``); the test posts signed requests
to each process's port as Slack (through a load balancer) would. Production mode: each process acknowledges first
and works afterwards, so the test waits for the effects in the shared database.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest

from bot.storage import Storage
from tests.bot.slack.conftest import SECRET, Slack, signed_headers
from tests.bot.slack.fake_slack import FakeSlack
from tests.bot.storage.conftest import fresh_schema, postgres_server  # noqa: F401  (fixture)
from tests.conftest import ROOT

FORM = "application/x-www-form-urlencoded"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class BotProcess:
    def __init__(self, port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.port = port
        self.proc = proc
        self.log = log

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/slack/events"


@pytest.fixture
async def database(postgres_server: str) -> AsyncIterator[str]:  # noqa: F811
    async with fresh_schema(postgres_server) as url:
        yield url


@pytest.fixture
def bots(database: str, fake: FakeSlack, tmp_path: Path) -> Iterator[list[BotProcess]]:
    config = tmp_path / "slack.toml"
    config.write_text(f'[slack]\napi_url = "{fake.url}/api/"\nreminder_seconds = 3600\n', "utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SLACK_", "ROUNDHOUSE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_SIGNING_SECRET=SECRET,
        ROUNDHOUSE_DB=database,
    )
    started: list[BotProcess] = []
    try:
        for n in range(2):
            port = _free_port()
            log = tmp_path / f"bot{n}.log"
            command = [
                sys.executable, "-m", "bot", "slack", "--mode", "http", "--host", "127.0.0.1", "--port", str(port),
                "--no-images", "--config", str(config),
            ]  # fmt: skip
            machine = tmp_path / f"machine{n}"  # a working directory each, as on two machines
            machine.mkdir()
            with log.open("wb") as out:
                proc = subprocess.Popen(command, cwd=machine, env=env, stdout=out, stderr=subprocess.STDOUT)
            started.append(BotProcess(port, proc, log))
        yield started
    finally:
        for bot in started:
            bot.proc.terminate()
        for bot in started:
            try:
                bot.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                bot.proc.kill()


async def _wait_listening(bot: BotProcess) -> None:
    for _ in range(600):
        if bot.proc.poll() is not None:
            raise AssertionError(f"the bot process ended: {bot.log.read_text(errors='replace')[-3000:]}")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", bot.port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise AssertionError(f"the bot never listened: {bot.log.read_text(errors='replace')[-3000:]}")


async def _until(check: object, what: str, bots: list[BotProcess]) -> None:
    for _ in range(300):
        if await check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    logs = "\n".join(b.log.read_text(errors="replace")[-2000:] for b in bots)
    raise AssertionError(f"{what} never happened\n{logs}")


async def test_two_processes_share_one_database_and_apply_a_retried_request_once(
    bots: list[BotProcess], fake: FakeSlack, database: str
) -> None:
    for bot in bots:
        await _wait_listening(bot)
    a, b = bots
    slack = Slack(None, fake)  # type: ignore[arg-type]  # used only to build request bodies
    storage = await Storage.open(database)
    try:
        async with aiohttp.ClientSession() as http:

            async def post(bot: BotProcess, body: str, **headers: str) -> int:
                hdrs = {"content-type": FORM, **signed_headers(body, **headers)}
                async with http.post(bot.url, data=body.encode(), headers=hdrs) as response:
                    return response.status

            async def seats() -> int:
                record = await storage.find_game("slack", "C1")
                return 0 if record is None else len(await storage.list_seats(record.id))

            # The game is set up through both processes, alternately.
            assert await post(a, slack.command_body("U1", "new 1882 seed=7")) == 200
            await _until(lambda: seats(), "the game's creation", bots)
            for n, user in enumerate(("U2", "U3")):
                assert await post(bots[(n + 1) % 2], slack.command_body(user, "join")) == 200
                await _until(lambda count=n + 2: _equals(seats(), count), f"{user} joining", bots)
            assert await post(b, slack.command_body("U1", "start")) == 200
            await _until(lambda: _equals(_status(storage), "active"), "the start", bots)

            # A move: Slack sends it to process a, gets no answer in time, and retries; the retry reaches b.
            body = slack.command_body("U1", "buy HB", trigger="41.1.retried")
            mark = fake.mark()
            retry = {"x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout"}
            statuses = await asyncio.gather(post(a, body), post(b, body, **retry))
            assert statuses == [200, 200]
            await _until(lambda: _equals(storage.last_seq(1), 1), "the move", bots)
            await _until(
                lambda: _true(len(fake.since(mark, "chat.postMessage")) >= 1), "the move's message", bots
            )
            await asyncio.sleep(1.0)  # time for a second apply, had there been one
            assert await storage.last_seq(1) == 1
            moves = [c for c in fake.since(mark, "chat.postMessage") if "HB" in str(c.params.get("text"))]
            assert len(moves) == 1
            assert not fake.since(mark, "chat.postEphemeral")  # a second apply would have said "not your turn"
            assert await storage.count_requests() == 5  # new, 2 joins, start, the move (its retry: no new key)
    finally:
        await storage.close()


async def _equals(value: object, expected: object) -> bool:
    return await value == expected  # type: ignore[misc]


async def _true(value: bool) -> bool:
    return value


async def _status(storage: Storage) -> str:
    record = await storage.find_game("slack", "C1")
    return "" if record is None else str(record.status)
