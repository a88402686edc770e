"""Settings: config/defaults.toml, then the file named by ROUNDHOUSE_CONFIG, then explicit overrides."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULTS = ROOT / "config" / "defaults.toml"


@dataclass(frozen=True, slots=True)
class Settings:
    command_prefix: str = "/18xx"
    database: str = "data/roundhouse.db"
    images: bool = True
    snapshot_every: int = 50
    cache_games: int = 512
    history_page: int = 20
    consent_hours: float = 48.0
    out_dir: str = "out"
    channel: str = "console"

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _read(path: Path) -> dict[str, Any]:
    data = tomllib.loads(path.read_text("utf-8"))
    flat: dict[str, Any] = {}
    for section in ("bot", "console"):
        flat.update(data.get(section, {}))
    known = {f.name for f in fields(Settings)}
    return {k: v for k, v in flat.items() if k in known}


def load_settings(path: str | os.PathLike[str] | None = None) -> Settings:
    """Defaults, then ``path`` (or $ROUNDHOUSE_CONFIG) on top."""
    values: dict[str, Any] = {}
    if DEFAULTS.is_file():
        values.update(_read(DEFAULTS))
    extra = path or os.environ.get("ROUNDHOUSE_CONFIG")
    if extra:
        values.update(_read(Path(extra)))
    return Settings(**values)
