#!/usr/bin/env bash
# The byte-identical-playout proof of a refactor: digests of seeded playouts of every title, optional rules and
# policy (engine.playout_digest). Run it before and after a change and diff the two outputs:
#   bash scripts/behaviour_digest.sh 8 > before.txt; ...change...; bash scripts/behaviour_digest.sh 8 > after.txt
#   diff before.txt after.txt && echo identical
# $1: games per title and policy (default 8); $2: first seed (default 1). PY: the python to use (default .venv/bin/python).
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-8}"
base="${2:-1}"
py="${PY:-.venv/bin/python}"
[ -x "$py" ] || py=python3
for policy in random steady seeker; do
  for title in 1882 1828 1822 1862 1830; do
    "$py" -m engine.playout_digest "$title" "$games" "$base" --policy "$policy"
  done
  "$py" -m engine.playout_digest 1822 "$games" "$base" --policy "$policy" --optional-rules plus_expansion
done
