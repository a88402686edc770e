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
from engine.api import Game

if TYPE_CHECKING:  # Pillow is imported only when a picture is drawn
    from PIL import Image

log = logging.getLogger(__name__)

KINDS = ("map", "market")


def _view_builders() -> dict[str, Callable[[Any], Any]]:
    from engine.core.statusbuild import status_view
    from engine.core.viewbuild import board_view, market_view

    return {"map": board_view, "market": market_view, "status": status_view}


def warm_up() -> None:
    """Import the renderer now, so the first reply that needs it does not pay for the import."""
    try:
        import rendering  # noqa: F401
    except ImportError:
        log.warning("the renderer cannot be imported; replies go out without pictures")


def available() -> bool:
    """Whether pictures can be drawn (the renderer imports)."""
    try:
        import rendering  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Views:
    """What to draw, taken from the game at one moment."""

    game_id: int
    seq: int
    views: dict[str, Any]


@dataclass(frozen=True, slots=True)
class CropView:
    """The board and the hexes a phone-sized crop of it shows."""

    board: Any  # engine.core.views.BoardView
    focus: tuple[str, ...]


def board_of(game: Game) -> Any:
    """The board view of ``game`` (for a crop on demand)."""
    from engine.core.viewbuild import board_view

    return board_view(game)


def changed_hexes(game: Game, action: dict[str, Any]) -> tuple[str, ...]:
    """The hex a tile lay or a station changed (empty for other actions), for a crop around it."""
    try:
        if action.get("type") == "lay_tile" and action.get("hex"):
            return (str(action["hex"]),)
        if action.get("type") == "place_token" and action.get("city"):
            hx, _node = game.track.city_by_id(str(action["city"]))
            return (str(hx.id),)
    except Exception:  # a crop is a convenience: without it the whole map goes out
        log.debug("no hex for %s", action, exc_info=True)
    return ()


def take_views(
    game: Game, game_id: int, seq: int, kinds: tuple[str, ...] = KINDS, focus: tuple[str, ...] = ()
) -> Views | None:
    """Views of ``kinds`` taken now; with ``focus`` the map is a crop around those hexes (for a phone)."""
    builders = _view_builders()
    views: dict[str, Any] = {}
    for kind in kinds:
        build = builders.get(kind)
        if build is None:
            continue
        try:
            views[kind] = build(game)
            if kind == "map":
                views[kind] = _with_lay_highlight(game, views[kind])
                if focus:
                    views["crop"] = CropView(views.pop(kind), focus)
        except Exception:
            log.exception("building the %s view of game %s failed", kind, game_id)
    return Views(game_id, seq, views) if views else None


def _with_lay_highlight(game: Game, board: Any) -> Any:
    """The board with the hexes where the acting company may lay track outlined (none outside that step)."""
    from dataclasses import replace

    from bot.core.moves_text import lay_hexes

    if game.finished:
        return board
    for ent in game.acting():
        hexes = lay_hexes(game, ent)
        if hexes:
            return replace(board, highlight_hexes=tuple(hexes), highlight_note=f"{game.describe(ent)} may lay here")
    return board


def companies_text(game: Game) -> str | None:
    """Every private company (value, revenue, ability, holder or high bid) and every public company's card."""
    builders = _view_builders()
    try:
        from rendering.status import company_lines, corporation_lines

        view = builders["status"](game)
        lines = []
        privates = company_lines(view)
        if privates:
            lines += ["Private companies:", *privates]
        lines += ["Public companies:", *corporation_lines(view, minors=False)]
        # Minors (1822's M1-M24, 1828's C&P) are private companies run like railroads, not public companies.
        if minor_lines := corporation_lines(view, minors=True):
            lines += ["Minor companies (privately held, run like railroads):", *minor_lines]
        return "\n".join(lines)
    except Exception:
        log.exception("companies text failed")
        return None


def status_text(game: Game) -> str | None:
    """The renderer's text status card, if views can be built."""
    builders = _view_builders()
    try:
        from rendering import status_text as render_text

        return str(render_text(builders["status"](game)))
    except Exception:
        log.exception("status text failed")
        return None


def _draw_crop(view: CropView) -> Image.Image:
    from rendering.map import render_crop

    return render_crop(view.board, view.focus)


def _draw(views: Views) -> list[Attachment]:
    from rendering import render_map, render_market, render_status, to_png

    out: list[Attachment] = []
    drawers: dict[str, tuple[Callable[[Any], Image.Image], str]] = {
        "map": (render_map, "the map"),
        "crop": (_draw_crop, "the map around the change"),
        "market": (render_market, "the stock market"),
        "status": (render_status, "the status card"),
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


@dataclass(frozen=True, slots=True)
class LayPicture:
    """The "what fits here" picture of one hex, taken from the game under its lock."""

    game_id: int
    title: str
    layout: str
    current: Any  # engine.core.views.HexView
    options: tuple[tuple[Any, str, str], ...]  # (HexView with the tile laid, caption, cost)
    currency: str
    colours: dict[str, str]
    text_colours: dict[str, str]
    track_beyond: tuple[int, ...] = ()  # edges where a neighbour's track meets the hex


def track_beyond(game: Game, hex_id: str) -> tuple[int, ...]:
    """The edges of a hex where track in the neighbouring hex runs up to it."""
    hx = game.board.hexes[hex_id]
    return tuple(
        sorted(e for e, nb in hx.neighbors.items() if (e + 3) % 6 in game.board.hexes[nb].tile.exits())
    )


#: Options drawn in one picture (the text lists them all).
MAX_DRAWN_OPTIONS = 30


def lay_picture(game: Game, game_id: int, hex_id: str, options: list[tuple[str, int, str, str]]) -> LayPicture | None:
    """Views for the options picture: ``options`` are (supply tile id, rotation, caption, cost)."""
    try:
        from engine.core import viewbuild

        board = viewbuild.board_view(game)
        current = next(h for h in board.hexes if h.id == hex_id)
        drawn = tuple(
            (viewbuild.lay_option_view(game, hex_id, tile_id, rotation), caption, cost)
            for tile_id, rotation, caption, cost in options[:MAX_DRAWN_OPTIONS]
        )
        currency = str(game.format_money(0)).replace("0", "")
        return LayPicture(
            game_id,
            board.title,
            board.layout,
            current,
            drawn,
            currency,
            dict(board.corporation_colours),
            dict(board.corporation_text_colours),
            track_beyond(game, hex_id),
        )
    except Exception:
        log.exception("building the tile options of %s in game %s failed", hex_id, game_id)
        return None


def _draw_lay(picture: LayPicture) -> list[Attachment]:
    from rendering import to_png
    from rendering.lay_options import LayOption, render_lay_options

    try:
        image = render_lay_options(
            picture.title,
            "flat" if picture.layout == "flat" else "pointy",
            picture.current,
            [LayOption(h, caption, cost) for h, caption, cost in picture.options],
            currency=picture.currency,
            colours=picture.colours,
            text_colours=picture.text_colours,
            track_beyond=picture.track_beyond,
        )
        png = to_png(image)
    except Exception:
        log.exception("drawing the tile options of game %s failed", picture.game_id)
        return []
    name = f"game{picture.game_id}-tiles-{picture.current.id}.png"
    return [Attachment(name, png, f"tiles that fit on {picture.current.id}")]


async def render_lay(picture: LayPicture | None) -> list[Attachment]:
    if picture is None:
        return []
    return await asyncio.to_thread(_draw_lay, picture)
