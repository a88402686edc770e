"""Settings: config/defaults.toml, then the file named by ROUNDHOUSE_CONFIG, then explicit overrides."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

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
    out_dir: str = "out"
    channel: str = "console"

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def config_sections(
    names: Sequence[str], path: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The named TOML sections merged in order: defaults.toml first, then ``path`` (or $ROUNDHOUSE_CONFIG)."""
    env = os.environ if environ is None else environ
    files = [DEFAULTS] if DEFAULTS.is_file() else []
    extra = path or env.get("ROUNDHOUSE_CONFIG")
    if extra:
        files.append(Path(extra))
    values: dict[str, Any] = {}
    for file in files:
        data = tomllib.loads(file.read_text("utf-8"))
        for name in names:
            values.update(data.get(name, {}))
    return values


def load_settings(path: str | os.PathLike[str] | None = None) -> Settings:
    """Defaults, then ``path`` (or $ROUNDHOUSE_CONFIG) on top."""
    known = {f.name for f in fields(Settings)}
    values = config_sections(("bot", "console"), path)
    kept = {k: v for k, v in values.items() if k in known}
    # The database may be a postgresql:// URL with a password in it: an environment variable keeps it out of
    # config files and command lines (which other users of the machine can list).
    if os.environ.get("ROUNDHOUSE_DB"):
        kept["database"] = os.environ["ROUNDHOUSE_DB"]
    if "moderators" in kept:
        kept["moderators"] = tuple(str(m) for m in kept["moderators"])
    return Settings(**kept)
