"""Snapshots built from live games (engine/core/viewbuild.py) agree with the game and render."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import engine
from engine.core import actions as act
from engine.core.board import split_hex_id
from engine.core.game import Game
from engine.core.statusbuild import status_view
from engine.core.tiles import TokenKind
from engine.core.viewbuild import _walk, board_view, hex_text, market_view
from engine.core.views import BoardView, MarketView, StatusView
from engine.importer import read_game_file, replay
from engine.titles import title_class
from rendering import render_map, render_market, render_status, status_text
from tests.conftest import SHARED_FIXTURES, recorded_games

GAMES_1882 = recorded_games("1882")
LATE = SHARED_FIXTURES / "1882" / "5585.json"
needs_fixtures = pytest.mark.skipif(not LATE.exists(), reason=f"{LATE} is absent")


def prefix(path: Path, count: int) -> Game:
    """The game after its first ``count`` standing actions."""
    gf = read_game_file(path)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    kept = act.filter_undo(gf.actions)[:count]
    for action in kept:
        game._apply(action)
    game.raw_actions = list(kept)
    return game


def check_consistent(game: Game, board: BoardView, market: MarketView, status: StatusView) -> None:
    by_id = {h.id: h for h in board.hexes}
    assert set(by_id) == set(game.board.hexes)

    # Tiles: every laid tile by name and rotation, with its track; printed hexes have no tile name.
    for hx in game.board.hexes.values():
        h = by_id[hx.id]
        laid = hx.tile is not hx.original
        assert h.tile == (hx.tile.name if laid else None), hx.id
        assert h.colour == hx.tile.colour
        assert (h.row, h.col) == split_hex_id(hx.id)  # 1882: letters are rows
        assert len(h.paths) == len(hx.tile.tdef.paths)
        if laid:
            assert h.rotation == hx.tile.rotation
            assert h.terrain_cost == 0
        for n in h.nodes:
            if n.kind == "city":
                assert len(n.tokens) == len(n.reserved) == n.slots
                assert not any(t and r for t, r in zip(n.tokens, n.reserved, strict=True))

    # Tokens: each company's stations on the board are its used tokens; "CN" marks neutral stations
    # (they come and go with NWR and SC's home, so they are checked against the tiles instead).
    on_board = Counter(t for h in board.hexes for n in h.nodes for t in n.tokens if t)
    neutral = sum(k is TokenKind.NEUTRAL for hx in game.board.hexes.values() for kinds in hx.tile.kinds.values()
                  for k in kinds)
    assert on_board.pop("CN", 0) == neutral
    used = Counter(t.corp for c in game.corporations.values() for t in c.tokens if t.used and not t.neutral)
    assert on_board == used
    corps = {c.sym: c for c in status.corporations}
    for corp in game.corporations.values():
        own = [t for t in corp.tokens if not t.neutral]
        if corp.sym in corps:
            cs = corps[corp.sym]
            assert cs.tokens_total == len(own)
            assert cs.tokens_total - cs.tokens_left == on_board.get(corp.sym, 0)
            assert cs.treasury == corp.cash
            assert cs.trains == tuple(t.name for t in corp.trains)
        else:
            assert corp.closed

    # Market: every parred company exactly once, on its cell, stacks in operating order.
    stacked = [sym for stack in market.stacks.values() for sym in stack]
    assert sorted(stacked) == sorted(game.market.location)
    assert len(stacked) == len(set(stacked))
    for cell, stack in market.stacks.items():
        assert all(game.market.location[s].coords == cell for s in stack)
        assert list(stack) == sorted(stack, key=game.market.order_key)
        assert market.rows[cell[0]][cell[1]] == game.market.location[stack[0]].price
    floated = [c.sym for c in game.operating_order()]
    assert [c.sym for c in status.corporations if c.floated] == floated

    # Status: money and holdings.
    assert status.bank_cash == game.bank.cash
    players = {p.id: p for p in status.players}
    assert [p.name for p in status.players] == [p.name for p in game.players]
    for p in game.players:
        ps = players[str(p.id)]
        assert ps.cash == p.cash
        assert ps.value == game.player_value(p)
        assert sum(pct for _, pct in ps.shares) == sum(s.percent for s in p.shares)
        assert ps.priority == (p is game.players[0])
    assert sum(p.acting for p in status.players) == len(game.acting_players())
    assert status.finished == game.finished
    for sym, cs in corps.items():
        held = sum(pct for p in status.players for s, pct in p.shares if s == sym)
        assert held + cs.ipo_percent + cs.pool_percent == 100

    # Last routes: hex walks with no jumps.
    assert len(board.last_routes) == len(game.last_routes)
    for route in board.last_routes:
        assert route.train in {t.name for t in game.all_trains.values()}
        for a, b in zip(route.hexes, route.hexes[1:], strict=False):
            assert b in game.board.hexes[a].neighbors.values(), (route, a, b)


@pytest.fixture(scope="module")
def late() -> Game:
    if not LATE.exists():
        pytest.skip(f"{LATE} is absent")
    return replay(read_game_file(LATE))


@needs_fixtures
def test_late_game_views_match_the_game(late: Game) -> None:
    board, market, status = board_view(late), market_view(late), status_view(late)
    check_consistent(late, board, market, status)
    assert status.finished and status.game_end_reason == "the bank broke" and status.acting == ()
    assert board.current_offboard_colour == "brown" and board.phase_colours == ("yellow", "green", "brown")
    assert late.result() == {p.id: p.value for p in status.players}
    b2 = next(h for h in board.hexes if h.id == "B2")
    assert b2.nodes[0].revenue == 60 and b2.nodes[0].revenues_by_colour == (("yellow", 30), ("brown", 60))
    j10 = next(h for h in board.hexes if h.id == "J10")
    assert j10.tile == "R2" and j10.label == "R" and j10.nodes[0].tokens == ("GT", "QLL")
    assert hex_text(j10).startswith("J10 Pile o' Bones & Lumsden: tile R2 (brown")
    i5 = next(h for h in board.hexes if h.id == "I5")
    assert i5.nodes[0].tokens == ("CPR", "CN")
    assert [(r.train, r.revenue) for r in board.last_routes] == [("D", 610)]
    assert board.last_routes[0].hexes[0] == "B2" and board.last_routes[0].hexes[-1] == "B12"
    assert board_view(late) == board  # building a view changes nothing


@needs_fixtures
def test_early_game_shows_home_reservations_and_blocked_hexes() -> None:
    game = prefix(LATE, 60)  # stock round 2: CPR parred, not yet floated
    board, status = board_view(game), status_view(game)
    check_consistent(game, board, market_view(game), status)
    by_id = {h.id: h for h in board.hexes}
    assert by_id["I5"].nodes[0].reserved == ("CPR",) and by_id["I5"].nodes[0].tokens == (None,)
    assert by_id["D8"].nodes[0].reserved == ("CNR",)
    assert by_id["H4"].blocked_by == "SC" and by_id["G9"].blocked_by == "TB"
    assert {c.sym: c.floated for c in status.corporations}["CPR"] is False
    assert status.acting == ("Player 2",)
    assert status.trains_available[0].name == "2" and status.trains_available[0].remaining == 3


@pytest.mark.skipif(not GAMES_1882, reason=f"{SHARED_FIXTURES / '1882'} is absent")
@pytest.mark.parametrize("path", GAMES_1882, ids=lambda p: p.stem)
def test_views_stay_consistent_through_recorded_games(path: Path) -> None:
    gf = read_game_file(path)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    kept = act.filter_undo(gf.actions)
    for i, action in enumerate(kept, 1):
        game._apply(action)
        if i % 25 == 0 or i == len(kept):
            game.raw_actions = kept[:i]
            check_consistent(game, board_view(game), market_view(game), status_view(game))


@needs_fixtures
@pytest.mark.parametrize("count", [60, 300, None], ids=["early", "mid", "end"])
def test_views_render(count: int | None) -> None:
    game = prefix(LATE, count) if count else replay(read_game_file(LATE))
    img = render_map(board_view(game), scale=0.5)
    assert img.mode == "RGB" and img.width > 600
    assert render_market(market_view(game)).width >= 1440
    assert render_status(status_view(game)).width == 1280
    assert "Phase" in status_text(status_view(game))


def test_new_game_views() -> None:
    game = engine.new_game("1882", [(1, "Ann"), (2, "Ben"), (3, "Cy")])
    board, market, status = board_view(game), market_view(game), status_view(game)
    check_consistent(game, board, market, status)
    assert not any(h.tile for h in board.hexes) and market.stacks == {}
    assert status.round_name == "Auction Round" and status.acting == ("Ann",)
    assert [c.sym for c in status.corporations] == list(game.corporations)
    assert status.phase_notes[:3] == ("train limit 4", "yellow tiles", "1 OR per set")
    assert {t.name: t.remaining for t in status.trains_available} == {"2": 6}
    sides = {(s.a, s.b): s for s in board.hexsides}
    assert len(sides) == len({frozenset(k) for k in sides})
    assert any(s.kind == "impassable" for s in board.hexsides) and all(s.cost > 0 for s in board.hexsides
                                                                       if s.kind == "water")


def test_route_legs_are_chained_head_to_tail() -> None:
    legs = [["B2", "C3"], ["D4", "C3"], ["E5", "D4"], ["G7", "F6", "E5"]]
    assert _walk(legs) == ["B2", "C3", "D4", "E5", "F6", "G7"]
    assert _walk([["C3", "B2"], ["C3", "D4"]]) == ["B2", "C3", "D4"]
    assert _walk([["A1", "A3"]]) == ["A1", "A3"]
    assert _walk([]) == []
