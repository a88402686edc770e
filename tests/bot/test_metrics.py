"""The operator's view: ``/metrics`` (Prometheus) after a few moves, and ``/healthz``; both off by default."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.config import Settings, load_settings
from bot.core.delivery_loop import incident_id
from bot.core.replies import Notification, Outcome
from bot.core.service import GameService
from bot.storage import Storage
from tests.bot.conftest import FakeClock, Table, started


@pytest.fixture
def measured() -> Iterator[metrics.Metrics]:
    yield metrics.enable()
    metrics.disable()


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def _value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def _scrape(service: GameService, chat: bool = True) -> tuple[int, str]:
    app = metrics.web_app(metrics.Probe(service.storage, lambda: chat), metrics.active() or metrics.enable())
    async with TestClient(TestServer(app)) as client:
        response = await client.get("/metrics")
        return response.status, await response.text()


async def test_the_metrics_endpoint_after_a_few_moves(
    measured: metrics.Metrics, tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    service = GameService(await Storage.open(tmp_path / "bot.db", clock=clock), Settings(images=True), clock=clock)
    try:
        table = Table(service)
        game_id = await started(table, users=("alice", "bob"), seed=5)
        assert (await table.say("alice", "buy HB")).ok  # pictures drawn
        assert (await table.say("bob", "pass")).ok
        assert (await table.say("bob", "pass")).outcome == Outcome.NOT_YOUR_TURN
        assert (await table.say("alice", "frobnicate")).outcome == Outcome.MALFORMED
        assert await service.retry_later(Notification("bob", "Your turn", "turn", game_id))
        incident_id()  # an adapter's incident
        status, text = await _scrape(service)
    finally:
        await service.close()
    assert status == 200
    samples = _samples(text)
    shown = sorted(
        f"{name}{dict(labels)} {value:g}"
        for (name, labels), value in samples.items()
        if name.endswith("_total") or name.endswith("_count") or name in ("roundhouse_outbox_backlog",
                                                                           "roundhouse_live_games")
    )
    with capsys.disabled():
        print("\n/metrics after a 2-player game, 2 moves, a refused move, an unknown verb, a retried ping:")
        print("\n".join("  " + line for line in shown))
    assert _value(samples, "roundhouse_commands_total", verb="buy", outcome="ok") == 1
    assert _value(samples, "roundhouse_commands_total", verb="pass", outcome="ok") == 1
    assert _value(samples, "roundhouse_commands_total", verb="pass", outcome="not_your_turn") == 1
    assert _value(samples, "roundhouse_commands_total", verb="other", outcome="malformed") == 1
    assert _value(samples, "roundhouse_commands_total", verb="new", outcome="ok") == 1
    assert _value(samples, "roundhouse_commands_total", verb="start", outcome="ok") == 1
    commands = sum(v for (name, _), v in samples.items() if name == "roundhouse_commands_total")
    assert _value(samples, "roundhouse_reply_seconds_count", verb="buy") == 1
    assert sum(v for (name, _), v in samples.items() if name == "roundhouse_reply_seconds_count") == commands
    assert _value(samples, "roundhouse_picture_seconds_count") >= 1  # the moves' pictures (and the start's)
    assert _value(samples, "roundhouse_storage_seconds_count", kind="session") > 10
    assert _value(samples, "roundhouse_storage_seconds_count", kind="transaction") >= 3  # seats, start
    assert _value(samples, "roundhouse_outbox_retries_total") == 1
    assert _value(samples, "roundhouse_outbox_backlog") >= 1  # the retry waits in the outbox
    assert _value(samples, "roundhouse_live_games", status="active") == 1
    assert _value(samples, "roundhouse_errors_total", where="adapter") == 1


async def test_a_command_that_fails_is_counted_as_an_error(
    measured: metrics.Metrics, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(req: object) -> list[object]:
        raise RuntimeError("a bug")

    monkeypatch.setitem(table.service._handlers, "who", broken)
    await started(table)
    assert (await table.say("alice", "who")).outcome == Outcome.INTERNAL
    samples = _samples((await _scrape(table.service))[1])
    assert _value(samples, "roundhouse_errors_total", where="command") == 1
    assert _value(samples, "roundhouse_commands_total", verb="who", outcome="internal") == 1


@pytest.fixture
async def opened(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    storage = await Storage.open(tmp_path / "bot.db", clock=clock)
    try:
        yield storage
    finally:
        await storage.close()


async def test_health_says_what_is_down(opened: Storage) -> None:
    chat = {"up": True}
    app = metrics.web_app(metrics.Probe(opened, lambda: chat["up"]), metrics.Metrics())
    async with TestClient(TestServer(app)) as client:
        response = await client.get("/healthz")
        assert response.status == 200 and await response.json() == {"database": "up", "chat": "up"}
        chat["up"] = False
        response = await client.get("/healthz")
        assert response.status == 503 and (await response.json())["chat"] == "down"
        chat["up"] = True
        await opened.close()  # the database goes away
        response = await client.get("/healthz")
        assert response.status == 503 and (await response.json())["database"].startswith("down")
        assert (await client.get("/metrics")).status == 200  # the counters still answer


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_off_by_default_and_one_setting_turns_it_on(opened: Storage, tmp_path: Path) -> None:
    assert load_settings().metrics == ""
    assert await metrics.start("", opened, lambda: True) is None
    assert metrics.active() is None
    port = _free_port()
    config = tmp_path / "bot.toml"
    config.write_text(f'[bot]\nmetrics = "127.0.0.1:{port}"\n', "utf-8")
    runner = await metrics.start(load_settings(config).metrics, opened, lambda: True)
    assert runner is not None
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                assert response.status == 200
            async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
                assert "roundhouse_commands" in await response.text()
    finally:
        await runner.cleanup()
        metrics.disable()
    with pytest.raises(ValueError, match="HOST:PORT"):
        metrics.parse_address("localhost")


def test_the_adapters_take_a_metrics_flag() -> None:
    from bot.discord.app import build_parser as discord_parser
    from bot.slack.run import build_parser as slack_parser

    for parser in (discord_parser(), slack_parser()):
        assert parser.parse_args(["--metrics", "127.0.0.1:9108"]).metrics == "127.0.0.1:9108"
        assert parser.parse_args([]).metrics is None  # off unless the setting says otherwise
