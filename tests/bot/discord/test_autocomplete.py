"""Autocomplete in an operating round: hexes, tiles for that hex, rotations for that tile; all legal, <= 25.

The game is brought to its first tile lay by a seeded policy through the service (quick), then asked through
the Discord commands. Each offered value is read back by the command translator against a mirror game.
"""

from __future__ import annotations

from typing import Any

from bot.console.scripted import Policy, next_move
from bot.core.commands import CommandError, parse
from bot.core.intents import deciding_player, translate
from engine import new_game as engine_game
from engine.core import query
from tests.bot.discord.conftest import PLAYERS, Bot, new_game
from tests.bot.discord.fakes import FakeChannel, FakeUser, World


def layer(game: Any) -> Any:
    """The player who may lay a tile now, if anyone."""
    for ent in query.deciding_entities(game):
        if "lay_tile" in game.actions_for(ent):
            return deciding_player(game, ent)
    return None


async def play_to_first_lay(bot: Bot, thread: FakeChannel, users: dict[str, FakeUser]) -> tuple[Any, FakeUser]:
    seats = await bot.adapter.service.storage.list_seats(1)
    record = await bot.adapter.service.storage.get_game(1)
    mirror = engine_game("1882", [(s.player_id, s.display_name) for s in seats], seed=record.seed)
    for _, action in await bot.adapter.service.storage.load_actions(1):
        mirror.process(action)
    policy = Policy(3)
    names = {p.id: p.name for p in mirror.players}
    for _ in range(300):
        player = layer(mirror)
        if player is not None:
            return mirror, users[player.name]
        move = next_move(mirror, policy, names)
        assert move is not None
        replies = await bot.adapter.service.handle(
            "discord", str(thread.id), str(users[move.user].id), move.user, move.command
        )
        if move.approver is not None:
            replies = await bot.adapter.service.handle(
                "discord", str(thread.id), str(users[move.approver].id), move.approver, "approve"
            )
        assert replies[-1].ok, (move, replies[-1].text)
    raise AssertionError("no tile lay reached")


def accepted(game: Any, name: str, text: str) -> bool:
    player = next(p for p in game.players if p.name == name)
    try:
        translate(game, player, parse(text))
    except CommandError:
        return False
    return True


