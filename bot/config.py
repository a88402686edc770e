"""Settings: config/defaults.toml, then the file named by ROUNDHOUSE_CONFIG, then explicit overrides.

Every file is checked whole before anything is used (:func:`check_file`, with pydantic): an unknown section or
key, or a value of the wrong type, is refused at start with a :class:`ConfigError` that names the file, the
section and key, and the keys allowed there. A misspelt key is never silently ignored.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

ROOT = Path(__file__).resolve().parents[1]
DEFAULTS = ROOT / "config" / "defaults.toml"


@dataclass(frozen=True, slots=True)
class Settings:
    command_prefix: str = "/18xx"
    database: str = "data/roundhouse.db"  # or a postgresql:// URL; $ROUNDHOUSE_DB overrides the config files
    images: bool = True
    snapshot_every: int = 50
    cache_games: int = 512
    history_page: int = 20
    consent_hours: float = 48.0
    synchronous: str = "FULL"  # SQLite: FULL fsyncs every stored move (see benchmarks/storage.py)
    inactive_days: float = 14.0  # after this long without a move, any seated player may abandon the game
    moderators: tuple[str, ...] = ()  # console and tests: user ids with moderator rights
    metrics: str = ""  # "HOST:PORT" serves /metrics and /healthz there (bot.metrics); "" = off
    log_format: str = "text"  # "json": one JSON object per log line (bot.logs)
    out_dir: str = "out"
    channel: str = "console"

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


# ---------------------------------------------------------------------------------------------------- the files


class ConfigError(ValueError):
    """A config file that cannot be used as written; the message says where and what is allowed."""


class _Section(BaseModel):
    # Strict: "14" is no number and 1 is no bool (TOML has real types); an int is still a float.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ConsoleSection(_Section):
    out_dir: str = "out"
    channel: str = "console"


#: Narrower than the Settings field's type (the rest of [bot] is checked against Settings' own types).
_BOT_CONSTRAINTS: dict[str, Any] = {
    "synchronous": (Literal["FULL", "NORMAL", "EXTRA"], "FULL"),
    "log_format": (Literal["text", "json"], "text"),
    "snapshot_every": (int, Field(50, ge=1)),
    "cache_games": (int, Field(512, ge=1)),
    "history_page": (int, Field(20, ge=1)),
    "consent_hours": (float, Field(48.0, gt=0)),
    "inactive_days": (float, Field(14.0, gt=0)),
}


def _bot_section() -> type[_Section]:
    """[bot]: every field of :class:`Settings` that is not [console]'s, with Settings' types (lists for tuples)."""
    hints = get_type_hints(Settings)
    specs: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name in ConsoleSection.model_fields:
            continue
        kind = hints[f.name]
        if get_origin(kind) is tuple:
            kind = list[get_args(kind)[0]]  # type: ignore[misc]  # TOML has arrays, not tuples
        default = list(f.default) if isinstance(f.default, tuple) else f.default
        specs[f.name] = _BOT_CONSTRAINTS.get(f.name, (kind, default))
    model: type[_Section] = create_model("BotSection", __base__=_Section, **specs)
    return model


BotSection = _bot_section()


class DiscordSection(_Section):
    token_file: str = ""
    guild_id: int = Field(0, ge=0)
    sync_commands: bool = True
    reminder_seconds: float = Field(60.0, gt=0)
    thread_archive_minutes: Literal[60, 1440, 4320, 10080] = 10080
    moderator_roles: list[int] = []


class SlackSection(_Section):
    mode: Literal["auto", "socket", "http"] = "auto"
    command: str = "/18xx"
    host: str = "0.0.0.0"
    port: int = Field(3000, ge=1, le=65535)
    path: str = "/slack/events"
    reminder_seconds: float = Field(60.0, gt=0)
    requests_db: str = ""
    request_memory_hours: float = Field(24.0, gt=0)
    moderators: list[str] = []
    api_url: str = ""


SECTIONS: dict[str, type[_Section]] = {
    "bot": BotSection,
    "console": ConsoleSection,
    "discord": DiscordSection,
    "slack": SlackSection,
}


def check_file(file: Path) -> dict[str, dict[str, Any]]:
    """A config file's sections, each checked against its schema; raises ConfigError naming what is wrong."""
    try:
        data = tomllib.loads(file.read_text("utf-8"))
    except OSError as exc:
        raise ConfigError(f"{file}: cannot be read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: not valid TOML ({exc})") from None
    sections: dict[str, dict[str, Any]] = {}
    for name, values in data.items():
        model = SECTIONS.get(name)
        if model is None or not isinstance(values, dict):
            allowed = ", ".join(f"[{s}]" for s in SECTIONS)
            raise ConfigError(f"{file}: unknown section [{name}]; the sections are {allowed}")
        try:
            model.model_validate(values)
        except ValidationError as exc:
            raise ConfigError(_explain(file, name, model, exc)) from None
        sections[name] = dict(values)
    return sections


def _explain(file: Path, section: str, model: type[_Section], exc: ValidationError) -> str:
    allowed = ", ".join(model.model_fields)
    problems = []
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"])
        if error["type"] == "extra_forbidden":
            problems.append(f"unknown key {key!r} in [{section}]")
        else:
            problems.append(f"[{section}] {key} = {error.get('input')!r}: {error['msg']}")
    return f"{file}: " + "; ".join(problems) + f". The keys of [{section}] are: {allowed}"


@lru_cache(maxsize=32)
def _checked(file: Path, mtime: float) -> dict[str, dict[str, Any]]:
    return check_file(file)


def config_files(path: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None) -> list[Path]:
    env = os.environ if environ is None else environ
    files = [DEFAULTS] if DEFAULTS.is_file() else []
    extra = path or env.get("ROUNDHOUSE_CONFIG")
    if extra:
        files.append(Path(extra))
    return files


def config_sections(
    names: Sequence[str], path: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The named sections merged in order: defaults.toml first, then ``path`` (or $ROUNDHOUSE_CONFIG).

    Raises ConfigError when a file is unreadable or holds an unknown section or key or a wrong type.
    """
    values: dict[str, Any] = {}
    for file in config_files(path, environ):
        try:
            mtime = file.stat().st_mtime
        except OSError as exc:
            raise ConfigError(f"{file}: cannot be read ({exc.strerror or exc})") from None
        data = _checked(file.resolve(), mtime)
        for name in names:
            values.update(data.get(name, {}))
    return values


def load_settings(path: str | os.PathLike[str] | None = None) -> Settings:
    """Defaults, then ``path`` (or $ROUNDHOUSE_CONFIG) on top. Raises ConfigError for a file with mistakes."""
    kept = config_sections(("bot", "console"), path)
    # The database may be a postgresql:// URL with a password in it: an environment variable keeps it out of
    # config files and command lines (which other users of the machine can list).
    if os.environ.get("ROUNDHOUSE_DB"):
        kept["database"] = os.environ["ROUNDHOUSE_DB"]
    if "moderators" in kept:
        kept["moderators"] = tuple(str(m) for m in kept["moderators"])
    return Settings(**kept)
