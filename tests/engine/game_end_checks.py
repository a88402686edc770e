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


def check_messages_name_entities_and_unknown_tiles(game: Game) -> None:
    """Messages name a player by name, a company or private by its symbol, anything else as it prints; a tile
    the supply never held is refused by name."""
    player = game.players[0]
    corp = next(iter(game.corporations.values()))
    company = next(iter(game.companies.values()))
    assert game.describe(player) == player.name
    assert game.describe(corp) == corp.sym
    assert game.describe(company) == company.sym
    assert game.describe("the Conductor") == "the Conductor"  # not an entity: named as given
    with pytest.raises(GameError, match="tile 9999-0 is not available"):
        game.track.tile_from_supply("9999-0")
