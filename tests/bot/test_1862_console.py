"""1862 in the console: the game says it is a reconstructed edition wherever a player meets it."""

from __future__ import annotations

import json
from pathlib import Path

from bot.console.scripted import line
from tests.bot.console_helpers import run_console

LABEL = "reconstructed edition"


def test_new_help_status_and_export_say_reconstructed_edition(tmp_path: Path) -> None:
    db, out = tmp_path / "games.db", tmp_path / "out"
    users = ("alice", "bob", "carol", "dave")
    lines = [line("alice", "help 1862"), line("alice", "new 1862")]
    lines += [line(u, "join") for u in users[1:]]
    lines += [line("alice", "start"), line("bob", "status"), line("alice", "export")]
    output = run_console(db, out, lines)
    text = "\n".join(output)
    assert "1862: 4 to 7 players" in text
    said = [x for x in output if LABEL in x]
    assert len(said) >= 3, output  # help, new, status
    exported = next(x for x in output if x.startswith("file: ")).removeprefix("file: ")
    doc = json.loads(Path(exported).read_text("utf-8"))
    assert doc["title"] == "1862" and LABEL in doc["description"]


def test_a_console_game_through_a_redemption(tmp_path: Path) -> None:
    """Commands as a player types them (`buy`, `bid`, `keep`, `par`, `lay`, `train`, `redeem debt` ...), each
    read back by the bot; the stored log is the mirror game's, and it holds a redemption."""
    from bot.console.scripted import Policy, next_move
    from engine import new_game
    from tests.bot.console_helpers import stored_actions

    users = ("alice", "bob", "carol", "dave")
    seed = 5
    game = new_game("1862", [(i + 1, u) for i, u in enumerate(users)], seed=seed)
    names = {i + 1: u for i, u in enumerate(users)}
    policy = Policy(seed)
    lines = [line("alice", f"new 1862 seed={seed}"), *(line(u, "join") for u in users[1:]), line("alice", "start")]
    commands: list[str] = []
    while not any(a["type"] == "redeem_shares" for a in game.raw_actions) and len(commands) < 2000:
        move = next_move(game, policy, names)
        assert move is not None, game.round.name()
        lines.append(line(move.user, move.command))
        commands.append(move.command)
        if move.approver is not None:
            lines.append(line(move.approver, "approve"))
    assert any(c.startswith("redeem ") for c in commands)
    db, out = tmp_path / "games.db", tmp_path / "out"
    output = run_console(db, out, lines, timeout=600)
    assert not [x for x in output if "[illegal]" in x or "[malformed]" in x], output[-5:]
    assert [a for _, a in stored_actions(db)] == game.raw_actions
