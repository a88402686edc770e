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
