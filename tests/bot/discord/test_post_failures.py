"""Posting fails after a move was stored: the player learns it was stored and why, the next ping still goes out
(directly, and again through the outbox), and a missing permission is named before anything is done."""

from __future__ import annotations

import discord

from bot.core.service import RETRY_DELAYS
from tests.bot.conftest import FakeClock
from tests.bot.discord.conftest import Bot, new_game
from tests.bot.discord.fakes import FakeChannel, FakeUser


async def test_a_refused_post_after_a_stored_move_tells_the_player_and_still_pings_the_next(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser], clock: FakeClock
) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    service = bot.adapter.service
    bot.world.refuse = 50013  # the bot lost Send Messages in Threads after the game started
    answer = await bot.slash(users["alice"], "buy", thread, what="HB")
    assert await service.storage.last_seq(1) == 1  # stored
    told = answer.private_text
    assert "Your move was stored (action 1)" in told and "lacks a permission" in told
    assert "alice buys HB" in told and "something went wrong" not in told
    assert any("Your turn" in (m.content or "") for m in users["bob"].dms)  # pinged directly instead
    queued = await service.storage.outbox_pending(1, str(users["bob"].id))
    assert any(item.dedupe_key.startswith("retry:1:") for item in queued)
    # The thread works again: the queued ping is posted there when its time comes.
    bot.world.refuse = None
    clock.advance(RETRY_DELAYS[0] + 1)
    mark = len(thread.sent)
    delivered = await bot.adapter.reminders.tick()
    assert [n.user_id for n in delivered] == [str(users["bob"].id)]
    assert any(f"<@{users['bob'].id}>" in (m.content or "") for m in thread.sent[mark:])


async def test_a_locked_thread_is_named(bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    bot.world.refuse = 50083
    answer = await bot.slash(users["alice"], "buy", thread, what="HB")
    assert "the thread is archived or locked" in answer.private_text


async def test_a_missing_permission_is_named_before_anything_is_done(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    bot.world.app_permissions = discord.Permissions(send_messages=True, attach_files=True)
    answer = await bot.slash(users["alice"], "buy", thread, what="HB")
    assert "Send Messages in Threads permission" in answer.private_text
    assert "Nothing was done" in answer.private_text
    assert await bot.adapter.service.storage.last_seq(1) == 0
