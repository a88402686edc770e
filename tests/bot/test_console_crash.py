"""kill -9 of the console at arbitrary points loses no accepted action and never stores a half-applied one.

The console runs with ``--trace`` so it prints ``stored: game 1 action N`` once action N is committed; the
script's lines are piped in all at once and the process is SIGKILLed mid-stream. Afterwards the database must
hold every action the process reported, exactly as the script's mirror game has them (no partial or foreign
action), the log must replay, and a restarted console must finish the game from there.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.console.scripted import finishing_script, line
from engine import new_game
from tests.bot.console_helpers import child_env, console_command, run_console, stored_actions

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

_STORED = re.compile(r"^stored: game 1 action (\d+)$")


def _feed(proc: subprocess.Popen[str], lines: list[str]) -> None:
    assert proc.stdin is not None
    try:
        for text in lines:
            proc.stdin.write(text + "\n")
        proc.stdin.close()
    except (BrokenPipeError, OSError, ValueError):
        pass  # killed meanwhile


def _run_and_kill(db: Path, out: Path, lines: list[str], kill_at: int) -> int:
    """Start a console on ``lines``; SIGKILL it once it reported storing action ``kill_at``. Returns the
    highest action number it reported."""
    proc = subprocess.Popen(
        console_command(db, out, "--trace"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=out.parent,
        env=child_env(),
        bufsize=1,
    )
    writer = threading.Thread(target=_feed, args=(proc, lines), daemon=True)
    writer.start()
    reported = 0
    assert proc.stdout is not None
    try:
        for text in proc.stdout:
            match = _STORED.match(text.strip())
            if match:
                reported = max(reported, int(match.group(1)))
                if reported >= kill_at:
                    proc.send_signal(signal.SIGKILL)
                    break
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        # Lines flushed before the kill are acknowledgements too.
        for text in proc.stdout:
            match = _STORED.match(text.strip())
            if match:
                reported = max(reported, int(match.group(1)))
        proc.wait(timeout=30)
    writer.join(timeout=5)
    assert proc.returncode == -signal.SIGKILL, "the console finished before it could be killed"
    return reported


def test_kill_9_mid_game_loses_nothing_and_the_game_finishes(tmp_path: Path) -> None:
    script = finishing_script(range(1, 40), max_moves=1500)
    expected = script.game.raw_actions
    db, out = tmp_path / "crash.db", tmp_path / "out"
    start = 0
    for kill_at in (15, len(expected) // 3, 2 * len(expected) // 3):
        reported = _run_and_kill(db, out, script.lines[start:], kill_at)
        stored = [a for _, a in stored_actions(db)]
        assert len(stored) >= reported  # every acknowledged action survived
        assert stored == expected[: len(stored)]  # and nothing else: no partial or stray action
        game = new_game("1882", [(1, "alice"), (2, "bob")], seed=script.game.seed, actions=stored)
        assert len(game.raw_actions) == len(stored)
        start = script.resume_after(len(stored))
    rest = run_console(db, out, [*script.lines[start:], line("alice", "export")])
    assert any("Game over" in x for x in rest)
    assert [a for _, a in stored_actions(db)] == expected
