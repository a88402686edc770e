"""1830: Dunkirk & Buffalo (E11) is the Erie's home, in whichever of its two cities the president chooses. Until the
Erie places that station, no other company may place one in either city (18xx.games blocks the whole hex in 1830;
oracle game 1830-p2-steady-s120215, action 320, where the C&O placed one in a green Dunkirk & Buffalo). Games begun
under rules edition 1 keep the old reading: one free space held for the Erie."""

from __future__ import annotations

from engine.core.game import Game
from engine.core.tiles import Tile
from engine.core.track import legal_rotations
from engine.titles import title_class


def _green_buffalo(options: dict[str, object]) -> Game:
    """A three-player 1830 with green tile 59 (two one-space cities) on Dunkirk & Buffalo, no station in it."""
    game = title_class("1830")([(1, "a"), (2, "b"), (3, "c")], 5, options)
    hx = game.board["E11"]
    green = game.tile_supply["59-0"]
    rotation = legal_rotations(game, hx, green.tdef, None)[0]
    hx.tile = Tile(green.id, green.tdef, rotation)
    assert sorted(hx.tile.tokens) == [0, 1] and all(slots == [None] for slots in hx.tile.tokens.values())
    return game


def test_no_other_company_stations_in_dunkirk_or_buffalo_before_the_erie_home() -> None:
    game = _green_buffalo({})
    hx = game.board["E11"]
    co, erie = game.corporations["C&O"], game.corporations["ERIE"]
    assert not erie.tokens[0].used
    assert [game.can_token_city(co, hx, node) for node in (0, 1)] == [False, False]
    assert [game.can_token_city(erie, hx, node) for node in (0, 1)] == [True, True]
    # Once the Erie's home stands in one city, the other city is open to the rest.
    game.track.place_token(erie, erie.tokens[0], hx, 0, free=True)
    assert [game.can_token_city(co, hx, node) for node in (0, 1)] == [False, True]


def test_edition_1_games_hold_only_one_space_for_the_erie() -> None:
    game = _green_buffalo({"rules_edition": 1})
    hx = game.board["E11"]
    co = game.corporations["C&O"]
    assert game.rules_edition == 1
    assert [game.can_token_city(co, hx, node) for node in (0, 1)] == [True, True]
