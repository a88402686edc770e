#!/usr/bin/env bash
# Starts the bot: Discord when DISCORD_TOKEN is set, Slack when SLACK_BOT_TOKEN is set, else the console.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$root/scripts/ensure_venv.sh"
cd "$root"
exec .venv/bin/python -m bot "$@"
