"""Pictures for phones in the chat: a crop after a tile lay or a station, crops on demand (``map HEX``,
``map COMPANY``), charts (``chart``) and the end-of-game summary (``summary``)."""

from __future__ import annotations

import io
import json
from dataclasses import replace

from PIL import Image

from bot.core.intents import to_command
from engine.importer import read_game_file, replay
from tests.bot.conftest import Table
from tests.bot.ux_helpers import driven, in_lay_step, lay_choices
from tests.conftest import SHARED_FIXTURES

GAME_END = SHARED_FIXTURES / "1882" / "1882_game_end_stock_market.json"


def _kinds(names: list[str]) -> list[str]:
    return [n.rsplit("-", 1)[-1].removesuffix(".png") for n in names]


async def test_a_tile_lay_is_answered_with_a_crop_and_the_map_stays_whole(table: Table) -> None:
    game = await driven(table)
    await game.until(in_lay_step)
    table.service.images = True
    choice = lay_choices(game.mirror)[0]
    reply = await table.say(game.acting_user(), to_command(game.mirror, choice))
    assert reply.ok, reply.text
    names = [a.filename for a in reply.images]
    assert "crop" in _kinds(names) and "map" not in _kinds(names), names
    crop = next(a for a in reply.images if a.filename.endswith("-crop.png"))
    with Image.open(io.BytesIO(crop.data)) as img:
        assert 700 <= img.width <= 1000  # about three hexes at twice the map's scale
    whole = await table.say("alice", "map")
    [picture] = whole.images
    with Image.open(io.BytesIO(picture.data)) as img:
        assert img.width >= 1200


async def _nearly_finished(table: Table) -> str:
    """The recorded 1882 game imported up to its last move; returns the user who makes it (`pass`)."""
    doc = json.loads(GAME_END.read_text())
    doc["actions"] = [a for a in doc["actions"] if int(a["id"]) < 934]
    doc["status"] = "active"
    (reply,) = await table.service.handle(table.platform, table.channel, "u1", "u1", "import",
                                          attachments=[json.dumps(doc).encode()])
    assert reply.ok, reply.text
    for i in range(1, 6):
        assert (await table.say(f"u{i}", f"join Player {i}")).ok
    assert (await table.say("u1", "start")).ok
    mirror = replay(replace(read_game_file(GAME_END), actions=doc["actions"]))
    owner = mirror.corporations["HBR"].owner
    return f"u{owner.name.split()[-1]}"


async def test_the_last_move_brings_the_summary_and_summary_shows_it_again(table: Table) -> None:
    last = await _nearly_finished(table)
    before = await table.say("u1", "summary")
    assert not before.ok and "not over yet" in before.text
    table.service.images = True
    reply = await table.say(last, "pass")
    assert reply.ok, reply.text
    assert "Final worth:" in reply.text and "Best run: " in reply.text and "Median time to move: " in reply.text
    assert "u3 $4932 (cash $2988, shares $1944)" in reply.text  # Player 3 won; seats carry the chat names
    kinds = _kinds([a.filename for a in reply.images])
    assert "summary" in kinds and "all" in kinds, kinds
    again = await table.say("u2", "summary")
    assert again.ok and "wins with $4932" in again.text and "Longest stock hold" in again.text
    assert len(again.images) == 2
    numbered = await table.say("u2", f"summary #{reply.game_id}")
    assert numbered.text == again.text


async def test_chart_draws_one_or_all_and_refuses_other_words(table: Table) -> None:
    await _nearly_finished(table)
    table.service.images = True
    reply = await table.say("u1", "chart")
    [picture] = reply.images
    with Image.open(io.BytesIO(picture.data)) as img:
        assert img.size == (1200, 1860)
    prices = await table.say("u1", "chart prices")
    [picture] = prices.images
    with Image.open(io.BytesIO(picture.data)) as img:
        assert img.size == (1200, 660)
    assert "Share prices" in prices.text
    wrong = await table.say("u1", "chart weather")
    assert not wrong.ok and "value, prices or revenue" in wrong.text


async def test_map_of_a_hex_or_a_company_is_a_crop(table: Table) -> None:
    await _nearly_finished(table)
    table.service.images = True
    hex_crop = await table.say("u1", "map g11")
    assert "around G11" in hex_crop.text and _kinds([a.filename for a in hex_crop.images]) == ["crop"]
    network = await table.say("u1", "map CPR")
    assert "of CPR" in network.text and len(network.images) == 1
    wrong = await table.say("u1", "map XYZ")
    assert not wrong.ok and "a hex" in wrong.text and "CPR" in wrong.text


async def test_a_server_without_pictures_still_sends_the_summary_text(table: Table) -> None:
    last = await _nearly_finished(table)
    table.service.images = False
    reply = await table.say(last, "pass")
    assert "Final worth:" in reply.text and "Longest stock hold: " in reply.text
    assert reply.images == []
