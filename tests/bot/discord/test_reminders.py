"""Reminders come from the storage outbox when the injected clock says so; a restart loses none, repeats none."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from tests.bot.conftest import FakeClock
from tests.bot.discord.conftest import Bot, new_game, open_bot
from tests.bot.discord.fakes import FakeChannel, FakeUser, World

HOUR = 3600.0


def reminders(thread: FakeChannel, since: int) -> list[str]:
    return [m.content or "" for m in thread.sent[since:] if "Reminder" in (m.content or "")]


async def test_reminders_fire_with_the_clock_and_survive_a_restart_without_double_pings(
    tmp_path: Path, world: World, clock: FakeClock, settings: Settings, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    bot, service = await open_bot(tmp_path / "games.db", world, clock, settings)
    bob = users["bob"]
    try:
        thread = await new_game(bot, lobby, users)
        await bot.slash(users["alice"], "buy", thread, what="HB")  # bob is up now
        mark = len(thread.sent)

        clock.advance(23 * HOUR)
        assert await bot.adapter.reminders.tick() == []  # the first reminder comes after 24 h
        clock.advance(2 * HOUR)
        delivered = await bot.adapter.reminders.tick()
        assert [(n.user_id, n.kind) for n in delivered] == [(str(bob.id), "reminder")]
        [ping] = thread.sent[mark:]
        assert (ping.content or "").startswith(f"<@{bob.id}> Reminder: it is your turn in 1882 game #1")
        assert "(since <t:" in (ping.content or "")  # in the reader's own time zone
        assert ping.pinged == [bob.id]
        assert ping.allowed_mentions is not None and ping.allowed_mentions.everyone is False
        assert await bot.adapter.reminders.tick() == []  # handed out once
    finally:
        await service.close()

    # A new process on the same database: the delivered reminder does not come again, the next one does.
    bot, service = await open_bot(tmp_path / "games.db", world, clock, settings)
    try:
        mark = len(thread.sent)
        assert await bot.adapter.reminders.tick() == []
        clock.advance(11 * HOUR)
        assert await bot.adapter.reminders.tick() == []
        clock.advance(1 * HOUR)  # the second reminder comes half the first gap later
        assert [n.user_id for n in await bot.adapter.reminders.tick()] == [str(bob.id)]
        assert await bot.adapter.reminders.tick() == []
        assert len(reminders(thread, mark)) == 1 and thread.sent[-1].pinged == [bob.id]

        # Once bob has acted, his pending reminders are dropped; carol's turn starts her own clock.
        await bot.slash(bob, "pass", thread)
        mark = len(thread.sent)
        clock.advance(25 * HOUR)
        delivered = await bot.adapter.reminders.tick()
        assert [n.user_id for n in delivered] == [str(users["carol"].id)]
        assert [m.pinged for m in thread.sent[mark:]] == [[users["carol"].id]]
    finally:
        await service.close()


async def test_direct_message_reminders_and_closed_dms(
    bot: Bot, clock: FakeClock, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    bob = users["bob"]
    thread = await new_game(bot, lobby, users)
    answer = await bot.slash(bob, "prefs notify", thread, mode="dm")
    assert "direct message" in answer.private_text and all(m.ephemeral for m in answer.private)

    await bot.slash(users["alice"], "buy", thread, what="HB")
    moved = thread.sent[-1]
    assert moved.pinged == [] and f"<@{bob.id}>" not in (moved.content or "")  # dm only: no mention
    [turn] = bob.dms
    assert "Your turn in 1882 game #1" in (turn.content or "") and f"<#{thread.id}>" in (turn.content or "")

    clock.advance(25 * HOUR)
    mark = len(thread.sent)
    await bot.adapter.reminders.tick()
    assert "Reminder" in (bob.dms[-1].content or "") and len(bob.dms) == 2
    assert thread.sent[mark:] == []

    # With DMs closed, the next reminder falls back to a mention in the game's thread.
    bob.dms_closed = True
    clock.advance(12 * HOUR)
    await bot.adapter.reminders.tick()
    [fallback] = thread.sent[mark:]
    assert fallback.pinged == [bob.id] and "Reminder" in (fallback.content or "")


async def test_notify_test_reaches_the_user(bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    await bot.slash(users["bob"], "prefs notify", thread, mode="both")
    mark = len(thread.sent)
    await bot.slash(users["bob"], "prefs notify", thread, mode="test")
    assert any("Test ping" in (m.content or "") for m in users["bob"].dms)
    pings = thread.sent[mark:]
    assert pings and all(m.pinged == [users["bob"].id] for m in pings)
