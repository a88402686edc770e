"""``python -m bot [console|discord|slack|check-games|migrate-db|backup] [OPTIONS]``: start the bot, or look after
its data (``roundhouse ...`` once the project is installed with pip).

Without a mode: Discord when DISCORD_TOKEN is set, else Slack when SLACK_BOT_TOKEN is set, else the console.
Each mode lives in a module (``bot.<mode>`` for the adapters) that exposes ``main(argv) -> int``; it is
imported only when chosen, so the console works without the chat adapters' tokens or settings.
``check-games``, ``migrate-db`` (SQLite to PostgreSQL) and ``backup`` are the operator's commands
(:mod:`bot.check_games`, :mod:`bot.migrate_db`, :mod:`bot.backup`).
"""

from __future__ import annotations

import importlib
import os
import sys

from bot import logs
from bot.config import ConfigError, load_settings

MODULES = {
    "console": "bot.console",
    "discord": "bot.discord",
    "slack": "bot.slack",
    "check-games": "bot.check_games",
    "migrate-db": "bot.migrate_db",
    "backup": "bot.backup",
}
MODES = tuple(MODULES)


def choose_mode(argv: list[str], environ: dict[str, str] | os._Environ[str]) -> tuple[str, list[str]]:
    if argv and argv[0] in MODES:
        return argv[0], argv[1:]
    if environ.get("DISCORD_TOKEN"):
        return "discord", argv
    if environ.get("SLACK_BOT_TOKEN"):
        return "slack", argv
    return "console", argv


def config_argument(argv: list[str]) -> str | None:
    """The ``--config FILE`` an adapter will be given, if any (read here to check the file first)."""
    for n, word in enumerate(argv):
        if word == "--config" and n + 1 < len(argv):
            return argv[n + 1]
        if word.startswith("--config="):
            return word.split("=", 1)[1]
    return None


def main(argv: list[str] | None = None) -> int:
    mode, rest = choose_mode(list(sys.argv[1:] if argv is None else argv), os.environ)
    if "-h" not in rest and "--help" not in rest:
        # Every config file is checked before anything starts: a misspelt key or a wrong type stops here.
        try:
            settings = load_settings(config_argument(rest))
        except ConfigError as exc:
            print(f"Cannot start: {exc}", file=sys.stderr)
            return 2
        logs.chosen = settings.log_format
    name = MODULES[mode]
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name not in (name, f"{name}.app"):
            raise
        print(
            f"The {mode} adapter is not part of this build yet. Run `python -m bot console` to play from a "
            "terminal, or unset the token that selected it.",
            file=sys.stderr,
        )
        return 2
    run = getattr(module, "main", None)
    if run is None:
        print(f"{name} has no main(argv) entry point", file=sys.stderr)
        return 2
    return int(run(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
