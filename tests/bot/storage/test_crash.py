"""Durability under SIGKILL: every commit a writer reported survives; the log stays contiguous and valid."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.bot.storage.conftest import make_game
from tests.bot.storage.crash_writer import IMPORT_ACTIONS, action_for, actor_for

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


async def _run_and_kill(db_path: Path, game_id: int | str, kill_after: int) -> list[int]:
    """Start a writer, SIGKILL it once it reported ``kill_after`` commits; return every seq it reported."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.storage.crash_writer",
        str(db_path),
        str(game_id),
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    reported: list[int] = []
    try:
        while len(reported) < kill_after:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout=10)
            if not line:
                stderr = (await proc.stderr.read()).decode(errors="replace")
                pytest.fail(f"writer exited early with {await proc.wait()}: {stderr}")
            reported.append(int(line))
    finally:
        proc.send_signal(signal.SIGKILL)  # mid-append: the writer never waits for us
        returncode = await proc.wait()
    # Lines flushed before the kill also count as reported commits; a torn last line does not.
    rest = (await proc.stdout.read()).decode()
    reported.extend(int(line) for line in rest.split("\n")[:-1])
    assert returncode == -signal.SIGKILL
    return reported


def _check_file(db_path: Path, game_id: int) -> list[int]:
    """Check the raw file, without Storage: integrity, foreign keys, contiguity, exact content."""
    con = sqlite3.connect(db_path)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = con.execute(
            "SELECT seq, data, actor FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        con.close()
    seqs = [seq for seq, _, _ in rows]
    assert seqs == list(range(1, len(seqs) + 1)), "gap or duplicate in the action log"
    for seq, data, actor in rows:
        assert json.loads(data) == action_for(seq), f"row {seq} differs from what the writer wrote"
        assert actor == actor_for(seq)
    return seqs


async def test_sigkilled_writer_loses_no_reported_commit(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage:
        game_id = await make_game(storage)

    expected_last = 0
    for kill_after in (5, 50, 200, 1):
        reported = await _run_and_kill(db_path, game_id, kill_after)
        # The writer continues from wherever the previous (killed) writer's log ends.
        assert reported == list(range(expected_last + 1, expected_last + 1 + len(reported)))

        seqs = _check_file(db_path, game_id)
        assert set(reported) <= set(seqs), "a commit reported by the writer is missing after SIGKILL"
        # At most the one append in flight at kill time may have landed unreported.
        assert len(seqs) - reported[-1] in (0, 1)
        expected_last = len(seqs)

        # Storage reopens the crashed file (migrations are a no-op) and reads the same log.
        async with await Storage.open(db_path) as storage:
            assert await storage.last_seq(game_id) == expected_last
            loaded = await storage.load_actions(game_id)
            assert [seq for seq, _ in loaded] == seqs
            assert await storage.integrity_check() == ["ok"]


async def test_a_sigkilled_import_leaves_whole_games_or_nothing(db_path: Path) -> None:
    async with await Storage.open(db_path):
        pass
    reported: list[int] = []
    for kill_after in (1, 3):
        reported += await _run_and_kill(db_path, "import", kill_after)
    con = sqlite3.connect(db_path)
    try:
        counts = dict(
            con.execute(
                "SELECT g.id, count(a.seq) FROM games g LEFT JOIN actions a ON a.game_id = g.id"
                " WHERE g.platform = 'crash' GROUP BY g.id"
            ).fetchall()
        )
        snapshots = {row[0] for row in con.execute("SELECT game_id FROM snapshots").fetchall()}
    finally:
        con.close()
    assert set(reported) <= set(counts)
    assert set(counts.values()) == {IMPORT_ACTIONS}, "a killed import left part of a game behind"
    assert snapshots == set(counts)
