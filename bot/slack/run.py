"""``python -m bot slack``: run the Slack adapter in Socket Mode or HTTP mode, with the reminder loop.

Socket Mode (``SLACK_APP_TOKEN``) needs no public URL: the app opens a WebSocket to Slack. HTTP mode
(``SLACK_SIGNING_SECRET``) serves Slack's requests on ``host:port`` + ``path`` with aiohttp; every request's
signature is checked. Both use the same listeners (:class:`bot.slack.app.SlackBot`).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys

from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient

from bot import logs, metrics
from bot.config import Settings, load_settings
from bot.core.service import GameService
from bot.slack.app import SlackBot
from bot.slack.redelivery import HandledRequests
from bot.slack.settings import SlackSettings, load_slack_settings
from bot.tokens import hide_in_logs

log = logging.getLogger(__name__)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot slack",
        description="Run Roundhouse in a Slack workspace (tokens come from SLACK_* environment variables).",
    )
    parser.add_argument("--db", help="SQLite database (default from config: data/roundhouse.db)")
    parser.add_argument("--config", help="a TOML file with settings on top of config/defaults.toml")
    parser.add_argument("--mode", choices=("socket", "http"), help="transport (default: socket if SLACK_APP_TOKEN)")
    parser.add_argument("--host", help="HTTP mode: address to listen on (default from config: 0.0.0.0)")
    parser.add_argument("--port", type=int, help="HTTP mode: port to listen on (default from config: 3000)")
    parser.add_argument("--no-images", action="store_true", help="do not draw the map and market after moves")
    parser.add_argument("--metrics", help="serve /metrics and /healthz on HOST:PORT (default from config: off)")
    return parser


async def serve_socket(bot: SlackBot, app_token: str, settings: Settings) -> None:
    handler = AsyncSocketModeHandler(bot.app, app_token)

    async def connected() -> bool:
        return bool(await handler.client.is_connected())

    watch = await metrics.start(settings.metrics, bot.service.storage, connected)
    try:
        # Bolt leaves these two unannotated.
        await handler.start_async()  # type: ignore[no-untyped-call]  # connects, then waits until cancelled
    finally:
        await handler.close_async()  # type: ignore[no-untyped-call]
        if watch is not None:
            await watch.cleanup()


async def serve_http(bot: SlackBot, settings: SlackSettings, bot_settings: Settings) -> None:
    runner = web.AppRunner(bot.web_app(path=settings.path, port=settings.port))
    await runner.setup()
    # Slack calls in: while this process serves its port, the chat connection is up.
    watch = await metrics.start(bot_settings.metrics, bot.service.storage, lambda: True)
    try:
        await web.TCPSite(runner, settings.host, settings.port).start()
        log.info("listening for Slack on http://%s:%s%s", settings.host, settings.port, settings.path)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        if watch is not None:
            await watch.cleanup()


async def amain(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = load_settings(args.config).with_overrides(
        database=args.db, images=False if args.no_images else None, metrics=args.metrics
    )
    slack = load_slack_settings(args.config)
    slack = dataclasses.replace(
        slack,
        mode=args.mode or slack.mode,
        host=args.host or slack.host,
        port=args.port or slack.port,
    )
    try:
        mode = slack.resolved_mode()
    except ValueError as exc:
        print(f"Cannot start the Slack adapter: {exc}", file=sys.stderr)
        return 2
    hide_in_logs([slack.bot_token, slack.app_token, slack.signing_secret])
    service = await GameService.open(settings.database, settings)
    keep = slack.request_memory_hours * 3600
    if slack.requests_db:
        handled = await HandledRequests.open(slack.requests_db, keep_seconds=keep)
    else:  # the game database: every process sharing it shares the record (HTTP mode on several machines)
        handled = HandledRequests(service.storage, keep_seconds=keep)
    client = (
        AsyncWebClient(token=slack.bot_token, base_url=slack.api_url)
        if slack.api_url
        else AsyncWebClient(token=slack.bot_token)
    )
    # Slack allows about one message per second per channel; wait out a 429 instead of losing the message.
    client.retry_handlers.append(AsyncRateLimitErrorRetryHandler(max_retry_count=2))
    bot = SlackBot(service, client, handled, slack)
    reminders = asyncio.create_task(bot.reminders.run(), name="slack-reminders")
    try:
        if mode == "socket":
            await serve_socket(bot, slack.app_token, settings)
        else:
            await serve_http(bot, slack, settings)
    finally:
        reminders.cancel()
        await handled.close()
        await service.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    logs.configure(logging.INFO)
    try:
        return asyncio.run(amain(argv))
    except KeyboardInterrupt:
        return 130
