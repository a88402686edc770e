#!/usr/bin/env bash
# Runs the linter, the type checker and the whole test suite in the project's own virtual environment.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$root/scripts/ensure_venv.sh"
cd "$root"
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
