"""The engine's typed face for the chat bot and the pictures.

A game is driven through ``Game.process``, which returns an :class:`Outcome` holding the events of what the move
did (``engine.core.events``); who acts and what they may do come from ``engine.core.query``; frozen views for
text and pictures from ``engine.core.viewbuild``. Code outside the engine names these types from here, so that
mypy follows a move from the adapter into the rules.
"""

from __future__ import annotations

from .core import events
from .core.entities import Company, Corporation, Player
from .core.errors import ErrorCode, GameError
from .core.events import Event, Outcome, Party, PartyKind, Score
from .core.game import Game
from .core.game_end import end_reason_text
from .core.query import Actor, actors
from .core.statusbuild import bank_unlimited, status_view

__all__ = [
    "Actor",
    "Company",
    "Corporation",
    "ErrorCode",
    "Event",
    "Game",
    "GameError",
    "Outcome",
    "Party",
    "PartyKind",
    "Player",
    "Score",
    "actors",
    "bank_unlimited",
    "end_reason_text",
    "events",
    "status_view",
]
