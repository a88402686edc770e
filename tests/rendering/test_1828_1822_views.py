"""What the status card and its text say about 1828's systems and 1822's bid boxes, minors and majors.

Positions are prefixes of recorded games in ../shared/fixtures (never copied here).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from engine.core.statusbuild import status_view
from engine.core.viewbuild import board_view, hex_text, market_view
from engine.importer import parse_game_json, replay
from rendering import render_map, render_status, theme
from rendering.map import crowded_hexes
from rendering.status import corporation_lines, status_text
from tests.conftest import SHARED_FIXTURES, require_recorded


@cache
def _game(title: str, name: str, count: int) -> Any:
    require_recorded(title)
    doc = json.loads((SHARED_FIXTURES / title / name).read_text("utf-8"))
    return replay(parse_game_json({**doc, "actions": doc["actions"][:count]}))


def test_1822_bid_boxes_show_their_current_bids_and_the_rest_waits_in_one_line() -> None:
    view = status_view(_game("1822", "33845.json", 5))
    boxed = {c.sym: (c.high_bid, c.high_bidder) for c in view.companies if c.bid_box}
    assert boxed["M15"] == (100, "Player 1") and boxed["C1"] == (100, "Player 2")
    assert boxed["M6"] == (None, None)
    text = status_text(view)
    assert "M15 MINOR: 15. London Tilbury & Southend Railway: value £100, revenue £0, in a bid box, high bid " \
        "Player 1 £100" in text
    assert "waiting for a bid box: M23, M21," in text
    assert "not started: 1, 2, 3," in text and "$" not in text
    assert render_status(view).size[1] < 1400  # dozens of waiting companies do not make the card endless


def test_1822_minors_majors_and_currency() -> None:
    game = _game("1822", "33845.json", 900)
    view = status_view(game)
    kinds = {c.sym: c.kind for c in view.corporations if c.floated}
    assert kinds["23"] == "minor" and kinds["LNWR"] == "major"
    lnwr = next(c for c in view.corporations if c.sym == "LNWR")
    assert "2P" in lnwr.trains  # the permanent 2-train is listed like any other
    board = board_view(game)
    assert board.currency == "£%d"
    london = next(h for h in board.hexes if h.id == "M38")
    assert "£" in hex_text(london, board.currency) and "$" not in hex_text(london, board.currency)


def test_1828_systems_show_both_shells_and_their_coal() -> None:
    view = status_view(_game("1828", "23366.json", 480))
    system = next(c for c in view.corporations if c.sym == "PRR-MP")
    assert system.kind == "system"
    assert system.shells == (("PRR", ("3+D", "6")), ("MP", ()))
    assert system.markers == ("coal",)
    assert "system; shells PRR: 3+D, 6 / MP: none; coal" in status_text(view)
    assert any(line.startswith("  PRR-MP ") and line.endswith("; system; shells PRR: 3+D, 6 / MP: none; coal")
               for line in corporation_lines(view))  # the `companies` answer


def test_1828_map_view_has_blocking_markers_coal_and_the_closed_coalfields() -> None:
    game = _game("1828", "23366.json", 984)
    board = board_view(game)
    kinds = {k for h in board.hexes for n in h.nodes for k in n.token_kinds}
    assert "blocking" in kinds
    coalfields = next(h for h in board.hexes if h.name == "Virginia Coalfields")
    assert coalfields.passable_only_by is not None and "PRR-MP" in coalfields.passable_only_by
    tunnel = next(h for h in board.hexes if h.name == "Virginia Tunnel")
    assert tunnel.markers == ("coal",)
    systems = {sym for h in board.hexes for n in h.nodes for sym in n.tokens if sym and "-" in sym}
    assert {"PRR-MP", "GT-IC"} <= systems  # a system's stations carry its own symbol and colour
    assert all(sym in board.corporation_colours for sym in systems)
    market = market_view(game)
    assert market.kinds["PRR-MP"] == "system" and "B&O" not in market.kinds


def test_1822_london_gets_an_inset_and_destinations_are_marked() -> None:
    game = _game("1822", "33845.json", 1497)
    board = board_view(game)
    assert [h.id for h in crowded_hexes(board)] == ["M38"]
    destinations = [(h.id, sym) for h in board.hexes for n in h.nodes
                    for sym, kind in zip(n.tokens, n.token_kinds, strict=False) if kind == "destination"]
    assert ("M42", "LBSCR") in destinations
    market = market_view(game)
    assert market.kinds["23"] == "minor" and "LNWR" not in market.kinds
    image = render_map(board)
    # The inset sits in the open sea at the top right: its frame colour is there, and London's hex is framed too.
    frame = theme.rgb(theme.INSET_FRAME)
    top_right = image.crop((image.width - 460, 60, image.width - 30, 520))
    assert frame in {colour for _, colour in top_right.getcolors(1 << 20) or []}


def test_1822_destinations_still_to_reach_are_marked_on_their_hex() -> None:
    board = board_view(_game("1822", "33845.json", 700))
    waiting = {h.id: h.destinations for h in board.hexes if h.destinations}
    assert waiting["H5"] == ("NER",) and "M42" not in waiting  # LBSCR has placed its destination station