async def test_lay_offers_legal_hexes_tiles_and_rotations(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    thread = await new_game(bot, lobby, users)
    game, acting = await play_to_first_lay(bot, thread, users)
    name = acting.display_name

    hexes = await bot.complete(acting, "lay", "hex", thread)
    assert 0 < len(hexes) <= 25
    checked = 0
    for hex_choice in hexes[:3]:
        tiles = await bot.complete(acting, "lay", "tile", thread, hex=hex_choice.value)
        assert 0 < len(tiles) <= 25, hex_choice.value
        for tile in tiles[:2]:
            rotations = await bot.complete(acting, "lay", "rotation", thread, hex=hex_choice.value, tile=tile.value)
            assert rotations and all(isinstance(r.value, int) and 0 <= r.value <= 5 for r in rotations)
            for rotation in rotations:
                assert accepted(game, name, f"lay {hex_choice.value} {tile.value} {rotation.value}")
                checked += 1
            illegal = [r for r in range(6) if r not in {c.value for c in rotations}]
            for rotation in illegal:
                assert not accepted(game, name, f"lay {hex_choice.value} {tile.value} {rotation}")
    assert checked >= 3

    # What is typed narrows the offer; what is not legal here is never offered.
    first = str(hexes[0].value)
    narrowed = await bot.complete(acting, "lay", "hex", thread, current=first[0])
    assert narrowed and all(str(c.value).upper().startswith(first[0].upper()) for c in narrowed)
    assert await bot.complete(acting, "lay", "tile", thread, hex="Z99") == []
    others = [u for n, u in users.items() if n in PLAYERS and u is not acting]
    for other in others:
        assert await bot.complete(other, "lay", "hex", thread) == []

    # The first offered lay goes through the command.
    tiles = await bot.complete(acting, "lay", "tile", thread, hex=first)
    rotations = await bot.complete(acting, "lay", "rotation", thread, hex=first, tile=tiles[0].value)
    answer = await bot.slash(acting, "lay", thread, hex=first, tile=tiles[0].value, rotation=rotations[0].value)
    assert answer.private == [], answer.private_text
    expected = f"lays tile {tiles[0].value} on {first} (rotation {rotations[0].value})"
    assert expected in (thread.sent[-1].content or "")


class RecordingService:
    """Only what autocomplete uses of the service: ``suggest``, with canned answers, recording each question."""

    def __init__(self, answers: dict[tuple[str, tuple[str, ...]], list[str]]) -> None:
        self.answers = answers
        self.asked: list[tuple[str, list[str], str]] = []

    async def suggest(
        self, platform: str, channel: str, user_id: str, verb: str, args: Any, partial: str, limit: int = 25
    ) -> list[str]:
        assert platform == "discord" and limit == 25
        self.asked.append((verb, list(args), partial))
        return self.answers.get((verb, tuple(args)), [])


async def test_questions_asked_for_powers_sellers_and_trades(world: World, lobby: FakeChannel) -> None:
    from bot.discord.adapter import DiscordAdapter

    service = RecordingService(
        {
            ("NWR", ()): ["token", "remove"],
            ("NWR", ("lay", "C3")): ["57", "58"],
            ("train", ("4",)): ["pool", "trade"],
            ("train", ("4", "from")): ["HBR", "QLL"],
            ("train", ("4", "trade")): ["2", "3"],
            ("sell", ("CPR",)): [str(n) for n in range(40)] + ["x"],
        }
    )
    bot = Bot(DiscordAdapter(service, world), world)  # type: ignore[arg-type]
    user = world.add_user("alice")

    async def values(path: str, option: str, current: str = "", **namespace: Any) -> list[Any]:
        return [c.value for c in await bot.complete(user, path, option, lobby, current, **namespace)]

    assert await values("ability", "move", private="NWR") == ["token", "remove"]
    assert await values("ability", "detail", "5", private="NWR", move="lay", hex="C3") == ["57", "58"]
    assert service.asked[-1] == ("NWR", ["lay", "C3"], "5")  # the private leads, as in `nwr lay C3 57`
    assert await values("train", "seller", train="4") == ["pool", "HBR", "QLL"]
    assert await values("train", "trade", train="4") == ["2", "3"]
    counts = await values("sell", "count", corporation="CPR")
    assert counts == list(range(25))  # integers only, at most 25
    asked = len(service.asked)
    assert await values("lay", "tile") == [] and len(service.asked) == asked  # no hex yet: nothing to ask


async def test_privates_and_titles_are_autocompleted_not_static_choices(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    titles = await bot.complete(users["alice"], "game new", "title", lobby, "18")
    assert "1882" in [c.value for c in titles]
    thread = await new_game(bot, lobby, users, ("alice", "bob"))
    privates = [c.value for c in await bot.complete(users["alice"], "ability", "private", thread, "")]
    assert {"NWR", "CP"} <= set(privates) and len(privates) <= 25
    assert [c.value for c in await bot.complete(users["alice"], "ability", "private", thread, "nw")] == ["NWR"]


async def test_1822_companies_are_autocompleted_by_what_is_typed(
    bot: Bot, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    """1822 brings over 60 company symbols: options list the legal ones, narrowed by the letters typed."""
    thread = await new_game(bot, lobby, users, title="1822")
    everything = [c.value for c in await bot.complete(users["alice"], "bid", "private", thread, "")]
    assert len(everything) <= 25 and {"M24", "C1", "P1"} <= set(everything)
    minors = [c.value for c in await bot.complete(users["alice"], "bid", "private", thread, "m")]
    assert minors and all(v.startswith("M") for v in minors)
    concessions = [c.value for c in await bot.complete(users["alice"], "bid", "private", thread, "c")]
    assert concessions and all(v.startswith("C") for v in concessions)
    first = everything[0]
    prices = [c.value for c in await bot.complete(users["alice"], "bid", "price", thread, "", private=first)]
    assert prices and (prices[0] == 100 or not first.startswith(("M", "C")))  # minors and concessions: from £100
    powers = [c.value for c in await bot.complete(users["alice"], "ability", "private", thread, "p1")]
    assert all(v.upper().startswith("P1") for v in powers)
