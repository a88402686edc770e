"""Keeping the bot's tokens secret: no token file under version control, no token in a repr or a log line."""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Iterable
from pathlib import Path

HIDDEN = "[secret]"


class SecretFileError(ValueError):
    """A token file that must not be used (tracked by git, or missing); the message says what to do."""


def read_token_file(file: Path) -> str:
    """The token in ``file``; refused when git tracks the file (it would be pushed with the code)."""
    if not file.is_file():
        raise SecretFileError(f"token_file {file} does not exist")
    if tracked_by_git(file):
        raise SecretFileError(
            f"token_file {file} is tracked by git, so the token would be published with the code: "
            "move it out of the repository (or `git rm --cached` it and list it in .gitignore), and "
            "regenerate the token if it was ever pushed"
        )
    return file.read_text("utf-8").strip()


def tracked_by_git(file: Path) -> bool:
    """Whether ``file`` is in a git repository's index (False when git or a repository is absent)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(file.resolve().parent), "ls-files", "--error-unmatch", "--", file.resolve().name],
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


class RedactSecrets(logging.Filter):
    """Replaces each secret value in a log record's message (and traceback) with ``[secret]``."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if len(s) >= 8}, key=len, reverse=True)

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        cleaned, trace = self._clean(message), self._clean(record.exc_text or "")
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        if record.exc_text and trace != record.exc_text:
            record.exc_text = trace
        return True

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, HIDDEN)
        return text


def hide_in_logs(secrets: Iterable[str]) -> RedactSecrets:
    """Install the filter on every handler of the root logger (call after ``logging.basicConfig``)."""
    redact = RedactSecrets(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    return redact
