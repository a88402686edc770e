"""Secrets: a token file tracked by git is refused, and tokens show in no repr and no log line."""

from __future__ import annotations

import logging
import subprocess
from pathlib import Path

import pytest

from bot.discord.settings import DiscordSettings, load_discord_settings
from bot.slack.settings import SlackSettings
from bot.tokens import RedactSecrets, SecretFileError, read_token_file

TOKEN = "MTA4.fake-discord-token.abcdefghijklmnop"


def _repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def _config(tmp_path: Path, token_file: Path) -> Path:
    config = tmp_path / "extra.toml"
    config.write_text(f'[discord]\ntoken_file = "{token_file}"\n')
    return config


def test_a_token_file_tracked_by_git_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    committed = repo / "token.txt"
    committed.write_text(TOKEN + "\n")
    subprocess.run(["git", "-C", str(repo), "add", "token.txt"], check=True)
    with pytest.raises(SecretFileError, match="tracked by git"):
        read_token_file(committed)
    with pytest.raises(SecretFileError, match="tracked by git"):
        load_discord_settings(_config(tmp_path, committed), environ={})


def test_a_token_file_git_neither_tracks_nor_ignores_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    loose = repo / "token.txt"
    loose.write_text(TOKEN + "\n")  # a `git add .` away from being published
    with pytest.raises(SecretFileError, match="not ignored"):
        read_token_file(loose)
    with pytest.raises(SecretFileError, match="not ignored"):
        load_discord_settings(_config(tmp_path, loose), environ={})
    (repo / ".gitignore").write_text("*.txt\n")
    assert read_token_file(loose) == TOKEN


def test_an_untracked_token_file_is_read(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    (repo / ".gitignore").write_text("token.txt\n")
    ignored = repo / "token.txt"
    ignored.write_text(TOKEN + "\n")
    assert load_discord_settings(_config(tmp_path, ignored), environ={}).token == TOKEN
    outside = tmp_path / "secret.txt"
    outside.write_text(TOKEN)
    assert read_token_file(outside) == TOKEN
    with pytest.raises(SecretFileError, match="does not exist"):
        read_token_file(tmp_path / "missing.txt")


def test_settings_do_not_show_their_secrets() -> None:
    shown = repr(DiscordSettings(token=TOKEN)) + str(
        SlackSettings(bot_token="xoxb-123456789", app_token="xapp-123456789", signing_secret="s3cr3t-signing")
    )
    for secret in (TOKEN, "xoxb-123456789", "xapp-123456789", "s3cr3t-signing"):
        assert secret not in shown


def test_log_lines_and_tracebacks_hide_the_secrets(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("tests.tokens")
    caplog.handler.addFilter(RedactSecrets([TOKEN, "short"]))
    with caplog.at_level(logging.INFO):
        log.info("connecting with %s", TOKEN)
        try:
            raise RuntimeError(f"login failed for {TOKEN}")
        except RuntimeError:
            log.exception("oops")
    assert TOKEN not in caplog.text
    assert "connecting with [secret]" in caplog.text and "login failed for [secret]" in caplog.text
