"""Pictures for phones in the chat: a crop after a tile lay or a station, crops on demand (``map HEX``,
``map COMPANY``), charts (``chart``) and the end-of-game summary (``summary``)."""

from __future__ import annotations

import io

from PIL import Image

from bot.core.intents import to_command
from tests.bot.conftest import Table
from tests.bot.ux_helpers import driven, in_lay_step, lay_choices


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
