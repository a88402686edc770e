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
    """The token in ``file``, which must lie outside any git repository or be ignored by git there.

    A file git tracks would be pushed with the code; one git neither tracks nor ignores is a `git add .` away
    from it. Both are refused with what to do.
    """
    if not file.is_file():
        raise SecretFileError(f"token_file {file} does not exist")
    state = git_state(file)
    if state == "tracked":
        raise SecretFileError(
            f"token_file {file} is tracked by git, so the token would be published with the code: "
            "move it out of the repository (or `git rm --cached` it and list it in .gitignore), and "
            "regenerate the token if it was ever pushed"
        )
    if state == "unignored":
        raise SecretFileError(
            f"token_file {file} is inside a git repository and not ignored, so a `git add .` would publish the "
            "token: move it out of the repository, or list it in .gitignore"
        )
    return file.read_text("utf-8").strip()


def _git(file: Path, *args: str) -> int | None:
    """The exit status of a git command about ``file`` (None when git cannot be run)."""
    path = file.resolve()
    try:
        done = subprocess.run(
            ["git", "-C", str(path.parent), *args, "--", path.name],
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.returncode


def git_state(file: Path) -> str:
    """``"outside"`` (no repository, or no git to ask), ``"tracked"``, ``"ignored"`` or ``"unignored"``."""
    if _git(file, "ls-files", "--error-unmatch") == 0:
        return "tracked"
    ignored = _git(file, "check-ignore", "-q")
    if ignored == 0:
        return "ignored"
    # check-ignore answers 1 for a file that is not ignored, and 128 outside a repository.
    return "unignored" if ignored == 1 else "outside"


def tracked_by_git(file: Path) -> bool:
    """Whether ``file`` is in a git repository's index (False when git or a repository is absent)."""
    return git_state(file) == "tracked"


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
