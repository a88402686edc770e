"""1828: the lays the C&StL and the E&K give their companies (rules 13.2), on positions of the recorded game
../shared/fixtures/1828/23366.json: the C&StL's lay takes only its tiles; the E&K's extra yellow lay costs $20,
comes only when the company has not upgraded this turn, and keeps the track step open after the company's own lay
without giving it a second one."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.titles.g1828.game import G1828
from tests.engine.test_1828_rules import GAME_A, before


def _position(action_id: int) -> G1828:
    assert GAME_A.exists(), f"the recorded game {GAME_A} is missing"
    return before(GAME_A, action_id)


def _tile(game: G1828, name: str) -> str:
    return next(t.id for t in game.tile_supply.values() if t.name == name)


def test_the_c_and_stl_lays_only_its_own_tiles_in_burlington() -> None:
    game = _position(90)  # CPR owns the C&StL and operates
    cstl = game.companies["C&StL"]
    assert {game.track.tile_from_supply(c["tile"]).name for c in query.all_choices(game, cstl)} == {"3", "4", "58"}
    with pytest.raises(GameError, match="C&StL lays only tiles 3, 4, 58"):
        game.process({"type": "lay_tile", "entity": "C&StL", "entity_type": "company", "hex": "B24",
                      "tile": _tile(game, "57"), "rotation": 0})


def _gt_after_the_e_and_k_lay_at_adrian() -> G1828:
    """GT has just bought the E&K (action 126) and laid its tile at E7; its own track step comes next."""
    game = _position(127)
    ek = game.companies["E&K"]
    game.process(query.all_choices(game, ek)[0])
    assert game.round.entity() is game.corporations["GT"] and game.actions_for(ek) == ["lay_tile"]
    return game


def _ek_lay(hex_id: str, tile: str, rotation: int) -> dict[str, object]:
    return {"type": "lay_tile", "entity": "E&K", "entity_type": "company", "hex": hex_id, "tile": tile,
            "rotation": rotation}


def test_the_e_and_k_extra_lay_is_not_offered_after_an_upgrade_and_is_refused() -> None:
    game = _gt_after_the_e_and_k_lay_at_adrian()
    ek = game.companies["E&K"]
    [yellow] = [c for c in query.all_choices(game, ek) if (c["hex"], c["tile"]) == ("B6", "7-2")][:1]
    game.process({"type": "lay_tile", "entity": "GT", "entity_type": "corporation", "hex": "D6", "tile": "14-0",
                  "rotation": 0})  # GT's one lay, an upgrade
    assert query.all_choices(game, ek) == []
    with pytest.raises(GameError, match="cannot use E&K after a tile upgrade"):
        game.process(yellow)
    # The E&K keeps GT's track step open, but GT itself has no lay left (a refusal restores the position from a
    # snapshot, so entities are looked up again).
    assert "lay_tile" in game.actions_for(game.corporations["GT"])
    with pytest.raises(GameError, match="GT has no tile lay left this turn"):
        game.process({"type": "lay_tile", "entity": "GT", "entity_type": "corporation", "hex": "B6",
                      "tile": "7-2", "rotation": 5})


def test_the_e_and_k_extra_lay_costs_20_from_the_treasury() -> None:
    game = _gt_after_the_e_and_k_lay_at_adrian()
    gt = game.corporations["GT"]
    bank, terrain = game.bank.cash, game.board["B6"].terrain_cost
    assert terrain == 80
    game.process(_ek_lay("B6", "7-2", 5))  # the fee and the terrain
    assert gt.cash == 310 - 20 - 80 and game.bank.cash == bank + 100 and game.board["B6"].tile.id == "7-2"

    poor = _gt_after_the_e_and_k_lay_at_adrian()
    poor.corporations["GT"].cash = 19
    poor._checkpoint = None  # a refusal restores this position
    assert query.all_choices(poor, poor.companies["E&K"]) == []
    with pytest.raises(GameError, match=r"GT cannot pay \$20 for this lay"):
        poor.process(_ek_lay("B6", "7-2", 5))
    assert poor.board["B6"].tile is poor.board["B6"].original
