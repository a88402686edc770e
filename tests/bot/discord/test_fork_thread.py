"""A practice copy on Discord lives in a private thread of the game's channel that only its owner is in."""

from __future__ import annotations

import discord

from tests.bot.discord.conftest import Bot, new_game
from tests.bot.discord.fakes import FakeChannel, FakeUser


async def test_fork_opens_a_private_thread_where_its_owner_plays_every_seat(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users)
    alice, bob = users["alice"], users["bob"]
    made = await bot.slash(bob, "game fork", thread)
    assert "Practice copy game #2 of game #1" in made.private_text, made.private_text
    practice = next(c for c in bot.world.channels.values() if c.type == discord.ChannelType.private_thread)
    assert practice.parent is lobby and practice.members == [bob.id]
    assert "Practice copy game #2" in (practice.sent[-1].content or "")
    record = await bot.adapter.service.storage.get_game(2)
    assert record.channel == str(practice.id)
    # bob plays alice's seat there (it is alice's turn), and nobody is pinged; game #1 is untouched.
    before = len(practice.sent)
    moved = await bot.slash(bob, "buy", practice, what="HB")
    assert moved.private == [], moved.private_text
    (posted,) = [m for m in practice.sent[before:] if (m.content or "").startswith("alice buys HB")]
    assert posted.pinged == [] and all(m.pinged == [] for m in practice.sent[before:])
    assert await bot.adapter.service.storage.last_seq(1) == 0
    refused = await bot.slash(alice, "buy", practice, what="SC")
    assert "you are not playing" in refused.private_text
