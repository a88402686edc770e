"""A whole 1882 game driven through ``python -m bot console`` with piped lines, restarted half way.

The script comes from a seeded policy playing the engine (bot.console.scripted): refused commands (wrong
player, spectator, malformed, illegal) with their messages, a free undo, an undo that needs the other
player's approval, deals that need approval, a restart of the process mid-game, and an export that
``python -m engine.replay`` replays to the same result.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console.scripted import finishing_script, line
from tests.bot.console_helpers import ROOT, child_env, run_console, stored_actions


@pytest.fixture(scope="module")
def script():  # type: ignore[no-untyped-def]
    return finishing_script(range(1, 40), max_moves=1500)


def test_whole_game_through_the_console_with_a_restart(tmp_path: Path, script) -> None:  # type: ignore[no-untyped-def]
    db, out = tmp_path / "games.db", tmp_path / "out"
    total = len(script.game.raw_actions)
    half = script.resume_after(next(n for n in script.stored if n >= total // 2))
    first = script.lines[:half]
    second = [line("carol", "status"), *script.lines[half:], line("alice", "export")]

    out1 = run_console(db, out, first)
    assert not any("Game over" in x for x in out1)
    assert len(stored_actions(db)) == script.stored[half - 1]  # everything accepted is on disk

    out2 = run_console(db, out, second)  # a new process continues from the database
    assert out2[0].startswith("bot: Game #1")  # the spectator's status of the game in progress
    output = out1 + out2

    # Every scripted check appears, in order, among the replies.
    position = 0
    for _, expected in script.checks:
        while position < len(output) and expected not in output[position]:
            position += 1
        assert position < len(output), f"never printed: {expected!r}"
    refusals = [x for x in output if re.match(r"^bot \(to \w+\): \[\w+\]", x)]
    assert len(refusals) == 7, refusals  # exactly the scripted ones: every move was accepted
    assert any(x.startswith("bot -> @bob: Your turn") for x in output)
    assert any("Game over" in x for x in out2)

    # The stored log is exactly the mirror's, and the export replays to the same result.
    assert [a for _, a in stored_actions(db)] == script.game.raw_actions
    exported = next(x for x in out2 if x.startswith("file: ")).removeprefix("file: ")
    doc = json.loads(Path(exported).read_text("utf-8"))
    assert doc["status"] == "finished" and len(doc["actions"]) == total
    replayed = subprocess.run(
        [sys.executable, "-m", "engine.replay", exported, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_env(),
        timeout=120,
        check=True,
    )
    result = json.loads(replayed.stdout)
    assert result["finished"] is True
    assert result["result"] == script.game.result()
    assert result["game_end_reason"] == script.game.game_end_reason


def test_console_reads_chat_lines(tmp_path: Path) -> None:
    lines = [
        "bob: just chatting, not for the bot",
        "this line has no speaker",
        "#side alice: /18xx new 1882 seed=2",
        "#side bob: /18xx join",
        "Alice: /18xx start",  # the console channel has no game; names are not case-sensitive
        "#side ALICE: /18xx start",
        "#side bob: /18xx help buy",
        "# a comment",
    ]
    out = run_console(tmp_path / "c.db", tmp_path / "out", lines)
    assert out[0].startswith("console: line 2 is not a chat line")
    assert "created 1882 game #1" in out[1]
    assert "[no_game]" in out[3]
    assert any("Seat order: alice, bob" in x for x in out)
    assert any(x.startswith("bot (to bob): buy CORP") for x in out)


def test_python_m_bot_starts_the_console_without_tokens(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--db", str(tmp_path / "x.db"), "--no-images"],
        input="alice: /18xx help\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=child_env(),
        timeout=60,
        check=True,
    )
    assert "bot (to alice): Commands start with /18xx" in proc.stdout


def test_the_run_command_picks_the_adapter_from_the_tokens() -> None:
    from bot.__main__ import choose_mode

    assert choose_mode([], {}) == ("console", [])
    assert choose_mode(["--db", "x.db"], {"DISCORD_TOKEN": "t"}) == ("discord", ["--db", "x.db"])
    assert choose_mode([], {"SLACK_BOT_TOKEN": "xoxb"}) == ("slack", [])
    assert choose_mode([], {"DISCORD_TOKEN": "t", "SLACK_BOT_TOKEN": "xoxb"})[0] == "discord"
    assert choose_mode(["console", "--db", "y.db"], {"DISCORD_TOKEN": "t"}) == ("console", ["--db", "y.db"])


@pytest.mark.parametrize(
    ("argv", "env", "says"),
    [
        (["discord"], {}, "Set DISCORD_TOKEN"),
        ([], {"SLACK_BOT_TOKEN": "xoxb-test"}, "HTTP mode needs SLACK_SIGNING_SECRET"),
        (["slack", "--mode", "socket"], {"SLACK_BOT_TOKEN": "xoxb-test"}, "Socket Mode needs SLACK_APP_TOKEN"),
    ],
)
def test_a_chat_adapter_without_its_secrets_says_what_is_missing(
    tmp_path: Path, argv: list[str], env: dict[str, str], says: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", *argv, "--db", str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=child_env() | env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr
    assert "Traceback" not in proc.stderr


def test_scripts_play_any_title_through_the_chat_commands() -> None:
    """``python -m bot.console.scripted --title 1830 --plain`` writes a game of another title: every move is the
    command text the bot reads back to the engine's action (``play`` checks each on a mirror game)."""
    from bot.console.scripted import play

    script = play(1, ("alice", "bob", "carol"), extras=False, title="1830", max_moves=60)
    assert script.lines[0] == line("alice", "new 1830 seed=1")
    assert script.game.TITLE == "1830" and script.moves == 60 and len(script.game.raw_actions) >= 60
