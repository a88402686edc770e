"""Map and market pictures for replies.

Views (read-only snapshots) are taken from the live game while the caller holds the game's lock; drawing them
is CPU-bound Pillow work and runs on a worker thread afterwards. A rendering failure never fails a command:
the reply just goes out without pictures.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core.replies import Attachment

if TYPE_CHECKING:  # Pillow is imported only when a picture is drawn
    from PIL import Image

log = logging.getLogger(__name__)

KINDS = ("map", "market")


def _view_builders() -> dict[str, Callable[[Any], Any]] | None:
    try:
        from engine.core import viewbuild
    except ImportError:
        return None
    builders = {
        "map": getattr(viewbuild, "board_view", None),
        "market": getattr(viewbuild, "market_view", None),
        "status": getattr(viewbuild, "status_view", None),
    }
    return {k: v for k, v in builders.items() if v is not None} or None


def warm_up() -> None:
    """Import the renderer now, so the first reply that needs it does not pay for the import."""
    if _view_builders() is not None:
        try:
            import rendering  # noqa: F401
        except ImportError:
            log.warning("the renderer cannot be imported; replies go out without pictures")


def available() -> bool:
    return _view_builders() is not None


@dataclass(frozen=True, slots=True)
class Views:
    """What to draw, taken from the game at one moment."""

    game_id: int
    seq: int
    views: dict[str, Any]


def take_views(game: Any, game_id: int, seq: int, kinds: tuple[str, ...] = KINDS) -> Views | None:
    builders = _view_builders()
    if builders is None:
        return None
    views: dict[str, Any] = {}
    for kind in kinds:
        build = builders.get(kind)
        if build is None:
            continue
        try:
            views[kind] = build(game)
        except Exception:
            log.exception("building the %s view of game %s failed", kind, game_id)
    return Views(game_id, seq, views) if views else None


def status_text(game: Any) -> str | None:
    """The renderer's text status card, if views can be built."""
    builders = _view_builders()
    if builders is None or "status" not in builders:
        return None
    try:
        from rendering import status_text as render_text

        return str(render_text(builders["status"](game)))
    except Exception:
        log.exception("status text failed")
        return None


def _draw(views: Views) -> list[Attachment]:
    from rendering import render_map, render_market, to_png

    out: list[Attachment] = []
    drawers: dict[str, tuple[Callable[[Any], Image.Image], str]] = {
        "map": (render_map, "the map"),
        "market": (render_market, "the stock market"),
    }
    for kind, view in views.views.items():
        if kind not in drawers:
            continue
        draw, what = drawers[kind]
        try:
            png = to_png(draw(view))
        except Exception:
            log.exception("drawing the %s of game %s failed", kind, views.game_id)
            continue
        out.append(
            Attachment(
                f"game{views.game_id}-{views.seq:04d}-{kind}.png", png, f"{what} after action {views.seq}"
            )
        )
    return out


async def render(views: Views | None) -> list[Attachment]:
    if views is None:
        return []
    return await asyncio.to_thread(_draw, views)
