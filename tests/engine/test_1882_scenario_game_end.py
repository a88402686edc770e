"""1882: a game ended by agreement takes no further move and offers nothing."""

from __future__ import annotations

from engine.titles import title_class
from tests.engine.game_end_checks import check_ended_game_takes_no_move


def test_a_game_ended_by_agreement_takes_no_further_move() -> None:
    check_ended_game_takes_no_move(title_class("1882")([(i, chr(96 + i)) for i in range(1, 3 + 1)], 5, {}))
