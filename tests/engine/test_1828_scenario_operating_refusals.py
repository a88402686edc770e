"""1828 operating-turn moves refused, on the recorded game's systems: a second lay in the hex just laid, a station
in the Virginia Coalfields (rules 16: no company may token there) and a swap of a train the system does not own."""

from __future__ import annotations

import pytest

from engine.core.errors import GameError
from tests.engine.test_1828_rules import GAME_A, GAME_B, before

pytestmark = pytest.mark.skipif(not (GAME_A.exists() and GAME_B.exists()), reason="1828 recorded games absent")

FIRST_LAY = {"type": "lay_tile", "entity": "CPR-MC", "entity_type": "system", "hex": "D6", "tile": "14-2",
             "rotation": 1}  # id 274 of the recorded game
SECOND_LAY = {"type": "lay_tile", "entity": "CPR-MC", "entity_type": "system", "hex": "B18", "tile": "9-4",
              "rotation": 1}  # id 275


def test_a_system_may_not_lay_its_second_tile_in_the_hex_it_just_laid() -> None:
    game = before(GAME_A, 275)
    assert game.board["D6"].tile.id == "14-2"
    with pytest.raises(GameError, match="D6 already had a tile laid this turn"):
        game.process({**SECOND_LAY, "hex": "D6"})
    game.process(SECOND_LAY)  # elsewhere the second lay is fine
    assert game.board["B18"].tile.id == "9-4"


def test_no_station_may_be_placed_in_the_virginia_coalfields() -> None:
    game = before(GAME_A, 275)
    game.process(SECOND_LAY)
    system = game.corporations["CPR-MC"]
    free_before = len(system.unused_tokens())
    coalfields = game.board[game.coal["coalfields"]]
    with pytest.raises(GameError, match="the Virginia Coalfields may not be tokened"):
        game.process({"type": "place_token", "entity": "CPR-MC", "entity_type": "system",
                      "city": f"{coalfields.tile.id}-0", "slot": 0})
    system = game.corporations["CPR-MC"]
    assert len(system.unused_tokens()) == free_before
    assert all(t is None for t in game.board[game.coal["coalfields"]].tile.tokens[0])


def test_a_system_swaps_only_its_own_trains_between_its_shells() -> None:
    game = before(GAME_A, 474)
    system = game.corporations["CPR-MC"]
    assert [t.id for t in system.trains] == ["3+D-1", "6-0"]
    with pytest.raises(GameError, match="CPR-MC does not own train 2-0"):
        game.process({"type": "swap_train", "entity": "CPR-MC", "entity_type": "system", "train": "2-0"})
    with pytest.raises(GameError, match="CPR-MC does not own train 9-9"):
        game.process({"type": "swap_train", "entity": "CPR-MC", "entity_type": "system", "train": "9-9"})
