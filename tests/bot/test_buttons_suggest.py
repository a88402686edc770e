"""Buttons and autocomplete come from the engine's legal choices; clicks are checked like typed commands;
an unexpected error is an incident, not a crash."""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.console.scripted import command_intent
from bot.core import service_core as service_mod
from bot.core.choices import MAX_BUTTONS
from bot.core.commands import CommandError, split_position
from bot.core.notify import acting_player_ids
from bot.core.replies import Outcome, Reply
from bot.core.service import GameService
from engine import GameError
from engine.core import query
from tests.bot.conftest import Table, started
from tests.bot.test_service import Driver

MOVE_VERBS = (
    "lay",
    "token",
    "buy",
    "bid",
    "par",
    "sell",
    "train",
    "run",
    "pay",
    "withhold",
    "pass",
    "discard",
)
# How many values of each argument are followed when completing commands (the first few and the last).
BREADTH = 3


def _player(game: Any, pid: int) -> Any:
    return next(p for p in game.players if p.id == pid)


def _accepted(game: Any, pid: int, text: str) -> bool:
    """Whether the bot would take ``text`` from player ``pid`` now (on a copy: the game is not changed)."""
    copy = pickle.loads(pickle.dumps(game))
    try:
        intent = command_intent(copy, _player(copy, pid), text)
        copy.process(intent.action)
    except (CommandError, GameError):
        return False
    return True


async def _completions(service: GameService, user: str, verb: str, args: tuple[str, ...] = ()) -> list[str]:
    """Commands reached by following suggestions until none is left (a sample of each level)."""
    values = await service.suggest("test", "general", user, verb, list(args), "")
    if not values:
        return [" ".join((verb, *args))] if args else []
    picked = values[:BREADTH] + values[-1:] if len(values) > BREADTH else values
    out: list[str] = []
    for value in dict.fromkeys(picked):
        out += await _completions(service, user, verb, (*args, value))
    return out


async def _check_suggestions(service: GameService, driver: Driver) -> set[str]:
    """Every completed suggestion for the acting player is a command the engine accepts; returns the verbs
    that had suggestions."""
    game = driver.mirror
    pid = acting_player_ids(game)[0]
    user = driver.names[pid]
    verbs_seen: set[str] = set()
    for verb in MOVE_VERBS:
        for text in await _completions(service, user, verb):
            verbs_seen.add(verb)
            assert _accepted(game, pid, text), (text, game.round.name())
    return verbs_seen


async def _play_until(driver: Driver, predicate: Callable[[Any], bool]) -> None:
    await driver.until(predicate)


def _can(kind: str) -> Callable[[Any], bool]:
    def check(game: Any) -> bool:
        return any(kind in game.actions_for(ent) for ent in query.deciding_entities(game))

    return check


# ---------------------------------------------------------------------- suggestions


async def test_suggestions_complete_to_legal_commands_through_a_game(table: Table) -> None:
    await started(table, seed=5)
    driver = Driver(table, seed=5)
    seen: set[str] = set()
    seen |= await _check_suggestions(table.service, driver)  # the auction: buy, bid, pass
    for kind in ("par", "lay_tile", "place_token", "buy_train", "dividend", "sell_shares"):
        await _play_until(driver, _can(kind))
        seen |= await _check_suggestions(table.service, driver)
    assert {"bid", "buy", "par", "lay", "token", "train", "sell"} <= seen, seen


async def test_lay_suggestions_are_every_legal_hex_then_tiles_then_rotations(table: Table) -> None:
    await started(table, seed=5)
    driver = Driver(table, seed=5)
    await driver.until(_can("lay_tile"))
    game = driver.mirror
    pid = acting_player_ids(game)[0]
    user = driver.names[pid]
    ent = next(e for e in query.deciding_entities(game) if "lay_tile" in game.actions_for(e))
    legal = query.choices(game, ent, "lay_tile", limit=100_000)
    hexes = await table.service.suggest("test", "general", user, "lay", [], "", limit=1000)
    assert sorted(hexes) == sorted({c["hex"] for c in legal})
    hex_id = hexes[0]
    tiles = await table.service.suggest("test", "general", user, "lay", [hex_id], "")
    assert set(tiles) == {c["tile"].rsplit("-", 1)[0] for c in legal if c["hex"] == hex_id}
    rotations = await table.service.suggest("test", "general", user, "lay", [hex_id, tiles[0]], "")
    expected = {
        str(c["rotation"]) for c in legal if c["hex"] == hex_id and c["tile"].rsplit("-", 1)[0] == tiles[0]
    }
    assert set(rotations) == expected
    # Case-insensitive prefix filter and the limit; aliases of the verb work too.
    prefix = hex_id[0].lower()
    filtered = await table.service.suggest("test", "general", user, "tile", [], prefix)
    assert filtered and all(h.lower().startswith(prefix) for h in filtered)
    assert len(await table.service.suggest("test", "general", user, "lay", [], "", limit=1)) == 1


async def test_no_suggestions_for_the_wrong_people_or_places(table: Table) -> None:
    await started(table, seed=5)  # alice acts first in the auction
    service = table.service
    assert await service.suggest("test", "general", "alice", "bid", [], "")
    assert await service.suggest("test", "general", "bob", "bid", [], "") == []  # not acting
    assert await service.suggest("test", "general", "carol", "bid", [], "") == []  # not seated
    assert await service.suggest("test", "general", "alice", "fly", [], "") == []  # unknown verb
    assert await service.suggest("test", "elsewhere", "alice", "bid", [], "") == []  # no game there
    assert await service.suggest("test", "general", "alice", "lay", [], "") == []  # not now
    assert await service.suggest("test", "general", "alice", "bid", ["XX"], "") == []  # no such private


