"""Reading 18xx.games game files (their JSON export) into engine games."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core import actions as act
from .core.errors import GameError, malformed
from .core.game import Game
from .core.memory import replaying
from .titles import title_class


@dataclass(slots=True)
class GameFile:
    title: str
    players: list[tuple[int, str]]
    seed: int
    options: dict[str, Any]
    actions: list[dict[str, Any]]
    raw: dict[str, Any]


# The settings key under which our exports name a game's rules edition (Game.RULES_EDITION); 18xx.games ignores it.
EDITION_SETTING = "roundhouse_rules_edition"
# The settings key under which our exports say that a game came from 18xx.games, so that its recorded runs stand as
# recorded (``RunPart.recorded_run``).
RECORDED_SETTING = "roundhouse_recorded_runs"


def read_game_file(path: str | Path) -> GameFile:
    try:
        raw = json.loads(Path(path).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise malformed(f"{path}: not a readable JSON file ({exc})") from None
    return parse_game_json(raw)


def parse_game_json(raw: Any) -> GameFile:
    if not isinstance(raw, dict) or "title" not in raw or "players" not in raw or "actions" not in raw:
        raise malformed("not an 18xx.games game: it needs title, players and actions")
    players = [(int(p["id"]), str(p.get("name", p["id"]))) for p in raw["players"]]
    settings = raw.get("settings") or {}
    seed = settings.get("seed")
    if seed in (None, ""):
        digits = "".join(ch if ch.isdigit() else " " for ch in str(raw.get("id", "0"))).split()
        seed = int(digits[0]) if digits else 0
    options: dict[str, Any] = {"optional_rules": settings.get("optional_rules") or []}
    if EDITION_SETTING in settings:  # our own exports name the rules edition the game began under
        options["rules_edition"] = settings[EDITION_SETTING]
        if settings.get(RECORDED_SETTING) is True:
            options["recorded_runs"] = True
    else:  # a game from 18xx.games: its runs were checked there when they were made
        options["recorded_runs"] = True
    return GameFile(str(raw["title"]), players, int(seed), options, list(raw["actions"]), raw)


class ReplayError(Exception):
    def __init__(self, action_id: Any, error: GameError) -> None:
        super().__init__(f"action {action_id}: {error.message}")
        self.action_id = action_id
        self.error = error


def replay(gf: GameFile, on_applied: Callable[[int, dict[str, Any], Game], None] | None = None) -> Game:
    """Build the game and apply every standing action, stopping at the first refused one.

    ``on_applied(index, action, game)`` is called after each standing action (its auto actions included); it
    reads the game and must not change it (the rounds remember their steps' answers while they replay).
    """
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    with replaying(game):
        for index, action in enumerate(act.filter_undo(gf.actions)):
            try:
                game._apply(action)
            except GameError as exc:
                raise ReplayError(action.get("id"), exc) from exc
            if on_applied is not None:
                on_applied(index, action, game)
    game.raw_actions = list(gf.actions)
    return game
