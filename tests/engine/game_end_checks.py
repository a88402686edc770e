"""Shared check, on a title's fresh game: a game ended by agreement (``end_game``) takes no further move and
offers nothing (core game and query); before it ends, no step offers a tile lay during the opening auction."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import ErrorCode, GameError
from engine.core.game import Game


def check_ended_game_takes_no_move(game: Game) -> None:
    player = game.acting()[0]
    assert query.step_for(game, player, "lay_tile") is None  # the opening auction lays no track
    game.process({"type": "end_game", "entity": player.id, "entity_type": "player"})
    assert game.finished and game.log_lines[-1] == "-- Game over: manually_ended --"
    with pytest.raises(GameError, match="the game is over") as caught:
        game.process({"type": "pass", "entity": player.id, "entity_type": "player"})
    assert caught.value.code is ErrorCode.GAME_OVER
    assert query.choices(game, player, "pass") == []
    assert query.step_for(game, player, "pass") is None
