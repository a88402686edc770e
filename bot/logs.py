"""How the bot logs: readable lines (the default) or one JSON object per line for a log collector.

``[bot] log_format = "json"`` in the config (or ``ROUNDHOUSE_LOG_FORMAT=json``) chooses JSON. Each record
carries ``time`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``, plus ``exception`` with the traceback
when there is one; tokens are hidden as in text logs (:func:`bot.tokens.hide_in_logs` filters the handler).
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


#: The format the config chose (set by ``bot.__main__`` once the config files are read).
chosen = "text"


def configure(level: int = logging.INFO, text_format: str = TEXT_FORMAT, log_format: str | None = None) -> None:
    """Set up the root logger as text lines (``text_format``) or JSON objects: ``log_format``, else
    ``$ROUNDHOUSE_LOG_FORMAT``, else the config's choice. Each command picks its own level."""
    kind = log_format or os.environ.get("ROUNDHOUSE_LOG_FORMAT") or chosen
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if kind == "json" else logging.Formatter(text_format))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
