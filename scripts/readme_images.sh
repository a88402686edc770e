#!/usr/bin/env bash
# Regenerates the example pictures in docs/images/ (used by the README): a recorded 1882 game mid-game (the
# state before action 400) and at its end, and for a finished game of every title its charts, its end-of-game
# summary card and a phone crop (1862 has no recorded game: a seeded playout to its end stands in).
# Needs the recorded games in ../shared/fixtures beside the repository.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fixtures="$root/../shared/fixtures"
cd "$root"
game="$fixtures/1882/1882_game_end_stock_market.json"
.venv/bin/python -m rendering "$game" --before 400 --optimize --prefix 1882-mid- --out docs/images
.venv/bin/python -m rendering "$game" --optimize --story --crop G11 --prefix 1882-end- --out docs/images
.venv/bin/python -m rendering "$fixtures/1822/33845.json" --optimize --story --crop M38 --prefix 1822-end- \
  --out docs/images
.venv/bin/python -m rendering "$fixtures/1828/1828Games_game_end_stock_market.json" --optimize --story \
  --crop D14 --prefix 1828-end- --out docs/images
.venv/bin/python -m rendering "$fixtures/1830/26855.json" --optimize --story --prefix 1830-end- --out docs/images
playout="$(mktemp --suffix=.json)"
trap 'rm -f "$playout"' EXIT
.venv/bin/python -m engine.playout 1862 --players 4 --seed 2 --policy steady --max-actions 6000 --out "$playout"
.venv/bin/python -m rendering "$playout" --optimize --story --prefix 1862-end- --out docs/images
# The README shows the whole board, market and status card of the 1882 game only.
rm -f docs/images/{1822,1828,1830,1862}-end-{map,market,status}.png
