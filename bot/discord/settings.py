"""Discord settings: the ``[discord]`` section of config/defaults.toml (and $ROUNDHOUSE_CONFIG), and secrets.

Secrets never live in the TOML files: the bot token comes from $DISCORD_TOKEN, or from the file named by
``token_file`` (kept out of version control). $DISCORD_GUILD_ID (or ``guild_id``) names one server whose copy
of the commands is synced at start-up, which Discord applies at once; global commands take up to an hour.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.config import ROOT, config_sections
from bot.tokens import read_token_file


@dataclass(frozen=True, slots=True)
class DiscordSettings:
    token: str = field(default="", repr=False)
    guild_id: int | None = None
    sync_commands: bool = True  # push the command definitions to Discord at start-up
    reminder_seconds: float = 60.0  # how often the outbox is checked for due reminders
    thread_archive_minutes: int = 10080  # 60, 1440, 4320 or 10080: how long an idle game thread stays open
    moderator_roles: tuple[int, ...] = ()  # role ids whose members moderate games (besides Manage Server)


def load_discord_settings(
    path: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> DiscordSettings:
    """Defaults, then ``path`` (or $ROUNDHOUSE_CONFIG), then the environment for the token and guild.

    Raises SecretFileError for a ``token_file`` that is missing or tracked by git.
    """
    env = os.environ if environ is None else environ
    values = config_sections(("discord",), path, env)
    token = env.get("DISCORD_TOKEN", "").strip()
    token_file = str(values.get("token_file") or "")
    if not token and token_file:
        file = Path(token_file) if Path(token_file).is_absolute() else ROOT / token_file
        token = read_token_file(file)
    guild = env.get("DISCORD_GUILD_ID", "").strip() or str(values.get("guild_id") or "")
    return DiscordSettings(
        token=token,
        guild_id=int(guild) if guild.isdigit() and int(guild) else None,
        sync_commands=bool(values.get("sync_commands", True)),
        reminder_seconds=float(values.get("reminder_seconds", 60.0)),
        thread_archive_minutes=int(values.get("thread_archive_minutes", 10080)),
        moderator_roles=tuple(int(r) for r in values.get("moderator_roles", ())),
    )
