"""``python -m bot.discord [run|schema] [OPTIONS]``: start the Discord bot, or print its command definitions."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot import logs, metrics
from bot.config import load_settings
from bot.discord.settings import load_discord_settings
from bot.discord.tree import schema_json
from bot.storage import is_postgres_url
from bot.tokens import SecretFileError, hide_in_logs

log = logging.getLogger(__name__)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot discord", description="Run the Roundhouse Discord bot.")
    parser.add_argument(
        "action",
        nargs="?",
        choices=("run", "schema"),
        default="run",
        help="run the bot (default), or print the /18xx application-command definitions as JSON (no login)",
    )
    parser.add_argument(
        "--db", help="SQLite file or postgresql:// URL (default: $ROUNDHOUSE_DB, else config: data/roundhouse.db)"
    )
    parser.add_argument("--no-images", action="store_true", help="do not draw the map and market after moves")
    parser.add_argument("--metrics", help="serve /metrics and /healthz on HOST:PORT (default from config: off)")
    parser.add_argument("--guild", type=int, help="sync the commands to this server only (instant; for testing)")
    parser.add_argument("--config", help="a TOML file with settings on top of config/defaults.toml")
    parser.add_argument(
        "--shards",
        type=shard_list,
        help="run only these gateway shards, e.g. 0-3 or 0,2,4-7 (needs --shard-count; the processes that split "
        "the shards must share one PostgreSQL database)",
    )
    parser.add_argument(
        "--shard-count", type=int, help="the total number of shards across all processes (default: Discord's advice)"
    )
    return parser


def shard_list(text: str) -> list[int]:
    """``"0-3,8"`` -> ``[0, 1, 2, 3, 8]``."""
    ids: set[int] = set()
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            first, last = int(low), int(high or low)
            if first < 0 or last < first:
                raise ValueError(part)
            ids.update(range(first, last + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of shard ids like 0-3 or 0,2,4-7") from None
    return sorted(ids)


def check_shards(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.shard_count is not None and args.shard_count < 1:
        parser.error("--shard-count must be at least 1")
    if args.shards is None:
        return
    if args.shard_count is None:
        parser.error("--shards needs --shard-count (the total of all processes), e.g. --shards 0-3 --shard-count 16")
    outside = [s for s in args.shards if s >= args.shard_count]
    if outside:
        parser.error(f"shard ids {outside} are not below --shard-count {args.shard_count}")


async def _serve(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from bot.core.service import GameService
    from bot.discord.client import RoundhouseClient

    settings = load_settings(args.config).with_overrides(
        database=args.db, images=False if args.no_images else None, metrics=args.metrics
    )
    try:
        discord_settings = load_discord_settings(args.config)
    except SecretFileError as exc:
        print(f"Cannot start the Discord bot: {exc}.", file=sys.stderr)
        return 2
    hide_in_logs([discord_settings.token])
    if args.guild:
        discord_settings = replace(discord_settings, guild_id=args.guild)
    if not discord_settings.token:
        print("Set DISCORD_TOKEN (or [discord] token_file in the config) to run the Discord bot.", file=sys.stderr)
        return 2
    service = await GameService.open(settings.database, settings)
    try:
        if args.shards is not None and not is_postgres_url(settings.database):
            log.warning(
                "shards %s of %s on the SQLite file %s: other processes can only share it on this machine",
                args.shards,
                args.shard_count,
                settings.database,
            )
        client = RoundhouseClient(service, discord_settings, shard_ids=args.shards, shard_count=args.shard_count)
        watch = await metrics.start(
            settings.metrics, service.storage, lambda: client.is_ready() and not client.is_closed()
        )
        try:
            async with client:
                await client.start(discord_settings.token)
        finally:
            if watch is not None:
                await watch.cleanup()
    finally:
        await service.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    check_shards(parser, args)
    if args.action == "schema":
        sys.stdout.write(schema_json())
        return 0
    logs.configure(logging.INFO)
    try:
        return asyncio.run(_serve(args))
    except KeyboardInterrupt:
        return 130
