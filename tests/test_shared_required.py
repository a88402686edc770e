"""Tests that need ../shared fail, never skip, when it is missing (a run without it must not pass)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT


def test_tests_that_need_the_shared_games_fail_when_they_are_missing(tmp_path: object) -> None:
    env = {**os.environ, "ROUNDHOUSE_SHARED": str(ROOT / "no-such-shared-folder")}
    files = ["tests/engine/test_recorded_games.py", "tests/bot/test_import_hostile.py"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-rfE", *files],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out[-3000:]
    summary = out.strip().splitlines()[-1]
    assert "failed" in summary and "error" in summary and "skipped" not in summary, summary
    assert "the recorded games of ../shared/fixtures are needed by this test and are missing" in out
