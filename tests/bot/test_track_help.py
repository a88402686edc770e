"""Deciding a tile lay from what the bot shows: ``lay HEX``/``moves HEX`` list every tile and rotation with
its cost and draw them; ``moves`` is grouped, filterable and complete on request; the map outlines where the
acting company may lay; ``help lay`` explains rotations."""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.core import images
from bot.core.intents import to_command
from bot.core.replies import Outcome
from engine.core import query
from tests.bot.conftest import Table
from tests.bot.ux_helpers import driven, in_lay_step, lay_choices


def _several_hexes(game: Any) -> bool:
    return in_lay_step(game) and len({c["hex"] for c in lay_choices(game)}) >= 3


async def test_lay_hex_lists_every_tile_and_rotation_with_its_cost(table: Table) -> None:
    game = await driven(table)
    await game.until(_several_hexes)
    user, mirror = game.acting_user(), game.mirror
    corp = next(e for e in mirror.acting() if "lay_tile" in mirror.actions_for(e))
    choices = lay_choices(mirror)
    for hex_id in sorted({c["hex"] for c in choices}):
        reply = await table.say(user, f"lay {hex_id}")
        assert reply.ok and reply.ephemeral, reply.text
        here = [c for c in choices if c["hex"] == hex_id]
        listed = [line.strip() for line in reply.text.splitlines() if line.strip().startswith("`")]
        # Every legal lay of the hex, once each, with its cost as the engine reckons it.
        assert len(listed) == len(here)
        for choice in here:
            cost = query.lay_cost(mirror, corp, choice).total
            price = "free" if cost == 0 else f"${cost}"
            assert any(line.startswith(f"`{to_command(mirror, choice)}` {price}") for line in listed), listed
        assert "clockwise" in reply.text and "0 S" in reply.text
        # moves HEX answers the same.
        assert (await table.say(user, f"moves {hex_id}")).text == reply.text
    elsewhere = next(h for h in mirror.board.hexes if h not in {c["hex"] for c in choices})
    reply = await table.say(user, f"lay {elsewhere}")
    assert f"No tile fits on {elsewhere}" in reply.text and "you can lay on:" in reply.text
    # Nothing was stored by asking.
    assert len(await table.service.storage.load_actions(1)) == len(mirror.raw_actions)


async def test_the_options_picture_draws_each_candidate(table: Table) -> None:
    game = await driven(table)
    await game.until(in_lay_step)
    hex_id = lay_choices(game.mirror)[0]["hex"]
    table.service.images = True
    reply = await table.say(game.acting_user(), f"lay {hex_id}")
    [picture] = reply.images
    assert picture.filename == f"game1-tiles-{hex_id}.png"
    n = len([c for c in lay_choices(game.mirror) if c["hex"] == hex_id])
    import io

    with Image.open(io.BytesIO(picture.data)) as img:
        # One cell for the hex as it is, one per candidate, five to a row.
        cells = n + 1
        assert img.size[0] >= 200 * min(5, cells) and img.size[1] >= 196 * -(-cells // 5)


async def test_a_lay_costs_its_fee_before_it_is_paid(table: Table) -> None:
    """The second yellow lay's fee (1882: $20) shows in `moves` before the lay is made."""
    game = await driven(table, seed=11)

    def second_lay(g: Any) -> bool:
        if not in_lay_step(g):
            return False
        corp = next(e for e in g.acting() if "lay_tile" in g.actions_for(e))
        return any(query.lay_cost(g, corp, c).fee for c in lay_choices(g))

    await game.until(second_lay)
    reply = await table.say(game.acting_user(), "moves")
    assert "$20 (lay fee)" in reply.text or "lay fee $20" in reply.text, reply.text


async def test_moves_are_grouped_filtered_and_complete_when_asked(table: Table) -> None:
    game = await driven(table, ("alice", "bob", "carol"))

    def many_pars(g: Any) -> bool:
        return g.round.name().startswith("Stock") and any("par" in g.actions_for(e) for e in g.acting())

    await game.until(many_pars)
    user, mirror = game.acting_user(), game.mirror
    reply = await table.say(user, "moves")
    par_lines = [line for line in reply.text.splitlines() if ": par " in line]
    pars = [c for e in mirror.acting() for c in query.choices(mirror, e, "par")]
    corps = {c["corporation"] for c in pars}
    # One line per set of par prices, naming each company once.
    assert sum(line.count("/") + 1 for line in par_lines) == len(corps)
    assert len(par_lines) <= len(corps)
    one = sorted(corps)[0]
    only = await table.say(user, f"moves {one}")
    assert one in only.text and all(
        one in line for line in only.text.splitlines()[1:]
    ), only.text
    refused = await table.say(user, "moves XYZZY")
    assert refused.outcome == Outcome.MALFORMED
    everything = await table.say(user, "moves all")
    assert "more:" not in everything.text and "more hexes" not in everything.text

    await game.until(_several_hexes)
    mirror, user = game.mirror, game.acting_user()
    reply = await table.say(user, "moves")
    hexes = {c["hex"] for c in lay_choices(mirror)}
    lay_lines = [line for line in reply.text.splitlines() if " lay " in line]
    assert len(lay_lines) == min(len(hexes), 12)  # one line per hex


async def test_help_lay_explains_rotations(table: Table) -> None:
    text = (await table.say("alice", "help lay")).text
    assert "clockwise" in text and "0 S, 1 SW, 2 NW, 3 N, 4 NE, 5 SE" in text and "`lay E9`" in text


async def test_the_map_outlines_where_the_acting_company_may_lay(table: Table) -> None:
    game = await driven(table)
    await game.until(in_lay_step)
    mirror = game.mirror
    views = images.take_views(mirror, 1, 1, ("map",))
    assert views is not None
    board = views.views["map"]
    assert set(board.highlight_hexes) == {c["hex"] for c in lay_choices(mirror)}
    assert "may lay here" in board.highlight_note
    await game.until(lambda g: not in_lay_step(g))
    views = images.take_views(game.mirror, 1, 1, ("map",))
    assert views is not None and views.views["map"].highlight_hexes == ()
