"""1882: the neutral station that replaces a home station moved by the NWR is a CN marker like any other.

Oracle game 1882-p2-random-s120030 (our playout, kept up to action 506): in Operating Round 2 the NWR moved QLL's
home station out of Wayburn & Estevan (M11, two cities, no track) and a neutral station took its space. When QLL
laid track there (tile 59) the engine stopped with an internal error, since no CN marker stood behind that space.
18xx.games (like the printed rules, silent on it) asks the layer to choose the city of every station on a trackless
two-city hex that track reaches, the neutral one too."""

from __future__ import annotations

from pathlib import Path

from engine.core import actions as act
from engine.core import query
from engine.core.entities import Corporation
from engine.core.game import Game
from engine.importer import read_game_file
from engine.titles import title_class

GAME = Path(__file__).parent / "data" / "1882_neutral_station_rechosen.json"


def _game() -> Game:
    gf = read_game_file(GAME)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    for action in act.filter_undo(gf.actions):
        game.process(action)
    return game


def test_track_on_a_trackless_two_city_hex_asks_where_its_neutral_station_goes() -> None:
    game = _game()
    assert game.board.hexes["M11"].tile.tokens == {0: [None], 1: ["CN"]}
    game.process({"type": "lay_tile", "entity": "QLL", "entity_type": "corporation", "hex": "M11", "tile": "59-0",
                  "rotation": 1})
    qll = game.corporations["QLL"]
    assert isinstance(qll, Corporation)
    assert [(corp, hexes, token.corp) for corp, hexes, token in game.pending_tokens] == [(qll, ["M11"], "CN")]
    choices = query.choices(game, qll, "place_token")
    assert {c["city"] for c in choices} == {"59-0-0", "59-0-1"}
    game.process(next(c for c in choices if c["city"] == "59-0-0"))
    assert game.board.hexes["M11"].tile.tokens == {0: ["CN"], 1: [None]}
    assert not game.pending_tokens
