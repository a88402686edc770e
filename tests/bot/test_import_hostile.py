"""Hostile 18xx.games files: each gets its own message, and an import stores all of it or nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.core import import_file
from bot.core.replies import Outcome
from bot.core.service import GameService
from tests.bot.conftest import Table
from tests.conftest import SHARED_FIXTURES

GAME_10526 = SHARED_FIXTURES / "1882" / "10526.json"


def _doc() -> dict[str, Any]:
    if not GAME_10526.exists():
        pytest.skip(f"{GAME_10526} is absent")
    doc: dict[str, Any] = json.loads(GAME_10526.read_text())
    doc["actions"] = doc["actions"][:12]
    return doc


def _edit(change: Callable[[dict[str, Any]], Any]) -> Callable[[], bytes]:
    def build() -> bytes:
        doc = _doc()
        change(doc)
        return json.dumps(doc).encode()

    return build


def _raw(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def _text_edit(old: str, new: str) -> Callable[[], bytes]:
    def build() -> bytes:
        text = json.dumps(_doc())
        assert old in text
        return text.replace(old, new, 1).encode()

    return build


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


HOSTILE: list[tuple[str, Callable[[], bytes], str]] = [
    ("empty", _raw(b"  "), "empty"),
    ("not utf-8", _raw(b'{"title": "\xff\xfe"}'), "not UTF-8"),
    ("not json", _raw(b"title: 1882"), "not JSON"),
    ("a list", _raw(b"[1, 2]"), "holds a list"),
    ("a string", _raw(b'"1882"'), "holds text"),
    ("no actions", _raw(b'{"title": "1882", "players": []}'), "no actions"),
    ("title a number", _edit(_set(("title",), 1882)), "`title`"),
    ("unknown title", _edit(_set(("title",), "9999")), "9999"),
    ("players text", _edit(_set(("players",), "alice,bob")), "`players` must be a list"),
    ("players object", _edit(_set(("players",), {"1": "a"})), "`players` must be a list"),
    ("players empty", _edit(_set(("players",), [])), "`players` is empty"),
    ("player a number", _edit(_set(("players", 0), 7)), "player 1 must be an object"),
    ("player id text", _edit(_set(("players", 0, "id"), "1047")), "player 1 needs a whole-number id"),
    ("player id 1.5", _edit(_set(("players", 0, "id"), 1.5)), "whole-number id"),
    ("player id 2**70", _edit(_set(("players", 0, "id"), 2**70)), "whole-number id"),
    ("player ids twice", _edit(_set(("players", 1, "id"), 1047)), "player id 1047 appears twice"),
    ("player name a list", _edit(_set(("players", 0, "name"), ["x"])), "needs a name as text"),
    ("name with a line break", _edit(_set(("players", 0, "name"), "eve\nbot: eve wins")), "line break"),
    ("settings a list", _edit(_set(("settings",), [1])), "`settings` must be an object"),
    ("seed 1.5", _edit(_set(("settings", "seed"), 1.5)), "whole number, not 1.5"),
    ("seed beyond 64 bits", _edit(_set(("settings", "seed"), 2**64)), "64 bits"),
    ("seed text", _edit(_set(("settings", "seed"), "abc")), "the seed must be a whole number"),
    ("seed true", _edit(_set(("settings", "seed"), True)), "the seed must be a whole number"),
    ("rules not a list", _edit(_set(("settings", "optional_rules"), "all")), "optional_rules"),
    ("actions an object", _edit(_set(("actions",), {"1": {}})), "`actions` must be a list"),
    ("action a number", _edit(_set(("actions", 3), 4)), "action 4 must be an object"),
    ("action without type", _edit(_set(("actions", 3, "type"), None)), "action 4 has no type"),
    ("action id text", _edit(_set(("actions", 3, "id"), "4")), "action 4 needs a positive whole-number id"),
    ("duplicate action ids", _edit(_set(("actions", 3, "id"), 3)), "action id 3 appears twice"),
    ("action ids backwards", _edit(_set(("actions", 4, "id"), 100)), "action ids run backwards: action 6"),
    ("entity a list", _edit(_set(("actions", 3, "entity"), [1])), "names its entity"),
    ("NaN in an action", _text_edit('"price": ', '"price": NaN, "x": '), "NaN"),
    ("lone surrogate", _text_edit('"type": "bid"', '"type": "bid", "note": "\\ud800"'), "lone surrogate"),
    ("deep nesting", _raw(b'{"title": "1882", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"), "nested"),
    ("nested a little too deep", _edit(_set(("actions", 3, "x"), json.loads("[" * 40 + "]" * 40))), "nested"),
    ("hex a number", _edit(_set(("actions", 11, "hex"), 5)), "action"),
]


@pytest.mark.parametrize(("shape", "build", "expected"), HOSTILE, ids=[h[0] for h in HOSTILE])
async def test_each_hostile_file_gets_a_specific_message_and_nothing_is_stored(
    service: GameService, shape: str, build: Callable[[], bytes], expected: str
) -> None:
    (reply,) = await service.handle("test", "c", "u", "u", "import", attachments=[build()])
    assert reply.outcome in (Outcome.MALFORMED, Outcome.ILLEGAL), (shape, reply.text)
    assert expected.lower() in reply.text.lower(), (shape, reply.text)
    assert await service.storage.list_games() == []


async def test_the_unchanged_file_imports(service: GameService) -> None:
    (reply,) = await service.handle("test", "c", "u", "u", "import", attachments=[json.dumps(_doc()).encode()])
    assert reply.ok, reply.text
    assert await service.storage.last_seq(1) == 12


async def test_size_and_action_caps(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(import_file, "MAX_IMPORT_ACTIONS", 11)
    (reply,) = await service.handle("test", "c", "u", "u", "import", attachments=[json.dumps(_doc()).encode()])
    assert reply.outcome == Outcome.MALFORMED and "at most 11" in reply.text
    big = b" " * (import_file.MAX_IMPORT_BYTES + 1)
    (reply,) = await service.handle("test", "c", "u", "u", "import", attachments=[big])
    assert reply.outcome == Outcome.MALFORMED and "too large" in reply.text
    assert await service.storage.list_games() == []


async def test_an_import_is_one_transaction(service: GameService) -> None:
    doc = _doc()
    with pytest.raises(TypeError):  # the snapshot, written last, fails: nothing of the game remains
        await service.storage.import_game(
            platform="test",
            channel="c",
            title="1882",
            seed=1,
            options={},
            engine_version="x",
            created_by="u",
            actions=doc["actions"],
            actor="import",
            snapshot="not bytes",  # type: ignore[arg-type]
        )
    assert await service.storage.list_games() == []
    assert (await service.handle("test", "c", "u", "u", "import", attachments=[json.dumps(doc).encode()]))[0].ok


async def test_a_name_cannot_add_lines_to_the_bot_s_answers(table: Table) -> None:
    (reply,) = await table.service.handle("test", "c", "eve", "eve\nbot: eve wins the game", "new 1882")
    assert reply.ok
    assert "\n" not in reply.text and "eve bot: eve wins the game created" in reply.text


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("\u202eeve", "eve"),
        ("zero\u200bwidth", "zerowidth"),
        ("\u200f\u2066bob\u2069", "bob"),
        ("\u200b", "player 1047"),
    ],
    ids=["right-to-left override", "zero-width space", "bidi isolates", "nothing visible"],
)
async def test_invisible_characters_in_a_name_are_dropped_not_the_game(
    service: GameService, given: str, shown: str
) -> None:
    doc = _doc()
    doc["players"][0]["name"] = given
    (reply,) = await service.handle("test", "c", "u", "u", "import", attachments=[json.dumps(doc).encode()])
    assert reply.ok, reply.text
    assert f"Players: {shown}" in reply.text
    assert not any(ch in reply.text for ch in "\u202e\u200b\u200f\u2066\u2069")


def test_the_console_reads_an_import_no_further_than_the_upload_cap(tmp_path: Path) -> None:
    from tests.bot.console_helpers import run_console

    out = tmp_path / "out"
    lines = run_console(tmp_path / "bot.db", out, ["alice: /18xx import /dev/zero"], timeout=60)
    assert any("too large" in line and "8 MiB" in line for line in lines), lines
