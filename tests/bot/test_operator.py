"""The operator's tools: config files that refuse mistakes, JSON logs, backups, the installed command."""

from __future__ import annotations

import io
import json
import logging
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot import backup, check_games, logs
from bot.__main__ import main as bot_main
from bot.config import DEFAULTS, SECTIONS, ConfigError, check_file, load_settings
from bot.core.service import GameService
from bot.discord.settings import load_discord_settings
from bot.slack.settings import load_slack_settings
from bot.storage import Storage
from tests.bot.conftest import FakeClock, Table, started
from tests.conftest import ROOT


def _config(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "bot.toml"
    file.write_text(text, "utf-8")
    return file


def test_the_shipped_defaults_pass_their_own_check() -> None:
    sections = check_file(DEFAULTS)
    assert set(sections) <= set(SECTIONS)


@pytest.mark.parametrize(
    ("text", "section", "key"),
    [
        ("[bot]\nsnapshot_evry = 10\n", "bot", "snapshot_evry"),
        ("[slack]\nprot = 3000\n", "slack", "prot"),
        ("[discord]\nguild = 5\n", "discord", "guild"),
        ("[console]\noutdir = 'x'\n", "console", "outdir"),
    ],
)
def test_a_misspelt_key_is_refused_naming_file_key_and_the_allowed_keys(
    tmp_path: Path, text: str, section: str, key: str
) -> None:
    file = _config(tmp_path, text)
    loaders = {"bot": load_settings, "console": load_settings, "slack": load_slack_settings}
    with pytest.raises(ConfigError) as refused:
        loaders.get(section, load_discord_settings)(file)
    message = str(refused.value)
    assert str(file) in message and f"unknown key {key!r}" in message and f"[{section}]" in message
    for allowed in SECTIONS[section].model_fields:
        assert allowed in message


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[bot]\ninactive_days = "two weeks"\n', "inactive_days"),
        ('[bot]\nimages = "yes"\n', "images"),
        ("[bot]\nsnapshot_every = 0\n", "snapshot_every"),
        ('[bot]\nsynchronous = "OFF"\n', "synchronous"),
        ('[slack]\nport = "3000"\n', "port"),
        ("[slack]\nmoderators = 'U1'\n", "moderators"),
        ("[discord]\nthread_archive_minutes = 5\n", "thread_archive_minutes"),
    ],
)
def test_a_wrong_type_is_refused_naming_the_key(tmp_path: Path, text: str, key: str) -> None:
    file = _config(tmp_path, text)
    with pytest.raises(ConfigError, match=rf"{file}: .*\] {key} = "):
        check_file(file)


def test_an_unknown_section_and_broken_toml_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown section \[slak\]; the sections are \[bot\]"):
        load_settings(_config(tmp_path, "[slak]\nport = 1\n"))
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(_config(tmp_path, "[bot\n"))
    with pytest.raises(ConfigError, match="cannot be read"):
        load_settings(tmp_path / "nope.toml")


def test_good_values_are_taken(tmp_path: Path) -> None:
    file = _config(tmp_path, '[bot]\ninactive_days = 3\nmoderators = ["U9"]\nlog_format = "json"\n')
    settings = load_settings(file)
    assert (settings.inactive_days, settings.moderators, settings.log_format) == (3, ("U9",), "json")


def test_the_bot_refuses_to_start_on_a_bad_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = _config(tmp_path, "[bot]\ndatabse = 'x.db'\n")
    assert bot_main(["check-games", "--config", str(file), "--db", str(tmp_path / "none.db")]) == 2
    err = capsys.readouterr().err
    assert "Cannot start" in err and "unknown key 'databse'" in err and "database" in err


def test_json_logs(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        logs.configure(log_format="json")
        stream = io.StringIO()
        root.handlers[0].setStream(stream)  # type: ignore[attr-defined]
        logging.getLogger("bot.test").warning("seat %s handed on", 3)
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("bot.test").exception("incident %s", "ab12")
        first, second = (json.loads(line) for line in stream.getvalue().splitlines() if line.startswith("{"))
        assert first["level"] == "WARNING" and first["message"] == "seat 3 handed on" and first["logger"] == "bot.test"
        assert first["time"].endswith("+00:00")
        assert "ValueError: boom" in second["exception"]
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])


# ---------------------------------------------------------------------------------------------------- backups


async def test_backup_copies_a_live_database_and_checks_it(tmp_path: Path, clock: FakeClock) -> None:
    db = tmp_path / "live.db"
    service = GameService(await Storage.open(db, clock=clock), None, images=False, clock=clock)
    try:
        table = Table(service)
        game_id = await started(table, users=("alice", "bob"), seed=5)
        assert (await table.say("alice", "buy HB")).ok
        # The bot is still running (its connection open, the WAL not checkpointed) while the copy is made.
        out = io.StringIO()
        copy = tmp_path / "copies" / "roundhouse-backup.db"
        status = await _in_thread(backup.backup, str(db), str(copy), out=out)
        assert status == 0, out.getvalue()
        assert out.getvalue().strip().splitlines()[-1] == (
            f"backup {copy}: 1 games; checked 1 games: 1 replay, 0 fail"
        )
        assert (await table.say("bob", "pass")).ok  # the live game goes on
    finally:
        await service.close()
    # The copy is a database of its own: the game as it was, and check-games works on it.
    async with await Storage.open(copy, clock=clock) as copied:
        assert await copied.last_seq(game_id) == 1
    report = io.StringIO()
    assert await _in_thread(check_games.main, ["--db", str(copy)], out=report) == 0
    assert report.getvalue().strip() == "checked 1 games: 1 replay, 0 fail"


async def _in_thread(func: object, *args: object, **kwargs: object) -> int:
    import asyncio
    import functools

    return int(await asyncio.to_thread(functools.partial(func, *args, **kwargs)))  # type: ignore[arg-type]


def test_backup_refuses_what_it_cannot_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert backup.backup(str(tmp_path / "none.db"), str(tmp_path / "b.db"), out=out) == 2
    assert "no database" in capsys.readouterr().err
    existing = tmp_path / "exists.db"
    existing.write_bytes(b"")
    sqlite3.connect(tmp_path / "src.db").close()
    assert backup.backup(str(tmp_path / "src.db"), str(existing), out=out) == 2
    assert "exists already" in capsys.readouterr().err
    assert backup.backup("postgresql://bot@db/roundhouse", str(tmp_path / "c.db"), out=out) == 2
    assert "pg_dump" in capsys.readouterr().err


def test_run_sh_backup_is_wired() -> None:
    from bot.__main__ import MODULES

    assert MODULES["backup"] == "bot.backup"


# ---------------------------------------------------------------------------------------------------- install


def test_pip_install_gives_a_roundhouse_command() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert project["project"]["scripts"]["roundhouse"] == "bot.__main__:main"
    script = Path(sys.executable).parent / "roundhouse"
    assert script.is_file(), "reinstall the project (scripts/ensure_venv.sh) to get the roundhouse command"
    run = subprocess.run([str(script), "backup", "--help"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "online backup" in run.stdout