async def test_fixed_choices_for_settings_and_requests(table: Table) -> None:
    service = table.service
    assert await service.suggest("test", "nowhere", "u", "notify", [], "") == [
        "channel",
        "dm",
        "both",
        "off",
        "test",
    ]
    assert await service.suggest("test", "nowhere", "u", "notify", [], "B") == ["both"]
    assert await service.suggest("test", "nowhere", "u", "notify", ["dm"], "") == ["here"]
    assert await service.suggest("test", "nowhere", "u", "away", [], "") == ["on", "off"]
    zones = await service.suggest("test", "nowhere", "u", "quiet", ["22:00-07:00"], "europe/ber")
    assert "Europe/Berlin" in zones
    assert len(await service.suggest("test", "nowhere", "u", "quiet", ["22:00-07:00"], "", limit=5)) == 5
    await started(table, seed=5)
    await table.say("alice", "buy HB")
    await table.say("bob", "pass")
    assert (await table.say("alice", "undo")).outcome == Outcome.PENDING
    assert await service.suggest("test", "general", "bob", "approve", [], "") == ["1"]
    assert await service.suggest("test", "general", "alice", "approve", [], "") == []  # she asked


# ---------------------------------------------------------------------- buttons


def _check_buttons(reply: Reply, driver: Driver, checked: dict[str, int]) -> None:
    game = driver.mirror
    assert len(reply.buttons) <= MAX_BUTTONS
    assert len({b.command for b in reply.buttons}) == len(reply.buttons)
    pids = acting_player_ids(game)
    for button in reply.buttons:
        assert button.style in ("primary", "secondary", "success", "danger")
        kind = button.label.split()[0]
        if checked.get(kind, 0) >= 4:
            continue  # each kind of button is tried a few times: running routes on a copy is slow
        checked[kind] = checked.get(kind, 0) + 1
        at, command = split_position(button.command)
        assert at == reply.seq, (button, reply.seq)  # the button counts only at the step it was made for
        assert any(_accepted(game, pid, command) for pid in pids), (button, game.round.name())


async def test_move_buttons_are_legal_moves_of_the_acting_player(table: Table) -> None:
    await started(table, seed=5)
    driver = Driver(table, seed=5)
    checked: dict[str, int] = {}
    for _ in range(260):
        _, reply, _, _ = await driver.step()
        _check_buttons(reply, driver, checked)
        if driver.mirror.finished:
            break
    assert {"Pass", "Buy", "Pay", "Withhold", "Run"} <= set(checked), checked


async def test_a_click_works_for_the_acting_player_only(table: Table) -> None:
    await started(table, seed=5)
    status = await table.say("carol", "status")
    assert [b.command for b in status.buttons] == ["@0 buy HB", "@0 pass"]  # alice's auction choices
    assert status.buttons[-1].label == "Pass"
    click = status.buttons[0].command
    assert (await table.say("bob", click)).outcome == Outcome.NOT_YOUR_TURN
    assert (await table.say("carol", click)).outcome == Outcome.NOT_SEATED
    done = await table.say("alice", click)
    assert done.ok and "alice buys HB" in done.text
    assert done.buttons and all(b.command for b in done.buttons)  # bob's choices now


async def test_consent_requests_carry_approve_and_decline(table: Table) -> None:
    await started(table, seed=5)
    await table.say("alice", "buy HB")
    await table.say("bob", "pass")
    ask = await table.say("alice", "undo")
    assert ask.outcome == Outcome.PENDING
    assert [(b.label, b.command, b.style) for b in ask.buttons] == [
        ("Approve", "approve 1", "success"),
        ("Decline", "decline 1", "danger"),
    ]
    (note,) = ask.notify
    assert [b.command for b in note.buttons] == ["approve 1", "decline 1"]
    assert (await table.say("carol", "approve 1")).outcome == Outcome.DENIED
    declined = await table.say("bob", ask.buttons[1].command)
    assert declined.ok and "declines request 1" in declined.text
    ask = await table.say("alice", "undo")
    assert (await table.say("bob", ask.buttons[0].command)).ok  # approve 2


# ---------------------------------------------------------------------- incidents


async def test_an_unexpected_error_is_an_incident_and_stores_nothing(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = await started(table, seed=5)
    service = table.service

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(service_mod, "translate", broken)
    reply = await table.say("alice", "buy HB")
    assert reply.outcome == Outcome.INTERNAL and reply.ephemeral and not reply.ok
    match = re.search(r"incident ([0-9a-f]{8})\)\. Nothing was stored\.", reply.text)
    assert match, reply.text
    assert match.group(1) in caplog.text and "boom" in caplog.text  # logged with the traceback
    assert await service.storage.last_seq(game_id) == 0
    assert service._cache.get(game_id) is None  # reloaded next time
    monkeypatch.undo()
    assert (await table.say("alice", "buy HB")).ok
    assert await service.storage.last_seq(game_id) == 1


async def test_an_error_after_storing_says_so_and_reloads_the_game(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await started(table, seed=5)
    service = table.service

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(service.pings, "track", broken)
    reply = await table.say("alice", "buy HB")
    assert reply.outcome == Outcome.INTERNAL and "after your move was stored" in reply.text
    assert service._cache.get(game_id) is None
    monkeypatch.undo()
    assert "Waiting for bob" in (await table.say("bob", "who")).text  # the stored move counts
    assert (await table.say("bob", "pass")).ok
