"""Player experience on Discord: the pinned board edited in place, reader-local times, tile options."""

from __future__ import annotations

from bot.discord.messages import split_text
from tests.bot.discord.conftest import Bot, new_game
from tests.bot.discord.fakes import FakeChannel, FakeUser


async def test_the_board_is_pinned_once_and_edited_after_each_move(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users)
    boards = [m for m in thread.sent if (m.content or "").startswith("📌")]
    assert len(boards) == 1 and boards[0].pinned_now
    board = boards[0]
    assert "Waiting for alice" in (board.content or "")
    await bot.slash(users["alice"], "buy", thread, what="HB")
    await bot.slash(users["bob"], "buy", thread, what="SC")
    # Still one board message; its text follows the game.
    assert [m for m in thread.sent if (m.content or "").startswith("📌")] == [board]
    assert len(board.edits) == 2 and "Waiting for carol" in (board.content or "")
    assert split_text(board.content or "")[0] == board.content


async def test_who_shows_the_wait_in_the_readers_own_time(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users)
    await bot.slash(users["alice"], "buy", thread, what="HB")
    await bot.slash(users["carol"], "info who", thread)
    text = thread.sent[-1].content or ""
    assert "(since <t:" in text and ":R>)" in text


async def test_lay_without_a_tile_lists_the_options_privately(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users)
    answer = await bot.slash(users["alice"], "lay", thread, hex="I5")
    # In the auction nobody may lay: the answer says so (and how rotations are numbered), privately.
    assert "You cannot lay a tile now" in answer.private_text and "clockwise" in answer.private_text
