"""1862: routes entered as hex chains off the laid track are refused with the reason (core route entry)."""

from __future__ import annotations

from engine.titles import title_class
from tests.engine.route_entry_checks import check_off_track_refusals


def test_routes_entered_off_the_track_are_refused_with_the_reason() -> None:
    game = title_class("1862")([(1, "a"), (2, "b"), (3, "c"), (4, "d")], 5, {})
    assert game.board["A32"].tile.abs_paths() and not game.board["B31"].tile.abs_paths()
    check_off_track_refusals(game, ["A32", "B31"], ["A30", "A32"])
