#!/usr/bin/env bash
# Runs the linter, the type checker and the whole test suite in the project's own virtual environment.
#
# The storage tests also run on PostgreSQL, on a throwaway server this script starts (and removes afterwards)
# when PostgreSQL is installed; as root with apt-get it installs the `postgresql` package first. Without it
# those tests are skipped, and the script says so. ROUNDHOUSE_TEST_POSTGRES=URL uses a server you already run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$root/scripts/ensure_venv.sh"
cd "$root"
.venv/bin/ruff check .
.venv/bin/mypy

have_postgres() {
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null
}

pg_note=""
if [ -z "${ROUNDHOUSE_TEST_POSTGRES:-}" ]; then
  if ! have_postgres && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test.sh: installing PostgreSQL for the storage tests (apt-get, bounded to a few minutes)" >&2
    # Bounded: a slow mirror or a held dpkg lock must not hang CI; the tests then skip PostgreSQL.
    { timeout 120 apt-get -o DPkg::Lock::Timeout=30 update -qq \
        && DEBIAN_FRONTEND=noninteractive timeout 300 apt-get -o DPkg::Lock::Timeout=30 install -y -qq \
          --no-install-recommends postgresql; } >/tmp/roundhouse-apt.log 2>&1 \
      || echo "test.sh: could not install PostgreSQL (see /tmp/roundhouse-apt.log)" >&2
  fi
  pg_dir="$(mktemp -d)"
  if url="$(timeout 120 .venv/bin/python -m tests.pg_server start "$pg_dir/server" 2>"$pg_dir/why")"; then
    export ROUNDHOUSE_TEST_POSTGRES="$url"
    trap '.venv/bin/python -m tests.pg_server stop "$pg_dir/server"; rm -rf "$pg_dir"' EXIT
    pg_note="PostgreSQL: the storage tests ran on both SQLite and a throwaway PostgreSQL server."
  else
    reason="$(tr '\n' ' ' <"$pg_dir/why" | cut -c1-300)"
    rm -rf "$pg_dir"
    export ROUNDHOUSE_TEST_POSTGRES_SKIP="${reason:-the server did not start}"
    pg_note="PostgreSQL: SKIPPED the PostgreSQL storage tests (SQLite ones ran): $ROUNDHOUSE_TEST_POSTGRES_SKIP"
  fi
else
  pg_note="PostgreSQL: the storage tests ran on both SQLite and the server at ROUNDHOUSE_TEST_POSTGRES."
fi
echo "test.sh: ${pg_note}" >&2

# One worker per core; pass -n 0 to run in this process (e.g. under a debugger).
status=0
.venv/bin/python -m pytest -n auto "$@" || status=$?
echo "test.sh: ${pg_note}" >&2
exit "$status"
