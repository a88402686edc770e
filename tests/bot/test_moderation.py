"""A vanished player does not block a game: seats handed on, moderators, abandoning an idle game."""

from __future__ import annotations

from bot.core.replies import Outcome, Reply
from bot.storage import GameStatus
from tests.bot.conftest import FakeClock, Table, started

DAY = 86400.0


async def _mod(table: Table, user: str, text: str) -> Reply:
    (reply,) = await table.service.handle(table.platform, table.channel, user, user, text, moderator=True)
    return reply


async def _seats(table: Table, game_id: int) -> list[str]:
    return [s.user_id for s in await table.service.storage.list_seats(game_id)]


async def test_a_player_hands_their_own_seat_on(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    handed = await table.say("alice", "replace alice carol")
    assert handed.ok and "carol takes over alice's seat" in handed.text
    assert handed.mentions == ["carol"]  # alice's seat was to act: carol is pinged with its buttons
    assert await _seats(table, game_id) == ["carol", "bob"]
    assert (await table.say("alice", "buy HB")).outcome == Outcome.NOT_SEATED
    assert (await table.say("carol", "buy HB")).ok
    history = (await table.say("bob", "history")).text
    assert "At the table:" in history and "carol takes over alice's seat (handed on by alice, themselves)" in history
    exported = await table.say("bob", "export")
    assert b"carol takes over" in exported.attachments[0].data  # the log keeps it as a message action


async def test_the_other_players_vote_a_seat_away(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob", "dave"), seed=5)
    ask = await table.say("bob", "replace <@alice> <@U99|carol>")  # chat mentions, as Slack writes them
    assert ask.outcome == Outcome.PENDING and ask.mentions == ["dave"]
    assert await _seats(table, game_id) == ["alice", "bob", "dave"]
    done = await table.say("dave", "approve")
    assert done.ok and "<@U99> takes over alice's seat" in done.text
    assert await _seats(table, game_id) == ["U99", "bob", "dave"]


async def test_only_the_player_the_others_or_a_moderator_may_hand_a_seat_on(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    refused = await table.say("eve", "replace alice eve")
    assert refused.outcome == Outcome.DENIED
    assert (await table.say("bob", "replace zed eve")).outcome == Outcome.MALFORMED
    assert (await table.say("bob", "replace alice bob")).outcome == Outcome.ILLEGAL  # bob is seated already
    moved = await _mod(table, "mod", "replace alice eve")
    assert moved.ok and "by mod, by a moderator" in moved.text
    assert await _seats(table, game_id) == ["eve", "bob"]


async def test_a_moderator_abandons_a_game_at_once(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    assert (await table.say("alice", "abandon")).outcome == Outcome.PENDING  # a player must ask
    done = await _mod(table, "mod", "abandon")
    assert done.ok and "abandoned (by mod, a moderator)" in done.text
    assert (await table.service.storage.get_game(game_id)).status == GameStatus.ABANDONED
    assert "game abandoned by mod, a moderator" in (await table.say("alice", "history")).text


async def test_a_moderator_settles_a_request_nobody_answers(table: Table) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    await table.say("alice", "buy HB")
    await table.say("bob", "pass")
    assert (await table.say("alice", "undo")).outcome == Outcome.PENDING  # bob has vanished
    assert (await table.say("eve", "approve 1")).outcome == Outcome.DENIED
    done = await _mod(table, "mod", "approve 1")
    assert done.ok and "Taken back" in done.text
    assert "mod, a moderator, approves request 1" in (await table.say("alice", "history")).text
    assert await table.service.storage.last_seq(game_id) == 4  # buy, pass, the note, the undo


async def test_an_idle_game_may_be_abandoned_by_any_player(table: Table, clock: FakeClock) -> None:
    game_id = await started(table, users=("alice", "bob"), seed=5)
    await table.say("alice", "buy HB")
    clock.advance(3 * DAY)
    assert (await table.say("alice", "abandon")).outcome == Outcome.PENDING
    clock.advance(12 * DAY)  # 15 days without a move (the default limit is 14)
    done = await table.say("alice", "abandon")
    assert done.ok and "after 15 days without a move" in done.text
    assert (await table.service.storage.get_game(game_id)).status == GameStatus.ABANDONED


async def test_kick_removes_a_seat_before_the_start(table: Table) -> None:
    assert (await table.say("alice", "new 1882")).ok
    for user in ("bob", "carol"):
        await table.say(user, "join")
    assert (await table.say("bob", "kick carol")).outcome == Outcome.DENIED
    assert (await _mod(table, "mod", "kick carol")).ok
    assert (await table.say("alice", "kick bob")).ok  # the creator may too
    assert await _seats(table, 1) == ["alice"]
    assert (await table.say("bob", "abandon")).outcome == Outcome.DENIED
    await table.say("bob", "join")
    await table.say("alice", "start")
    assert (await _mod(table, "mod", "kick bob")).outcome == Outcome.ILLEGAL


def test_discord_moderators_manage_the_server_or_hold_a_configured_role() -> None:
    from types import SimpleNamespace
    from typing import Any, cast

    from bot.discord.adapter import DiscordAdapter

    adapter = cast(Any, DiscordAdapter.__new__(DiscordAdapter))
    adapter.moderator_roles = frozenset({77})

    def who(manage: bool, roles: tuple[int, ...]) -> Any:
        user = SimpleNamespace(roles=[SimpleNamespace(id=r) for r in roles])
        return SimpleNamespace(permissions=SimpleNamespace(manage_guild=manage), user=user)

    assert DiscordAdapter.is_moderator(adapter, who(True, ()))
    assert DiscordAdapter.is_moderator(adapter, who(False, (5, 77)))
    assert not DiscordAdapter.is_moderator(adapter, who(False, (5,)))


async def test_configured_moderators_are_moderators(table: Table) -> None:
    from dataclasses import replace

    game_id = await started(table, users=("alice", "bob"), seed=5)
    table.service.settings = replace(table.service.settings, moderators=("mod",))
    assert (await table.say("mod", "abandon")).ok
    assert (await table.service.storage.get_game(game_id)).status == GameStatus.ABANDONED


async def test_a_moderator_may_close_a_game_that_never_started(table: Table) -> None:
    assert (await table.say("alice", "new 1882")).ok
    assert (await _mod(table, "mod", "abandon")).ok
    assert (await table.service.storage.get_game(1)).status == GameStatus.ABANDONED
