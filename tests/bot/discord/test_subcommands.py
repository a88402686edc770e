"""Option values written back as the service's command language, and the pieces of outgoing messages."""

from __future__ import annotations

import pytest

from bot.core.pictures import PictureMemory
from bot.core.replies import Attachment, Button, Notification
from bot.discord.buttons import GameButton, custom_id, view_for
from bot.discord.messages import link_channel, ping_lines, split_text
from bot.discord.subcommands import CommandSet, build
from bot.discord.tree import privates, titles


@pytest.fixture(scope="module")
def commands() -> CommandSet:
    return build(titles(), privates())


@pytest.mark.parametrize(
    ("path", "values", "text"),
    [
        ("lay", {"hex": "E9", "tile": "57", "rotation": 2}, "lay E9 57 2"),
        ("lay", {"hex": "E9", "tile": "57", "rotation": 0}, "lay E9 57 0"),  # 0 is a value, not "missing"
        ("lay", {"hex": "E9", "tile": "57", "rotation": None}, "lay E9 57"),
        ("game new", {"title": "1882", "seed": 42, "players": 4, "rules": None}, "new 1882 seed=42 players=4"),
        ("game start", {"shuffle": True}, "start shuffle"),
        ("game start", {"shuffle": False}, "start"),
        ("buy", {"what": "CPR", "source": "pool", "count": 2}, "buy CPR pool 2"),
        ("buy", {"what": "NWR", "price": 100}, "buy NWR 100"),
        ("train", {"train": "4", "seller": "HBR", "price": 200}, "train 4 from HBR 200"),
        ("train", {"train": "3", "seller": "pool"}, "train 3 pool"),
        ("train", {"train": "D", "trade": "4"}, "train D trade 4"),
        ("token", {"hex": "I5", "city": 2, "neutral": True}, "token I5 2 neutral"),
        ("ability", {"private": "NWR", "move": "lay", "hex": "C3", "detail": "57", "rotation": 1}, "NWR lay C3 57 1"),
        ("approve", {}, "approve"),
        ("prefs notify", {"mode": "dm", "here": True}, "notify dm here"),
        ("prefs quiet", {"hours": "22:00-07:00", "timezone": "Europe/Paris"}, "quiet 22:00-07:00 Europe/Paris"),
        ("prefs show", {}, "prefs"),
        ("info history", {"page": 2}, "history 2"),
        ("run", {"routes": "4 E9-F10-G11"}, "run 4 E9-F10-G11"),
        ("run", {}, "run"),
        ("undo", {}, "undo"),
    ],
)
def test_option_values_become_the_command_line(
    commands: CommandSet, path: str, values: dict[str, object], text: str
) -> None:
    assert commands.subcommands[path].text(values) == text


def test_buttons_are_persistent_and_carry_game_and_command() -> None:
    view = view_for(7, [Button("Buy 1 CPR", "buy CPR", "primary"), Button("Pass", "pass"), Button("x", "y" * 120)])
    assert view is not None and view.timeout is None and view.is_persistent()
    rows = view.to_components()
    assert [c["custom_id"] for row in rows for c in row["components"]] == ["rh:7:buy CPR", "rh:7:pass"]
    assert [c["style"] for row in rows for c in row["components"]] == [1, 2]  # primary, secondary
    match = GameButton.__discord_ui_compiled_template__.fullmatch(custom_id(7, "approve 12"))
    assert match is not None and (match["game"], match["command"]) == ("7", "approve 12")
    many = view_for(1, [Button(str(i), f"c{i}") for i in range(30)])
    assert many is not None and len(many.children) == 25 and len(many.to_components()) == 5
    assert view_for(None, [Button("Pass", "pass")]) is None and view_for(1, []) is None


def test_long_text_is_split_at_line_ends_within_discords_limit() -> None:
    text = "\n".join(f"line {i:04d} " + "x" * 60 for i in range(100))
    pieces = split_text(text)
    assert len(pieces) > 1 and all(len(p) <= 2000 for p in pieces)
    assert "\n".join(pieces) == text
    assert split_text("y" * 4500) == ["y" * 2000, "y" * 2000, "y" * 500]


def test_picture_memory_remembers_per_game_and_kind() -> None:
    memory = PictureMemory()
    a, b = Attachment("game1-0001-map.png", b"A"), Attachment("game1-0002-map.png", b"B")
    assert memory.changed(1, a) and not memory.changed(1, Attachment("game1-0002-map.png", b"A"))
    assert memory.changed(2, a)  # another game
    assert memory.changed(1, Attachment("game1-0003-market.png", b"A"))  # another kind
    assert memory.changed(1, b) and memory.changed(1, a)


def test_ping_lines_give_the_turn_gist_and_bare_mentions_otherwise() -> None:
    turn = Notification("11", "Your turn in 1882 game #1: OR 1.1, CPR.\nSince your last turn: alice lays E9", "turn")
    lines = ping_lines(["11", "22", "U-slack"], [turn])
    assert lines == ["<@11> Your turn in 1882 game #1: OR 1.1, CPR. Since your last turn: alice lays E9", "<@22>"]
    assert (
        link_channel("game #1 (123456789012345678): go", "123456789012345678") == "game #1 (<#123456789012345678>): go"
    )
    assert link_channel("<#123456789012345678>", "123456789012345678") == "<#123456789012345678>"


def test_typed_options_reach_the_service_as_a_command_not_a_line() -> None:
    """Discord's typed options become the service's Command directly (review R3): no text to read again."""
    from bot.core.commands import Command
    from bot.discord.subcommands import build

    subs = build(["1882"], ["NWR"]).subcommands
    assert subs["lay"].command({"hex": "E9", "tile": "57", "rotation": 2}) == Command("lay", ("E9", "57", "2"),
                                                                                       "lay E9 57 2")
    train = subs["train"].command({"train": "4", "seller": "HBR", "price": 200})
    assert (train.verb, train.args) == ("train", ("4", "from", "HBR", "200"))
    ability = subs["ability"].command({"private": "NWR", "move": "token", "hex": "C3"})
    assert (ability.verb, ability.args) == ("nwr", ("token", "C3"))
    repay = subs["special repay"].command({})
    assert (repay.verb, repay.args) == ("repay", ())
