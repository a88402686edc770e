"""What an operator watches: a Prometheus endpoint (``/metrics``) and a health check (``/healthz``).

Off by default. The setting ``metrics`` (``[bot] metrics = "127.0.0.1:9108"``, or an adapter's ``--metrics``
flag) turns both on: :func:`serve` then listens there. The measurements are process-wide (one process is one
bot): :func:`enable` makes the one :class:`Metrics` that the service, the storage, the pictures and the
adapters report to; while it is off (None) reporting costs one ``if``.

``/healthz`` answers 200 with ``{"database": "up", "chat": "up"}`` when a trivial query works and the chat
connection is up (the adapter says how it knows), else 503 naming what is down.
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

log = logging.getLogger(__name__)

#: Verb label of a command that is no known verb (keeps the label set bounded whatever users type).
OTHER = "other"
_LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_STORAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Metrics:
    """The bot's measurements, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.commands = Counter(
            "roundhouse_commands", "Commands handled, by verb and outcome", ("verb", "outcome"), registry=r
        )
        self.reply_seconds = Histogram(
            "roundhouse_reply_seconds", "Time from a command to its replies (pictures included)", ("verb",),
            buckets=_LATENCY_BUCKETS, registry=r,
        )
        self.picture_seconds = Histogram(
            "roundhouse_picture_seconds", "Time to draw the pictures of one reply", buckets=_LATENCY_BUCKETS, registry=r
        )
        self.storage_seconds = Histogram(
            "roundhouse_storage_seconds", "Time a database connection was held, by kind (session, transaction)",
            ("kind",), buckets=_STORAGE_BUCKETS, registry=r,
        )
        self.outbox_backlog = Gauge(
            "roundhouse_outbox_backlog", "Pings and reminders waiting in the outbox (due or not)", registry=r
        )
        self.outbox_retries = Counter(
            "roundhouse_outbox_retries", "Pings the chat platform refused, queued to be sent again", registry=r
        )
        self.live_games = Gauge("roundhouse_live_games", "Games open or being played", ("status",), registry=r)
        self.errors = Counter(
            "roundhouse_errors", "Unexpected errors (incidents), by where they happened", ("where",), registry=r
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)


_active: Metrics | None = None


def enable() -> Metrics:
    """Start measuring (a fresh set of metrics)."""
    global _active
    _active = Metrics()
    return _active


def disable() -> None:
    global _active
    _active = None


def active() -> Metrics | None:
    return _active


def command(verb: str, outcome: str, seconds: float) -> None:
    if _active is not None:
        _active.commands.labels(verb, outcome).inc()
        _active.reply_seconds.labels(verb).observe(seconds)
        if outcome == "internal":
            _active.errors.labels("command").inc()


def picture(seconds: float) -> None:
    if _active is not None:
        _active.picture_seconds.observe(seconds)


def storage(kind: str, seconds: float) -> None:
    if _active is not None:
        _active.storage_seconds.labels(kind).observe(seconds)


def outbox_retry() -> None:
    if _active is not None:
        _active.outbox_retries.inc()


def error(where: str) -> None:
    if _active is not None:
        _active.errors.labels(where).inc()


# ---------------------------------------------------------------------------------------------------- serving


class Probe:
    """What ``/metrics`` and ``/healthz`` ask: the bot's storage (duck-typed, see :class:`bot.storage.Storage`)
    and whether the chat connection is up."""

    def __init__(self, storage: Any, chat_up: Callable[[], bool | Awaitable[bool]] = lambda: True) -> None:
        self.storage = storage
        self.chat_up = chat_up

    async def refresh(self, metrics: Metrics) -> None:
        """Set the gauges from the database (the outbox and the games are shared by every process)."""
        counts = await self.storage.operator_counts()
        metrics.outbox_backlog.set(counts["outbox"])
        for status in ("open", "active"):
            metrics.live_games.labels(status).set(counts[status])

    async def health(self) -> dict[str, str]:
        try:
            await self.storage.ping()
            database = "up"
        except Exception as exc:  # any failure means down: the reason goes to the log and the answer
            log.warning("health: the database is down: %s", exc)
            database = f"down: {type(exc).__name__}"
        try:
            up = self.chat_up()
            if inspect.isawaitable(up):
                up = await up
            chat = "up" if up else "down"
        except Exception as exc:
            chat = f"down: {type(exc).__name__}"
        return {"database": database, "chat": chat}


def web_app(probe: Probe, metrics: Metrics) -> web.Application:
    async def scrape(_: web.Request) -> web.Response:
        try:
            await probe.refresh(metrics)
        except Exception:  # the counters still answer when the database does not
            log.exception("metrics: the gauges could not be read from the database")
        return web.Response(body=metrics.render(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def health(_: web.Request) -> web.Response:
        state = await probe.health()
        ok = all(value == "up" for value in state.values())
        return web.json_response(state, status=200 if ok else 503)

    app = web.Application()
    app.router.add_get("/metrics", scrape)
    app.router.add_get("/healthz", health)
    return app


def parse_address(text: str) -> tuple[str, int]:
    """``"HOST:PORT"`` (or ``":PORT"``, or ``"PORT"``: loopback) as ``(host, port)``; raises ValueError."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"metrics address {text!r} is not HOST:PORT (e.g. 127.0.0.1:9108)")
    return host.strip("[]") or "127.0.0.1", int(port)


async def serve(address: str, probe: Probe) -> web.AppRunner:
    """Measure, and serve ``/metrics`` and ``/healthz`` on ``address``; stop with ``await runner.cleanup()``."""
    host, port = parse_address(address)
    metrics = _active or enable()
    runner = web.AppRunner(web_app(probe, metrics))
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("metrics on http://%s:%s/metrics, health on /healthz", host, port)
    return runner


async def start(address: str, storage: Any, chat_up: Callable[[], bool | Awaitable[bool]]) -> web.AppRunner | None:
    """:func:`serve` when ``address`` is set (the ``metrics`` setting or ``--metrics``), else nothing."""
    if not address:
        return None
    return await serve(address, Probe(storage, chat_up))


class Timer:
    """``with Timer(metrics.picture): ...`` reports the block's duration."""

    def __init__(self, report: Callable[[float], None]) -> None:
        self.report = report
        self.started = 0.0

    def __enter__(self) -> Timer:
        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.report(time.perf_counter() - self.started)
