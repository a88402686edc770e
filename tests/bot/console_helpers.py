"""Running the console adapter as a child process, as a user would: ``python -m bot console``."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SLACK_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    # No fsync per stored move in child processes either (a process crash loses nothing without it); the
    # production setting is checked by test_storage_durability.
    env["ROUNDHOUSE_CONFIG"] = str(Path(__file__).with_name("no_fsync.toml"))
    return env


def console_command(db: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "bot", "console", "--db", str(db), "--out", str(out), "--no-images", *extra]


def run_console(db: Path, out: Path, lines: list[str], *extra: str, timeout: float = 120) -> list[str]:
    """Pipe ``lines`` into a console process and return what it printed (it must exit cleanly at EOF)."""
    proc = subprocess.run(
        console_command(db, out, *extra),
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=out.parent,
        env=child_env(),
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout.splitlines()


def stored_actions(db: Path, game_id: int = 1) -> list[tuple[int, dict[str, Any]]]:
    """The action log as a separate reader sees it (read-only, no help from the bot's code)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT seq, data FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        con.close()
    return [(seq, json.loads(data)) for seq, data in rows]
