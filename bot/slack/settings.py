"""Slack settings: the ``[slack]`` section of config/defaults.toml (and $ROUNDHOUSE_CONFIG), and secrets.

Secrets never live in the TOML files. They come from the environment: $SLACK_BOT_TOKEN (always),
$SLACK_APP_TOKEN (Socket Mode) and $SLACK_SIGNING_SECRET (HTTP mode, where every request's signature is
checked with it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.config import config_sections

MODES = ("auto", "socket", "http")


@dataclass(frozen=True, slots=True)
class SlackSettings:
    bot_token: str = field(default="", repr=False)
    app_token: str = field(default="", repr=False)
    signing_secret: str = field(default="", repr=False)
    mode: str = "auto"  # "socket", "http", or "auto": Socket Mode when an app token is there
    command: str = "/18xx"  # the slash command, as declared in config/slack-manifest.json
    host: str = "0.0.0.0"
    port: int = 3000
    path: str = "/slack/events"  # HTTP mode: the Request URL path for commands, clicks and events
    reminder_seconds: float = 60.0  # how often the outbox is checked for due reminders
    requests_db: str = ""  # the handled-request log; "" keeps it in the game database
    request_memory_hours: float = 24.0  # Slack retries within minutes; a day is ample
    moderators: tuple[str, ...] = ()  # member ids (U…) who moderate games: replace, force abandon, kick
    api_url: str = ""  # the Web API's base URL; "" = Slack's own (another one: a proxy, or a test double)

    def resolved_mode(self) -> str:
        """The transport to use; raises ValueError naming what is missing."""
        mode = self.mode
        if mode == "auto":
            mode = "socket" if self.app_token else "http"
        if not self.bot_token:
            raise ValueError("SLACK_BOT_TOKEN is not set (the xoxb- token from the app's OAuth page)")
        if mode == "socket" and not self.app_token:
            raise ValueError("Socket Mode needs SLACK_APP_TOKEN (an xapp- token with connections:write)")
        if mode == "http" and not self.signing_secret:
            raise ValueError("HTTP mode needs SLACK_SIGNING_SECRET (from the app's Basic Information page)")
        if mode not in ("socket", "http"):
            raise ValueError(f"[slack] mode must be one of {', '.join(MODES)}, not {mode!r}")
        return mode

    def requests_path(self, database: str) -> str:
        """Where handled request keys are kept: ``requests_db``, or ("" and by default) the game database, so
        that several processes on one PostgreSQL database share them."""
        return self.requests_db or database


def load_slack_settings(
    path: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> SlackSettings:
    """Defaults, then ``path`` (or $ROUNDHOUSE_CONFIG), then the environment for the secrets."""
    env = os.environ if environ is None else environ
    values = config_sections(("slack",), path, env)
    return SlackSettings(
        bot_token=env.get("SLACK_BOT_TOKEN", "").strip(),
        app_token=env.get("SLACK_APP_TOKEN", "").strip(),
        signing_secret=env.get("SLACK_SIGNING_SECRET", "").strip(),
        mode=str(values.get("mode", "auto")),
        command=str(values.get("command", "/18xx")),
        host=str(values.get("host", "0.0.0.0")),
        port=int(values.get("port", 3000)),
        path=str(values.get("path", "/slack/events")),
        reminder_seconds=float(values.get("reminder_seconds", 60.0)),
        requests_db=str(values.get("requests_db", "")),
        request_memory_hours=float(values.get("request_memory_hours", 24.0)),
        moderators=tuple(str(m) for m in values.get("moderators", ())),
        api_url=str(values.get("api_url", "")),
    )
