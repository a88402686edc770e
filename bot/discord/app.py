"""``python -m bot.discord [run|schema] [OPTIONS]``: start the Discord bot, or print its command definitions."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.config import load_settings
from bot.discord.settings import load_discord_settings
from bot.discord.tree import schema_json
from bot.tokens import SecretFileError, hide_in_logs


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
    parser.add_argument("--guild", type=int, help="sync the commands to this server only (instant; for testing)")
    parser.add_argument("--config", help="a TOML file with settings on top of config/defaults.toml")
    return parser


async def _serve(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from bot.core.service import GameService
    from bot.discord.client import RoundhouseClient

    settings = load_settings(args.config).with_overrides(database=args.db, images=False if args.no_images else None)
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
        client = RoundhouseClient(service, discord_settings)
        async with client:
            await client.start(discord_settings.token)
    finally:
        await service.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.action == "schema":
        sys.stdout.write(schema_json())
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(_serve(args))
    except KeyboardInterrupt:
        return 130
