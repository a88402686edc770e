"""What a tile lay would cost and look like, asked before it is made (nothing in the game changes)."""

from __future__ import annotations

import engine
from engine.core import query, statusbuild, viewbuild
from engine.core.track import legal_rotations


def _game() -> engine.Game:
    return engine.new_game("1882", [(1, "Ann"), (2, "Ben"), (3, "Cy")])


def test_lay_cost_counts_printed_terrain_and_nothing_on_plain_ground() -> None:
    g = _game()
    corp = next(iter(g.corporations.values()))
    rough = next(h for h in g.board.hexes.values() if h.terrain_cost and h.tile is h.original)
    plain = next(h for h in g.board.hexes.values() if not h.terrain_cost and not h.borders and h.tile.tdef.paths == ())
    for hx, terrain in ((rough, rough.terrain_cost), (plain, 0)):
        tile = next(t for t in g.tile_supply.values() if legal_rotations(g, hx, t.tdef, None))
        rot = legal_rotations(g, hx, tile.tdef, None)[0]
        cost = query.lay_cost(g, corp, {"hex": hx.id, "tile": tile.id, "rotation": rot})
        assert cost.terrain == terrain and cost.fee == 0 and cost.total == terrain + cost.river


def test_option_view_turns_the_tile_and_leaves_the_game_alone() -> None:
    g = _game()
    hx = g.board.hexes["H8"]
    tile = next(t for t in g.tile_supply.values() if t.name == "7")
    before = viewbuild.board_view(g)
    views = [viewbuild.lay_option_view(g, "H8", tile.id, r) for r in range(6)]
    edges = [sorted(int(e[1:]) for p in v.paths for e in (p.a, p.b) if e.startswith("e")) for v in views]
    # Tile 7 joins two neighbouring edges; each rotation moves both one edge clockwise.
    assert edges[0] == [0, 1] and edges[1] == [1, 2] and edges[5] == [0, 5]
    assert all(v.tile == "7" and v.colour == "yellow" and v.rotation == r for r, v in enumerate(views))
    assert viewbuild.board_view(g) == before and hx.tile is hx.original and tile.rotation == 0


def test_views_carry_the_titles_money_format() -> None:
    g = _game()
    assert viewbuild.board_view(g).currency == g.config.currency == "$%d"
    assert viewbuild.market_view(g).currency == statusbuild.status_view(g).currency == "$%d"
