"""A 4-player 1882 game through /18xx commands and buttons: thread per game, auction, stock round, consent.

Legality of what autocomplete offers is checked independently of the service: every suggested value is
read back by the command translator against a mirror game rebuilt from the stored action log.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.core.commands import CommandError, parse
from bot.core.intents import split_move, translate
from bot.core.notify import acting_player_ids
from bot.storage import ConsentStatus
from engine import new_game as engine_game
from tests.bot.discord.conftest import PLAYERS, Bot, new_game
from tests.bot.discord.fakes import FakeChannel, FakeUser, Sent

MENTION = re.compile(r"<@!?(\d+)>")


async def mirror(bot: Bot, game_id: int = 1) -> Any:
    """The game rebuilt from the stored log (not the service's cached copy)."""
    record = await bot.adapter.service.storage.get_game(game_id)
    seats = await bot.adapter.service.storage.list_seats(game_id)
    game = engine_game("1882", [(s.player_id, s.display_name) for s in seats], seed=record.seed)
    for _, action in await bot.adapter.service.storage.load_actions(game_id):
        game.process(action)
    return game


def legal(game: Any, name: str, text: str) -> bool:
    player = next(p for p in game.players if p.name == name)
    command, company = split_move(parse(text)) or (parse(text), None)
    try:
        translate(game, player, command, company=company)
    except CommandError:
        return False
    return True


def assert_pings_only(message: Sent, *users: FakeUser) -> None:
    """The message mentions exactly ``users`` and may notify nobody else."""
    wanted = sorted(u.id for u in users)
    assert sorted(int(m) for m in MENTION.findall(message.content or "")) == wanted, message.content
    assert sorted(message.pinged) == wanted
    am = message.allowed_mentions
    assert am is not None and am.everyone is False and am.roles is False


async def send(bot: Bot, users: dict[str, FakeUser], thread: FakeChannel, user: str, path: str, **kw: Any) -> Sent:
    """A move that must be accepted: nothing private, one new public message in the thread."""
    before = len(thread.sent)
    interaction = await bot.slash(users[user], path, thread, **kw)
    assert interaction.response.deferred == {"ephemeral": True, "thinking": True}  # acknowledged at once
    assert interaction.private == [], interaction.private_text
    assert interaction.original_deleted
    assert len(thread.sent) == before + 1, [m.content for m in thread.sent[before:]]
    return thread.sent[-1]


async def test_a_game_in_its_own_thread_from_auction_to_stock_round(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    alice, bob, carol, dave, eve = (users[n] for n in (*PLAYERS, "eve"))
    thread = await new_game(bot, lobby, users)

    # The game lives in a public thread whose id is the service's channel; the lobby only links to it.
    assert thread.type == discord.ChannelType.public_thread
    record = await bot.adapter.service.storage.find_game("discord", str(thread.id))
    assert record is not None and record.id == 1
    assert [m.content for m in lobby.sent] == [f"alice opened game #1: join in <#{thread.id}>"]
    start = thread.sent[-1]
    assert "Seat order: alice, bob, carol, dave" in (start.content or "")
    assert start.custom_ids == ["rh:1:@0 buy HB", "rh:1:@0 pass"]
    assert start.pinged == [alice.id]  # alice acts first: pinged even though she started it

    # A spectator may look but not act; a seated player out of turn is refused. Both privately.
    status = await bot.slash(eve, "info status", thread)
    board = thread.sent[-1]
    assert status.private == [] and "Game #1" in (board.content or "")
    # The status carries the current step's buttons; the older message's buttons are retired.
    assert board.labels == ["Buy HB $20", "Pass"] and start.view is None
    for user, expected in ((eve, "you are not playing"), (bob, "it's not your turn: waiting for alice")):
        refused = await bot.slash(user, "pass", thread)
        assert expected in refused.private_text
        assert all(m.ephemeral for m in refused.private)
    before = len(thread.sent)
    refused = await bot.click(bob, thread, board, "Pass")
    assert "not your turn" in refused.private_text and len(thread.sent) == before

    # Auction: alice clicks "Buy HB"; the old buttons go, bob (only he) is pinged with his turn.
    clicked = await bot.click(alice, thread, board, "Buy HB $20")
    assert clicked.private == [] and clicked.original_deleted
    moved = thread.sent[-1]
    assert (moved.content or "").startswith("alice buys HB for $20")
    assert_pings_only(moved, bob)
    assert f"<@{bob.id}> Your turn in 1882 game #1" in (moved.content or "")
    assert board.view is None and board.edits  # the stale buttons were retired

    # Autocomplete offers only legal values, at most 25.
    game = await mirror(bot)
    privates = await bot.complete(bob, "bid", "private", thread)
    assert 0 < len(privates) <= 25
    assert [c.value for c in privates] == ["NWR", "TB", "CP"]  # HB is sold; SC is bought at its price, not bid on
    prices = await bot.complete(bob, "bid", "price", thread, private="NWR")
    assert prices and len(prices) <= 25
    assert all(legal(game, "bob", f"bid NWR {c.value}") for c in prices)
    assert not legal(game, "bob", f"bid NWR {prices[0].value - 5}")  # below the minimum: not offered
    assert await bot.complete(bob, "bid", "price", thread) == []  # needs the private first
    assert await bot.complete(carol, "bid", "private", thread) == []  # not carol's turn
    assert await bot.complete(eve, "bid", "private", thread) == []  # spectator

    assert_pings_only(await send(bot, users, thread, "bob", "bid", private="NWR", price=85), carol)
    assert_pings_only(await send(bot, users, thread, "carol", "buy", what="SC"), dave)
    assert_pings_only(await send(bot, users, thread, "dave", "pass"), alice)
    assert_pings_only(await send(bot, users, thread, "alice", "pass"), bob)
    assert_pings_only(await send(bot, users, thread, "bob", "buy", what="TB"), carol)
    moved = await send(bot, users, thread, "carol", "buy", what="CP")
    assert_pings_only(moved)  # carol stays active (she must par CPR): nobody new to ping

    game = await mirror(bot)
    pars = await bot.complete(carol, "par", "price", thread, corporation="CPR")
    assert [c.value for c in pars] == [67, 71, 76, 82, 90, 100]
    assert all(legal(game, "carol", f"par CPR {c.value}") for c in pars)
    moved = await send(bot, users, thread, "carol", "par", corporation="CPR", price=100)
    assert "Stock Round 1" in (moved.content or "")
    assert_pings_only(moved, dave)

    # Stock round: everyone buys a CPR share (dave by button).
    what = await bot.complete(dave, "buy", "what", thread)
    game = await mirror(bot)
    assert "CPR" in [c.value for c in what] and len(what) <= 25
    assert all(legal(game, "dave", f"buy {c.value}") for c in what)
    await bot.click(dave, thread, moved, "Buy 1 CPR")
    assert_pings_only(thread.sent[-1], alice)
    for name, after in (("alice", bob), ("bob", carol), ("carol", dave)):
        assert_pings_only(await send(bot, users, thread, name, "buy", what="CPR"), after)
    assert "CPR floats" in (thread.sent[-1].content or "")

    # alice's undo takes back bob's and carol's buys as well: they must approve, by button.
    request = await send(bot, users, thread, "alice", "undo")
    assert "Request 1 from alice" in (request.content or "")
    assert request.labels == ["Approve", "Decline"]
    assert_pings_only(request, bob, carol)
    for outsider in (eve, dave):
        refused = await bot.click(outsider, thread, request, "Approve")
        assert "not waiting for you" in refused.private_text
    await bot.click(bob, thread, request, "Approve")
    assert request.view is not None  # carol has not answered yet
    await bot.click(carol, thread, request, "Approve")
    assert request.view is None  # settled: its buttons are gone
    assert (thread.sent[-1].content or "").startswith("carol approves request 1")
    consent = await bot.adapter.service.storage.get_consent(1)
    assert consent.status == ConsentStatus.APPROVED
    game = await mirror(bot)
    assert acting_player_ids(game) == [1]  # alice's turn again, her buy taken back
    assert "Taken back" in (thread.sent[-1].content or "")


async def test_several_games_per_server_and_game_commands_only_in_their_thread(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    first = await new_game(bot, lobby, users, ("alice", "bob"))
    second = await new_game(bot, lobby, users, ("carol", "dave"))
    assert first.id != second.id
    assert "game #1" in (first.sent[0].content or "") and "game #2" in (second.sent[0].content or "")
    # In the lobby itself there is no game.
    lost = await bot.slash(users["alice"], "pass", lobby)
    assert "there is no game in this channel" in lost.private_text
    # A thread is only made from a text channel: `new` inside a game's thread uses that thread (busy here).
    busy = await bot.slash(users["eve"], "game new", first, title="1882")
    assert "already has game #1" in busy.private_text


async def test_new_refused_leaves_no_thread(bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]) -> None:
    refused = await bot.slash(users["alice"], "game new", lobby, title="1882", players=9)
    assert "1882 is for 2 to 6 players, not 9" in refused.private_text
    threads = [c for c in bot.world.channels.values() if c.type == discord.ChannelType.public_thread]
    assert len(threads) == 1 and threads[0].deleted
    assert lobby.sent == []


async def test_commands_are_acknowledged_before_the_service_works(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser], monkeypatch: Any
) -> None:
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    handle = bot.adapter.service.handle
    seen: list[bool] = []

    async def watched(*args: Any, **kwargs: Any) -> Any:
        interaction = bot.world.last_interaction
        seen.append(interaction is not None and interaction.response.is_done())
        return await handle(*args, **kwargs)

    monkeypatch.setattr(bot.adapter.service, "handle", watched)
    await bot.slash(users["alice"], "info map", thread)
    await bot.click(users["alice"], thread, thread.sent[-2], "Pass")
    assert seen == [True, True]  # deferred first: Discord's 3 s are never at the mercy of rendering


async def test_help_is_private_and_autocompletes_verbs(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    verbs = await bot.complete(users["eve"], "info help", "command", lobby, current="un")
    assert [c.value for c in verbs] == ["undo"]
    answer = await bot.slash(users["eve"], "info help", lobby, command="lay")
    assert answer.private_text.startswith("lay HEX [TILE [ROTATION]]") and lobby.sent == []


async def test_a_request_keeps_its_buttons_until_settled_by_a_typed_answer(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users)
    await send(bot, users, thread, "alice", "buy", what="HB")
    await send(bot, users, thread, "bob", "bid", private="NWR", price=85)
    request = await send(bot, users, thread, "alice", "undo")
    assert request.labels == ["Approve", "Decline"]
    assert_pings_only(request, users["bob"])
    await bot.slash(users["eve"], "info status", thread)  # posts the current move buttons
    assert request.view is not None  # bob can still answer by button
    await bot.slash(users["bob"], "decline", thread, request=1)
    assert request.view is None
    assert (thread.sent[-1].content or "").startswith("bob declines request 1")
