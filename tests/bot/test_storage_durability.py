"""An acknowledged move survives a power cut: the bot's database fsyncs every commit (synchronous=FULL)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Storage, repo

# PRAGMA synchronous answers a number: 1 NORMAL, 2 FULL, 3 EXTRA.
FULL = 2


async def test_the_bot_s_database_fsyncs_every_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repo, "DEFAULT_SYNCHRONOUS", "FULL")  # undo the suite's speed-up
    async with await Storage.open(tmp_path / "bot.db") as storage, storage._backend.session() as db:
        ((mode,),) = await db.all("PRAGMA synchronous")
        ((journal,),) = await db.all("PRAGMA journal_mode")
    assert (mode, journal) == (FULL, "wal")


async def test_an_unknown_synchronous_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous must be one of"):
        await Storage.open(tmp_path / "bot.db", synchronous="OFF")


def test_the_shipped_configuration_fsyncs_every_move() -> None:
    from bot.config import load_settings

    assert load_settings().synchronous == "FULL"
