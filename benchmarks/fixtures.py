"""Which recorded games each benchmark measures: those of every registered title (or the titles asked for)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import TITLES  # noqa: E402

SHARED = ROOT.parent / "shared" / "fixtures"


def add_title_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--title", action="append", default=None,
                        help=f"a title to measure (repeatable; default every title: {', '.join(TITLES)})")


def recorded_games(titles: list[str] | None) -> dict[str, list[Path]]:
    """The recorded games of each title asked for (default: every registered title), titles without any left out."""
    out: dict[str, list[Path]] = {}
    for title in titles or list(TITLES):
        if title not in TITLES:
            raise SystemExit(f"unknown title {title!r}; registered: {', '.join(TITLES)}")
        files = sorted((SHARED / title).glob("*.json"))
        if files:
            out[title] = files
    return out


def largest(files: list[Path]) -> Path:
    """The longest recorded game: the latest board a title's recorded games reach."""
    return max(files, key=lambda f: f.stat().st_size)
