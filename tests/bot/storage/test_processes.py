"""Separate OS processes on one database (a SQLite file, or PostgreSQL as bots on several machines would
share it): each position of a game's log is won by exactly one of them, and each due outbox item is claimed
by exactly one."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from bot.storage import GameStatus, Storage
from tests.bot.storage.conftest import make_game

ROOT = Path(__file__).resolve().parents[3]
WRITERS = 4
APPENDS = 25
ITEMS = 80


async def _writer(target: str, game_id: int, name: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.storage.race_writer",
        target,
        str(game_id),
        name,
        str(APPENDS),
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    assert proc.returncode == 0, err.decode()
    return out.decode().splitlines()


async def test_processes_racing_for_positions_and_reminders(db_url: str, storage: Storage) -> None:
    game_id = await make_game(storage, status=GameStatus.ACTIVE)
    for n in range(ITEMS):
        await storage.outbox_enqueue(f"due:{n}", platform="p", user_id="u", kind="reminder", payload={}, due_at=n)
    names = [f"w{i}" for i in range(WRITERS)]
    outputs = await asyncio.gather(*(_writer(db_url, game_id, name) for name in names))

    won = {
        name: [int(line.split()[1]) for line in out if line.startswith("append ")]
        for name, out in zip(names, outputs, strict=True)
    }
    assert all(len(seqs) == APPENDS for seqs in won.values())
    stored = await storage.load_action_records(game_id)
    assert [r.seq for r in stored] == list(range(1, WRITERS * APPENDS + 1))
    assert sorted(s for seqs in won.values() for s in seqs) == [r.seq for r in stored]  # no seq won twice
    assert all(r.actor == r.data["by"] and r.seq in won[r.actor] for r in stored)  # each row is its winner's

    claims = [int(line.split()[1]) for out in outputs for line in out if line.startswith("claim ")]
    assert len(claims) == ITEMS and len(set(claims)) == ITEMS  # every item claimed, none twice
