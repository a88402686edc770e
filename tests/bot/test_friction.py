"""Small refusals from the newcomer's friction log now point to the right command."""

from __future__ import annotations

from bot.core.commands import parse
from bot.core.replies import Outcome
from tests.bot.conftest import Table, started
from tests.bot.ux_helpers import driven, in_lay_step, lay_choices


def test_discord_group_words_are_skipped_when_typed() -> None:
    assert parse("info status").verb == "status"
    assert parse("game new 1882").verb == "new" and parse("game new 1882").args == ("1882",)
    assert parse("info").verb == "info"  # alone it stays an (unknown) word


async def test_buy_train_points_to_the_train_command(table: Table) -> None:
    await started(table)
    reply = await table.say("alice", "buy train 2")
    assert reply.outcome == Outcome.MALFORMED and "to buy a train: `train 2`" in reply.text


async def test_a_tile_the_title_lacks_lists_what_fits(table: Table) -> None:
    game = await driven(table)
    await game.until(in_lay_step)
    hex_id = lay_choices(game.mirror)[0]["hex"]
    reply = await table.say(game.acting_user(), f"lay {hex_id} 5")
    assert reply.outcome == Outcome.MALFORMED
    assert f"1882 has no tile 5; tiles that fit on {hex_id}: " in reply.text and f"`lay {hex_id}`" in reply.text


async def test_history_says_which_way_it_reads(table: Table) -> None:
    await started(table)
    text = (await table.say("alice", "history")).text
    assert "page 1 is the newest; lines run oldest to newest" in text
