#!/usr/bin/env bash
# Creates .venv beside the project and installs the project (with dev extras) into it, once.
# Re-runs the install only when pyproject.toml changed since the last successful install.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
py="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$py" -m venv .venv
fi
stamp=.venv/.roundhouse-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  # pip's warnings would bury the bot's or the tests' output: keep them in a log, shown only on failure.
  log=.venv/install.log
  echo "Installing Roundhouse and its dependencies into .venv (once; details in $log)" >&2
  if ! { .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e ".[dev]"; } >"$log" 2>&1
  then
    cat "$log" >&2
    echo "Installing into .venv failed (see above)." >&2
    exit 1
  fi
  touch "$stamp"
fi
