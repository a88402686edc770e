"""How the bot logs: readable lines (the default) or one JSON object per line for a log collector.

``[bot] log_format = "json"`` in the config (or ``ROUNDHOUSE_LOG_FORMAT=json``) chooses JSON. Each record
carries ``time`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``, plus ``exception`` with the traceback
when there is one; tokens are hidden as in text logs (:func:`bot.tokens.hide_in_logs` filters the handler).
"""

from __future__ import annotations

import json
import logging
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


def configure(log_format: str = "text", level: int = logging.INFO) -> None:
    """Set up the root logger once, as text lines or JSON objects."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
