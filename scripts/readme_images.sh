#!/usr/bin/env bash
# Regenerates the example pictures in docs/images/ (used by the README) from a recorded 1882 game:
# a mid-game board (the state before action 400) and the finished game.
# Needs the recorded games in ../shared/fixtures beside the repository.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
game="$root/../shared/fixtures/1882/1882_game_end_stock_market.json"
cd "$root"
.venv/bin/python -m rendering "$game" --before 400 --optimize --prefix 1882-mid- --out docs/images
.venv/bin/python -m rendering "$game" --optimize --prefix 1882-end- --out docs/images
