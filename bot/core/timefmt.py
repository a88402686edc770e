"""Times that each reader sees in their own zone.

The service writes a moment as a marker, ``[[t:1700000000]]``; before a reply leaves the service the marker
becomes what the platform shows in the reader's own time zone: ``<t:1700000000:R>`` on Discord ("3 hours
ago"), ``<!date^1700000000^{date_short_pretty} {time}|...>`` on Slack, and a UTC time on the console.

>>> render("since [[t:1700000000]]", "discord")
'since <t:1700000000:R>'
>>> render("since [[t:1700000000]]", "console")
'since 2023-11-14 22:13 UTC'
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

_MARK = re.compile(r"\[\[t:(\d+)\]\]")


def mark(unix: float) -> str:
    return f"[[t:{int(unix)}]]"


def _utc(unix: int) -> str:
    return datetime.fromtimestamp(unix, UTC).strftime("%Y-%m-%d %H:%M UTC")


def render(text: str, platform: str) -> str:
    def one(m: re.Match[str]) -> str:
        unix = int(m.group(1))
        if platform == "discord":
            return f"<t:{unix}:R>"
        if platform == "slack":
            return f"<!date^{unix}^{{date_short_pretty}} {{time}}|{_utc(unix)}>"
        return _utc(unix)

    return _MARK.sub(one, text)
