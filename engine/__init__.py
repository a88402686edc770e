"""Roundhouse rules engine: pure, typed and deterministic. No I/O and no chat imports."""

from __future__ import annotations

from typing import Any

from .core.errors import ErrorCode, GameError
from .core.game import Game
from .titles import TITLES, export_title, title_class

__all__ = ["TITLES", "ErrorCode", "Game", "GameError", "export_title", "new_game", "title_class"]


def new_game(title: str, players: list[tuple[int, str]], seed: int = 0,
             options: dict[str, Any] | None = None, actions: list[dict[str, Any]] | None = None) -> Game:
    """Start (or rebuild from its action log) a game of a registered title."""
    return title_class(title)(players, seed, options, actions=actions)
