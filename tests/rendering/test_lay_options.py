"""Golden pictures of "what fits here" (``lay HEX``) for a few hexes of every title, picked from the data:
the plain hex with the most yellow options, a city hex, a hex with a printed terrain cost, and a hex that
a neighbour's track runs up to."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.core import statusbuild, viewbuild
from engine.core.track import legal_rotations
from rendering.lay_options import LayOption, render_lay_options
from tests.rendering.imagecompare import assert_matches_golden


def _options(game: Any, hex_id: str) -> list[tuple[str, int, str]]:
    hx = game.board.hexes[hex_id]
    out = []
    seen: set[str] = set()
    for tile in game.tile_supply.values():
        if tile.colour not in game.phase["tiles"] or tile.name in seen:
            continue
        seen.add(tile.name)
        out.extend((tile.id, r, tile.name) for r in legal_rotations(game, hx, tile.tdef, None))
    return out


def _picked_hexes(game: Any) -> list[str]:
    """Three kinds of hex, each the first in board order with the most options of its kind."""
    hexes = [h for h in game.board.hexes.values() if _options(game, h.id)]
    def reached(h: Any) -> bool:
        return any((e + 3) % 6 in game.board.hexes[nb].tile.exits() for e, nb in h.neighbors.items())

    kinds = (
        lambda h: not h.tile.tdef.nodes and not h.terrain_cost,
        lambda h: bool(h.tile.tdef.cities),
        lambda h: bool(h.terrain_cost),
        reached,  # track in a neighbour runs up to it: drawn as stubs beside every candidate
    )
    picked: list[str] = []
    for kind in kinds:
        fitting = [h for h in hexes if kind(h) and h.id not in picked]
        if fitting:
            picked.append(max(fitting, key=lambda h: len(_options(game, h.id))).id)
    return picked


CASES = [
    (title, hex_id)
    for title in sorted(engine.TITLES)
    for hex_id in _picked_hexes(engine.new_game(title, [(i, f"P{i}") for i in range(1, 5)]))
]


@pytest.mark.parametrize(("title", "hex_id"), CASES)
def test_lay_options_picture(title: str, hex_id: str) -> None:
    game = engine.new_game(title, [(i, f"P{i}") for i in range(1, 5)])
    board = viewbuild.board_view(game)
    current = next(h for h in board.hexes if h.id == hex_id)
    options = [
        LayOption(viewbuild.lay_option_view(game, hex_id, tile_id, r), f"lay {hex_id} {name} {r}", "free")
        for tile_id, r, name in _options(game, hex_id)[:15]
    ]
    hx = game.board.hexes[hex_id]
    beyond = [e for e, nb in hx.neighbors.items() if (e + 3) % 6 in game.board.hexes[nb].tile.exits()]
    image = render_lay_options(board.title, board.layout, current, options,
                               colours=board.corporation_colours, text_colours=board.corporation_text_colours,
                               track_beyond=beyond)
    assert_matches_golden(image, f"lay_options_{title}_{hex_id}")


def test_every_title_has_pictured_hexes() -> None:
    for title in engine.TITLES:
        assert any(t == title for t, _ in CASES), f"{title}: no hex with a yellow lay on the first board"


def test_the_money_sign_comes_from_the_view() -> None:
    from dataclasses import replace

    from PIL import ImageChops

    from rendering import render_status, status_text

    view = statusbuild.status_view(engine.new_game("1882", [(1, "A"), (2, "B"), (3, "C")]))
    pounds = replace(view, currency="£%d")
    assert "Bank £" in status_text(pounds) and "Bank $" in status_text(view)
    assert ImageChops.difference(render_status(view), render_status(pounds)).getbbox() is not None
