"""Map and market pictures: attached as PNG files with alt text, and after a move only when they changed."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from bot.config import Settings
from tests.bot.discord.conftest import Bot, new_game
from tests.bot.discord.fakes import FakeChannel, FakeUser


@pytest.fixture
def settings() -> Settings:
    return Settings(images=True, snapshot_every=25)


def png(file: discord.File) -> bytes:
    data = file.fp.getvalue()  # type: ignore[attr-defined]
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return bytes(data)


def kinds(files: list[discord.File]) -> list[str]:
    return [f.filename.rsplit("-", 1)[-1] for f in files]


async def test_pictures_attached_once_and_again_only_when_changed(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users)
    start = thread.sent[-1]
    assert kinds(start.files) == ["map.png", "market.png"]
    for file in start.files:
        with Image.open(io.BytesIO(png(file))) as image:
            assert image.format == "PNG" and image.width > 200 and image.height > 100
        assert file.description and "after action 0" in file.description  # alt text for screen readers
    market_at_start = png(start.files[1])

    await bot.slash(users["alice"], "buy", thread, what="HB")  # HB's owner shows on the map; prices do not move
    bought = thread.sent[-1]
    assert kinds(bought.files) == ["map.png"]
    map_after_buy = png(bought.files[0])
    await bot.slash(users["bob"], "pass", thread)
    assert thread.sent[-1].files == []  # nothing visible changed

    # On demand the pictures always come, and they show that skipping them above was right.
    await bot.slash(users["eve"], "info map", thread)
    [shown] = thread.sent[-1].files
    assert png(shown) == map_after_buy
    await bot.slash(users["eve"], "info market", thread)
    [shown] = thread.sent[-1].files
    assert png(shown) == market_at_start
