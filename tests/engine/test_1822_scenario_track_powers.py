"""1822: where the privates' track powers lay (1822 rules, P2, P10-P12): P2 lays only its tiles, in place of a lay
its company has left; P12's lays and upgrade are counted; P10 lays across an estuary with a tile that exists; P11
upgrades plain track of the newest colour, a minor's only from yellow. Positions of the recorded 1822+ game
(../shared/fixtures/1822/33845.json), in the green phase."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.titles.g1822.game import G1822
from engine.titles.g1822.state import newest_colour
from engine.titles.g1822.track_powers import track_power, track_power_allows, track_uses
from tests.engine.test_1822_rules import PLUS_GAME, recorded_until


def _position() -> G1822:
    assert PLUS_GAME is not None, "the recorded 1822+ game 33845 is missing"
    game, _ = recorded_until(974)
    assert newest_colour(game) == "green"
    return game


def _allows(game: G1822, company: str, corp: str, hex_id: str, tile: str, rotation: int = 0) -> bool:
    c = game.companies[company]
    return track_power_allows(game, c, game.corporations[corp], track_power(game, c),
                              {"hex": hex_id, "tile": tile, "rotation": rotation})


def test_p12_lays_and_upgrades_only_while_it_has_uses_left() -> None:
    game = _position()
    p12 = game.companies["P12"]
    assert track_uses(game, p12) == {"count": 0, "lay": 0, "upgrade": 0}  # CR used it up (action 569 on)
    white, yellow = "F3", "E8"
    assert game.board[white].tile.colour == "white" and game.board[yellow].tile.colour == "yellow"
    assert not _allows(game, "P12", "CR", white, "7-0")
    assert not _allows(game, "P12", "CR", yellow, "14-0")
    game.track_left["P12"] = {"count": 1, "lay": 1, "upgrade": 0}
    assert _allows(game, "P12", "CR", white, "7-0")  # a lay left, on CR's network
    assert not _allows(game, "P12", "CR", yellow, "14-0")  # but no upgrade
    assert not _allows(game, "P12", "CR", "Z99", "7-0")  # no such hex


def test_p10_lays_only_a_tile_that_exists_across_an_estuary() -> None:
    game = _position()
    assert not _allows(game, "P10", "CR", "F3", "NOPE-0")


def test_p11_upgrades_a_minors_plain_track_only_from_yellow() -> None:
    game = _position()
    assert (game.board["N35"].tile.name, game.board["N35"].tile.colour) == ("81", "green")
    assert not _allows(game, "P11", "7", "N35", "544-0")  # minor 7 reaches N35, but its track there is green


def _p2(game: G1822, hex_id: str, tile: str, rotation: int) -> None:
    game.process({"type": "lay_tile", "entity": "P2", "entity_type": "company", "hex": hex_id, "tile": tile,
                  "rotation": rotation})


def test_p2_lays_only_its_tiles_and_in_place_of_a_lay_its_company_has_left() -> None:
    assert PLUS_GAME is not None, "the recorded 1822+ game 33845 is missing"
    game, rest = recorded_until(969)  # LNWR's track step; it owns P2
    upgrade = {"type": "lay_tile", "entity": "P2", "entity_type": "company", "hex": "E8", "tile": "80-0",
               "rotation": 3}
    assert upgrade in query.choices(game, game.companies["P2"], "lay_tile")
    with pytest.raises(GameError, match="P2 cannot lay that tile there"):
        _p2(game, "E8", "57-0", 0)  # not one of P2's tiles
    game.process(rest[0])  # LNWR lays yellow at J25: its upgrade is gone
    assert query.choices(game, game.companies["P2"], "lay_tile") == []
    with pytest.raises(GameError, match="LNWR has no tile lay of that kind left for P2 to use"):
        game.process(upgrade)
