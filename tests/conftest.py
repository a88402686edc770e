"""Shared test fixtures: the recorded games in ../shared/fixtures (never copied into the repo)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_FIXTURES = ROOT.parent / "shared" / "fixtures"


def recorded_games(title: str) -> list[Path]:
    folder = SHARED_FIXTURES / title
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def require_recorded(title: str) -> list[Path]:
    games = recorded_games(title)
    if not games:
        pytest.skip(f"no recorded {title} games: {SHARED_FIXTURES / title} is absent")
    return games
