"""The 1882 game as its rule modules see it: the core game with the state 1882 adds (G1882 in game.py adds the
hooks), so that no rule module imports the game module (engine/ has no import circle)."""

from __future__ import annotations

from ...core.entities import Train
from ...core.game import Game


class Game1882(Game):
    """What 1882 keeps besides the core's state (G1882.setup sets it)."""

    sc_reserve: dict[str, Train]  # the trains set aside for Saskatchewan Central, by type
    sc_convertible: bool  # the SC private may still become the SC company
