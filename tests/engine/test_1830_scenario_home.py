"""1830: the NYNH's home is a city of New York (G19, two cities); when New York is upgraded before the NYNH places
its station, the home follows its printed city to the new tile's city that keeps its exits (18xx.games moves the
reservation with that city)."""

from __future__ import annotations

from engine.core.tiles import NODE_BASE, Tile
from engine.core.track import legal_rotations
from engine.titles import title_class


def _exits(tile: Tile, node: int) -> set[int]:
    """The map edges the track of city ``node`` of ``tile`` leads to."""
    return {a if b == NODE_BASE + node else b for a, b in tile.abs_paths() if NODE_BASE + node in (a, b)
            and min(a, b) < NODE_BASE}


def test_the_nynh_home_follows_its_printed_city_through_an_upgrade_of_new_york() -> None:
    game = title_class("1830")([(1, "a"), (2, "b"), (3, "c")], 5, {})
    nynh = game.corporations["NYNH"]
    ny = game.board["G19"]
    assert (nynh.home, nynh.home_city, ny.tile.tdef.cities) == ("G19", 0, (0, 1))
    assert game.home_node(nynh, ny) == 0  # the printed tile: its first city
    printed_exits = _exits(ny.tile, 0)
    green = game.tile_supply["54-0"]
    assert legal_rotations(game, ny, green.tdef, None) == [0]
    ny.tile = Tile(green.id, green.tdef, 0)
    assert game.home_node(nynh, ny) == 1  # the green tile's city that keeps the printed city's exit
    assert printed_exits == {3} and printed_exits <= _exits(ny.tile, 1)
    assert not printed_exits <= _exits(ny.tile, 0)
