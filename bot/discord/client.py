"""The logged-in bot: a discord.py client carrying the /18xx commands, the game buttons and the reminder loop.

The client is an ``AutoShardedClient``: alone, it runs as many gateway shards as Discord recommends (sharding
is required from 2,500 servers). Several processes, possibly on several machines, can split the shards
between them (``shard_ids`` of ``shard_count``) when they share one PostgreSQL database: each answers the
interactions of its shards' servers, any of them can post anywhere (REST needs no gateway), and a due
reminder is handed out by exactly one of them (the outbox claim in storage).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.core.delivery_loop import incident_id
from bot.core.service import GameService
from bot.discord.adapter import DiscordAdapter, apology
from bot.discord.buttons import NOT_MINE, GameButton, handled
from bot.discord.delivery import ClientTransport
from bot.discord.settings import DiscordSettings

log = logging.getLogger(__name__)


def intents() -> discord.Intents:
    """Only what the bot uses: guilds (channels and threads in the cache). Slash commands and buttons need no
    message-content or member intents."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class RoundhouseClient(discord.AutoShardedClient):
    """``roundhouse`` is the adapter: game buttons find it there (``interaction.client.roundhouse``).

    ``shard_ids`` / ``shard_count``: run only these shards of that many (one process of several); by default
    all shards, as many as Discord recommends.
    """

    def __init__(
        self,
        service: GameService,
        settings: DiscordSettings,
        *,
        shard_ids: Sequence[int] | None = None,
        shard_count: int | None = None,
    ) -> None:
        if shard_ids is not None and shard_count is None:
            raise ValueError("shard_ids need the total shard_count of all processes")
        # discord.py's options are typed as always given; None is its documented "Discord decides".
        sharding: Any = {"shard_ids": None if shard_ids is None else sorted(set(shard_ids)), "shard_count": shard_count}
        super().__init__(intents=intents(), allowed_mentions=discord.AllowedMentions.none(), **sharding)
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.roundhouse = DiscordAdapter(
            service,
            ClientTransport(self),
            thread_archive_minutes=settings.thread_archive_minutes,
            moderator_roles=settings.moderator_roles,
        )
        self.roundhouse.reminders.interval = settings.reminder_seconds
        self.tree.add_command(self.roundhouse.group)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self._reminders: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.add_dynamic_items(GameButton)  # buttons posted before a restart keep working
        if self.settings.sync_commands and self.syncs_commands:
            if self.settings.guild_id is not None:
                guild = discord.Object(id=self.settings.guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        self._reminders = asyncio.create_task(self.roundhouse.reminders.run(self.wait_until_ready))

    @property
    def syncs_commands(self) -> bool:
        """Whether this process pushes the command definitions: one of several (the one with shard 0) is
        enough, and Discord rate-limits the push."""
        return self.shard_ids is None or 0 in self.shard_ids

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click that no button handler takes (a custom id from an old version, a crafted one) is answered,
        never left to time out as "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom = str(data.get("custom_id", ""))
        if handled(custom):
            return  # GameButton answers it
        log.info("a click on a button no handler takes: %r", custom[:100])
        try:
            await interaction.response.send_message(NOT_MINE, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("the answer to an unknown button could not be sent: %s", exc)

    async def close(self) -> None:
        if self._reminders is not None:
            self._reminders.cancel()
        await super().close()

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        # Our callbacks catch their own errors; this sees what fails before them (option conversion, checks).
        incident = incident_id()
        log.error("incident %s: %s", incident, error, exc_info=error)
        kwargs: Any = {"ephemeral": True}
        try:
            if interaction.response.is_done():
                await interaction.followup.send(apology(incident), **kwargs)
            else:
                await interaction.response.send_message(apology(incident), **kwargs)
        except discord.HTTPException:
            log.exception("incident %s: the apology could not be sent", incident)
