"""Shared test fixtures: the recorded games in ../shared/fixtures (never copied into the repo).

Tests that need those games FAIL when they are missing, never skip: a run without ../shared would otherwise pass
while hundreds of checks did not run. Test modules may still say ``skipif(not GAMES, reason="... is absent")``;
:func:`pytest_runtest_makereport` turns such a skip (and an empty parametrisation over recorded games) into a
failure that says what is missing. ``ROUNDHOUSE_SHARED`` names another shared folder (the tests of this rule
point it at one that does not exist).
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ROUNDHOUSE_SHARED") or ROOT.parent / "shared")
SHARED_FIXTURES = SHARED / "fixtures"
#: Skip reasons that mean "a recorded game or ../shared is not there".
_NEEDS_SHARED = re.compile(r"absent|missing|shared|recorded|fixtures", re.IGNORECASE)


def missing_message(what: object) -> str:
    return (
        f"{what}: the recorded games of ../shared/fixtures are needed by this test and are missing "
        f"(looked in {SHARED_FIXTURES}). Put the shared folder beside the repository (or set ROUNDHOUSE_SHARED); "
        "tests that need it fail rather than skip."
    )


def recorded_games(title: str) -> list[Path]:
    folder = SHARED_FIXTURES / title
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def require_recorded(title: str) -> list[Path]:
    games = recorded_games(title)
    if not games:
        pytest.fail(missing_message(f"no recorded {title} games"), pytrace=False)
    return games


def _shared_present() -> bool:
    return SHARED_FIXTURES.is_dir() and any(SHARED_FIXTURES.iterdir())


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr: Any = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr or "")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    reason = _skip_reason(report)
    if "PostgreSQL" in reason:
        return  # the database server is optional; test.sh says when its tests did not run
    empty = "got empty parameter set" in reason and not _shared_present()
    if empty or (_NEEDS_SHARED.search(reason) and not _shared_present()) or "is absent" in reason:
        report.outcome = "failed"
        report.longrepr = missing_message(reason.removeprefix("Skipped: "))
