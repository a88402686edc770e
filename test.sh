#!/usr/bin/env bash
# Runs the linter, the type checker and the whole test suite in the project's own virtual environment.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$root/scripts/ensure_venv.sh"
cd "$root"
.venv/bin/ruff check .
.venv/bin/mypy
# One worker per core; pass -n 0 to run in this process (e.g. under a debugger).
exec .venv/bin/python -m pytest -n auto "$@"
