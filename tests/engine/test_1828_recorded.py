"""1828's title moves both ways between 18xx.games' name and ours (its recorded games replay in
test_recorded_games.py with every title's)."""

from __future__ import annotations

from engine.titles import title_class
from engine.titles.g1828.game import G1828


def test_title_names_map_both_ways() -> None:
    assert title_class("1828.Games") is G1828
    assert title_class("1828") is G1828
    assert G1828.EXPORT_TITLE == "1828.Games"
