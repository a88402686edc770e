"""A rules change under running games: a game keeps the rules edition it began under (stored with it), so a
game stored before its title had editions still replays as it was played, and export and import keep it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.core.replies import Outcome
from bot.core.service import GameService
from engine import title_class
from engine.importer import parse_game_json, replay
from tests.bot.conftest import FakeClock, Table, started
from tests.bot.test_broken_games import played, restart
from tests.bot.test_service import Driver


async def _export(table: Table, user: str = "alice") -> dict[str, object]:
    reply = await table.say(user, "export")
    assert reply.ok, reply.text
    (attachment,) = reply.attachments
    doc: dict[str, object] = json.loads(attachment.data)
    return doc


async def test_a_new_game_is_stored_with_its_titles_newest_edition(table: Table) -> None:
    game_id = await started(table)
    record = await table.service.storage.get_game(game_id)
    assert record.options["rules_edition"] == title_class("1882").RULES_EDITION == 2
    doc = await _export(table)
    assert doc["settings"]["roundhouse_rules_edition"] == 2  # type: ignore[index]


async def test_a_game_stored_before_editions_keeps_edition_1_through_restart_export_and_import(
    table: Table, settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    game_id, driver = await played(table, 40)
    # As stored by the bot before titles had editions: no rules_edition among the game's options.
    with sqlite3.connect(tmp_path / "bot.db") as con:
        (raw,) = con.execute("SELECT options FROM games WHERE id = ?", (game_id,)).fetchone()
        options = json.loads(raw)
        del options["rules_edition"]
        con.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(options), game_id))
    bot = restart(table.service, settings, clock)
    assert (await bot.say("alice", "status")).outcome == Outcome.OK
    doc = await _export(bot)
    assert doc["settings"]["roundhouse_rules_edition"] == 1  # type: ignore[index]
    game = replay(parse_game_json(doc))
    assert game.rules_edition == 1 and game.log_lines == driver.mirror.log_lines

    doc["id"] = 77
    service: GameService = bot.service
    (reply,) = await service.handle("test", "elsewhere", "carol", "carol", "import",
                                    attachments=[json.dumps(doc).encode()])
    assert reply.ok, reply.text
    imported = await service.storage.get_game(reply.game_id or 0)
    assert imported.options["rules_edition"] == 1


async def test_an_import_naming_an_unknown_edition_is_refused_and_nothing_stored(table: Table) -> None:
    await started(table)
    driver = Driver(table)
    for _ in range(5):
        await driver.step()
    doc = await _export(table)
    doc["settings"]["roundhouse_rules_edition"] = 9  # type: ignore[index]
    reply, = await table.service.handle("test", "other", "carol", "carol", "import",
                                        attachments=[json.dumps(doc).encode()])
    assert not reply.ok and "rules edition 9" in reply.text and "1 to 2" in reply.text
    assert reply.game_id is None


async def test_runs_recorded_on_18xx_games_stand_through_import_restart_and_export(
    table: Table, settings: Settings, clock: FakeClock
) -> None:
    # 18xx.games loads a recorded run with its recorded revenue, unchecked; so an 18xx.games file (no edition of
    # ours) imports with its runs as recorded, and the game keeps that through a restart and an export. A file
    # of ours is checked: there a revenue the route does not earn is refused.
    await played(table, 200)
    doc = await _export(table)
    actions: list[dict[str, Any]] = doc["actions"]  # type: ignore[assignment]
    run = next(a for a in actions if a["type"] == "run_routes" and len(a["routes"]) == 1)
    run["routes"][0]["revenue"] = 990  # no route of the first operating round earns that
    doc["id"] = 78
    ours = json.dumps(doc).encode()
    (refused,) = await table.service.handle("test", "ours", "carol", "carol", "import", attachments=[ours])
    assert not refused.ok and "earns" in refused.text

    del doc["settings"]["roundhouse_rules_edition"]  # type: ignore[attr-defined]
    (reply,) = await table.service.handle("test", "theirs", "carol", "carol", "import",
                                          attachments=[json.dumps(doc).encode()])
    assert reply.ok, reply.text
    imported = await table.service.storage.get_game(reply.game_id or 0)
    assert imported.options["recorded_runs"] is True
    theirs = Table(table.service, channel="theirs")
    assert (await theirs.say("dave", "join bob")).ok and (await theirs.say("carol", "join")).ok
    assert (await theirs.say("carol", "start")).ok
    bot = restart(table.service, settings, clock, channel="theirs")  # the stored log replays as imported
    assert (await bot.say("carol", "status")).outcome == Outcome.OK
    again = await _export(bot, "carol")
    assert again["settings"]["roundhouse_recorded_runs"] is True  # type: ignore[index]
    game = replay(parse_game_json(again))
    assert game.options["recorded_runs"] is True
