"""Shared checks of routes entered as hex chains (core route entry, engine/core/routes.py) on a title's fresh
board: a chain whose hexes are not neighbours, or that leaves the laid track at its start, its end or on the way,
is refused with the reason; a leg used twice is refused."""

from __future__ import annotations

import pytest

from engine.core.errors import GameError
from engine.core.game import Game
from engine.core.routes import Route, build_route


def route(game: Game, *chains: list[str]) -> Route:
    corp = next(iter(game.corporations.values()))
    train = next(iter(game.all_trains.values()))
    return build_route(game, corp, train, {"connections": list(chains)})


def check_off_track_refusals(game: Game, track_end: list[str], blank_start: list[str]) -> None:
    """``track_end``: two neighbours, the first with track to the second's edge and the second blank;
    ``blank_start``: two neighbours, the first blank."""
    start, blank = track_end
    far = next(h for h in game.board.hexes if h != start and h not in game.board[start].neighbors.values())
    with pytest.raises(GameError, match=f"{start} and {far} are not neighbours"):
        route(game, [start, far])
    with pytest.raises(GameError, match=f"there is no track along {start}-{blank}$"):
        route(game, [start, blank])  # the track stops at the blank hex's edge
    beyond = next(h for h in game.board[blank].neighbors.values() if h != start)
    with pytest.raises(GameError, match=f"there is no track along {start}-{blank}-{beyond}"):
        route(game, [start, blank, beyond])  # no track across the blank hex
    with pytest.raises(GameError, match=f"there is no track along {'-'.join(blank_start)}"):
        route(game, blank_start)  # no track leaves the first hex
    with pytest.raises(GameError, match="each leg of a route needs at least two hexes"):
        route(game, [start])
