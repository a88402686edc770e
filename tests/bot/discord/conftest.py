"""Fixtures for the Discord adapter: a fake server (channels, users), the adapter on a temporary database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.config import Settings
from bot.core.service import GameService
from bot.discord.adapter import DiscordAdapter
from bot.discord.buttons import GameButton
from bot.discord.tree import find
from bot.storage import Storage
from tests.bot.conftest import FakeClock
from tests.bot.discord.fakes import FakeChannel, FakeInteraction, FakeUser, Sent, World

PLAYERS = ("alice", "bob", "carol", "dave")


class Bot:
    """Drives the adapter as Discord would: slash commands, autocomplete and clicks with fake interactions."""

    def __init__(self, adapter: DiscordAdapter, world: World) -> None:
        self.adapter = adapter
        self.world = world
        world.client.roundhouse = adapter

    def command(self, path: str) -> app_commands.Command[Any, ..., Any]:
        return find(self.adapter.group, path)

    async def slash(self, user: FakeUser, path: str, channel: FakeChannel | None, **options: Any) -> FakeInteraction:
        interaction = self.world.interaction(user, channel)
        await self.command(path).callback(interaction, **options)  # type: ignore[arg-type]
        return interaction

    async def complete(
        self, user: FakeUser, path: str, option: str, channel: FakeChannel, current: str = "", **namespace: Any
    ) -> list[app_commands.Choice[Any]]:
        param = self.command(path)._params[option]  # the registered autocomplete callback (no public accessor)
        assert param.autocomplete is not None, f"/{path} {option} has no autocomplete"
        interaction = self.world.interaction(user, channel, namespace)
        return list(await param.autocomplete(interaction, current))  # type: ignore[misc]

    async def click(self, user: FakeUser, channel: FakeChannel | None, message: Sent, label: str) -> FakeInteraction:
        """Click the button labelled ``label`` the way discord.py dispatches a persistent dynamic item."""
        assert label in message.labels, f"no button {label!r} among {message.labels}"
        assert message.view is not None
        button: Any = next(i.item for i in message.view.children if isinstance(i, GameButton) and i.item.label == label)
        match = GameButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
        assert match is not None, button.custom_id
        interaction = self.world.interaction(user, channel, message=message)
        dynamic = await GameButton.from_custom_id(interaction, button, match)  # type: ignore[arg-type]
        await dynamic.callback(interaction)  # type: ignore[arg-type]
        return interaction


@pytest.fixture
def settings() -> Settings:
    return Settings(images=False, snapshot_every=25)


@pytest.fixture
def world() -> World:
    return World()


@pytest.fixture
def lobby(world: World) -> FakeChannel:
    return world.add_channel(discord.ChannelType.text, "18xx")


@pytest.fixture
def users(world: World) -> dict[str, FakeUser]:
    return {name: world.add_user(name) for name in (*PLAYERS, "eve")}


async def open_bot(db: Path, world: World, clock: FakeClock, settings: Settings) -> tuple[Bot, GameService]:
    storage = await Storage.open(db, clock=clock)
    service = GameService(storage, settings, clock=clock)
    return Bot(DiscordAdapter(service, world, clock=clock), world), service


@pytest.fixture
async def bot(tmp_path: Path, world: World, clock: FakeClock, settings: Settings) -> AsyncIterator[Bot]:
    bot, service = await open_bot(tmp_path / "bot.db", world, clock, settings)
    try:
        yield bot
    finally:
        await service.close()


def public(channel: FakeChannel) -> list[str]:
    return [m.content or "" for m in channel.sent]


async def new_game(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser], players: tuple[str, ...] = PLAYERS, seed: int = 5,
    title: str = "1882",
) -> FakeChannel:
    """alice opens a game in a thread, the others join, alice starts it; returns the game's thread."""
    created = await bot.slash(users[players[0]], "game new", lobby, title=title, seed=seed)
    assert created.private == [], created.private_text
    thread = next(c for c in reversed(bot.world.channels.values()) if c.type == discord.ChannelType.public_thread)
    for name in players[1:]:
        joined = await bot.slash(users[name], "game join", thread)
        assert joined.private == [], joined.private_text
    started = await bot.slash(users[players[0]], "game start", thread)
    assert started.private == [], started.private_text
    return thread
