"""Every legal move of 1828 and 1822 has words in the command language, and the bot reads those words back
to that very move, at positions all through a recorded game of each (every seventh action)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.console.scripted import command_intent
from bot.core.commands import CommandError
from bot.core.intents import deciding_player, to_command
from engine.core import query
from engine.importer import read_game_file, replay
from tests.conftest import SHARED_FIXTURES, missing_message

GAMES = {"1828": SHARED_FIXTURES / "1828" / "23366.json", "1822": SHARED_FIXTURES / "1822" / "33845.json"}
EVERY = 7
#: Positions met besides every seventh: just before 1828's first coal marker purchase (recorded action 159), and
#: just before 1822's first destination stations (kept actions 377 and 389).
EXTRA = {"1828": {158}, "1822": {376, 388}}


def _same(game: Any, want: dict[str, Any], got: dict[str, Any]) -> bool:
    """Equal, or the same kind of train from the same seller (which of two equal trains is bought is moot)."""
    if want == got:
        return True
    if want["type"] != "buy_train" or {k for k in want if k != "train"} != {k for k in got if k != "train"}:
        return False
    a, b = game.all_trains[want["train"]], game.all_trains[got["train"]]
    same_rest = all(want[k] == got[k] for k in want if k != "train")
    return bool(same_rest and a.name == b.name and a.owner is b.owner)


@pytest.mark.parametrize("title", list(GAMES))
def test_every_legal_move_reads_back_to_itself(title: str) -> None:
    if not GAMES[title].is_file():
        pytest.fail(missing_message(f"the recorded game {GAMES[title]}"), pytrace=False)
    problems: list[str] = []
    kinds: set[str] = set()

    def check(index: int, _action: dict[str, Any], game: Any) -> None:
        if index % EVERY and index not in EXTRA[title]:
            return
        for ent in query.deciding_entities(game):
            player = deciding_player(game, ent)
            if player is None:
                continue
            for choice in query.all_choices(game, ent, limit=60):
                if choice["type"] == "undo":  # 1828's failed merger is taken back with `undo`
                    continue
                kinds.add(choice["type"])
                try:
                    text = to_command(game, choice)
                    got = command_intent(game, player, text).action
                except (CommandError, ValueError, KeyError) as exc:
                    problems.append(f"{index}: {choice} -> {exc}")
                    continue
                if not _same(game, choice, got):
                    problems.append(f"{index}: {choice} -> `{text}` -> {got}")

    replay(read_game_file(GAMES[title]), on_applied=check)
    assert not problems, "\n".join(problems[:10])
    wanted = {"1828": {"merge", "choose", "swap_train", "special_buy"},
              "1822": {"merge", "choose", "acquire_company", "hex_token", "bid"}}[title]
    assert wanted <= kinds, wanted - kinds  # the title's own moves were met and read back
