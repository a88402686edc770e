"""Pictures of a game for chat: the board, the stock market and the status card.

Every function is pure: it reads one of the read-only snapshots from ``engine.core.views`` and
returns a Pillow image (or text); nothing here touches a live game, so callers can draw on a worker
thread (``await asyncio.to_thread(render_map, view)``).

>>> from engine.core.views import BoardView, HexView
>>> png = to_png(render_map(BoardView("demo", "flat", "rows", (HexView("A1", 0, 1, "white"),))))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from rendering.map import render_map
from rendering.market import render_market
from rendering.png import MAX_PNG_BYTES, to_png
from rendering.status import render_status, status_text

__all__ = ["MAX_PNG_BYTES", "render_map", "render_market", "render_status", "status_text", "to_png"]
