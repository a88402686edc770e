"""The "what fits here" picture: one hex as it is now, with its edges numbered, then each legal tile and
rotation drawn in that hex, with the command to lay it and its cost beside it.

>>> from engine.core.views import HexView
>>> img = render_lay_options("demo", "flat", HexView("A1", 0, 1, "white"), [])
>>> img.mode
'RGB'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.core.views import BoardView, HexView
from rendering import theme
from rendering.canvas import Canvas
from rendering.geometry import HexLayout, Orientation, edge_midpoint
from rendering.map import _Ctx, _draw_hex_top, _draw_track, _plan_hex

__all__ = ["LayOption", "render_lay_options"]

_CELL_W = 200.0
_CELL_H = 196.0
_COLUMNS = 5
_HEADER = 44.0


@dataclass(frozen=True, slots=True)
class LayOption:
    """One candidate: the hex with the tile laid, and the words under it (``"57 r2"``, ``"$20"``)."""

    hex: HexView
    caption: str
    cost: str = ""


def render_lay_options(
    title: str,
    orientation: Orientation,
    current: HexView,
    options: Sequence[LayOption],
    *,
    scale: float = 1.0,
    currency: str = "$",
    colours: dict[str, str] | None = None,
    text_colours: dict[str, str] | None = None,
    track_beyond: Sequence[int] = (),
) -> Image.Image:
    """Draw the hex now (edges numbered 0-5: the rotation numbers) and every option, five to a row.

    ``track_beyond`` are the edges where a neighbour's track meets this hex: each cell shows them as stubs
    outside the hex, so a candidate is seen joining (or missing) the track around it.
    """
    cells = [LayOption(current, f"{current.id} now", "edges 0-5"), *options]
    rows = -(-len(cells) // _COLUMNS)
    width = _CELL_W * min(_COLUMNS, len(cells))
    height = _HEADER + rows * _CELL_H
    canvas = Canvas(max(width, 420.0), height, scale=scale)
    layout = HexLayout(orientation, theme.HEX_SIZE * 0.95)
    view = BoardView(title, orientation, "rows", tuple(c.hex for c in cells),
                     corporation_colours=dict(colours or {}), corporation_text_colours=dict(text_colours or {}))
    ctx = _Ctx(view, layout, canvas, currency)
    canvas.rect((0, 0, max(width, 420.0), _HEADER), fill=theme.PANEL)
    canvas.text((12, _HEADER / 2), f"{title}: tiles for {current.id}", size=theme.FONT_TEXT + 2, bold=True,
                anchor="lm")
    for i, cell in enumerate(cells):
        col, row = i % _COLUMNS, i // _COLUMNS
        centre = (col * _CELL_W + _CELL_W / 2, _HEADER + row * _CELL_H + _CELL_H / 2 - 16)
        canvas.polygon(layout.polygon(centre), fill=theme.hex_fill(cell.hex.colour), outline=theme.GRID_LINE,
                       width=1.2)
        for edge in track_beyond:
            mx, my = edge_midpoint(layout.orientation, edge)
            inner = (centre[0] + mx * layout.size, centre[1] + my * layout.size)
            outer = (centre[0] + mx * layout.size * 1.22, centre[1] + my * layout.size * 1.22)
            canvas.line([inner, outer], theme.MUTED, layout.size * theme.TRACK_WIDTH)
        plan = _plan_hex(ctx, cell.hex, centre, ())
        _draw_track(ctx, plan)
        _draw_hex_top(ctx, plan)
        if i == 0:
            _number_edges(canvas, layout, centre)
        label_y = centre[1] + layout.size * 0.87 + 16
        canvas.text((centre[0], label_y), cell.caption, size=theme.FONT_TEXT, bold=True)
        if cell.cost:
            canvas.text((centre[0], label_y + 17), cell.cost, size=theme.FONT_TEXT - 3, fill=theme.MUTED)
    return canvas.finish()


def _number_edges(canvas: Canvas, layout: HexLayout, centre: Point) -> None:
    """Edge numbers just inside each side: rotation R turns a tile R sides clockwise."""
    for edge in range(6):
        mx, my = edge_midpoint(layout.orientation, edge)
        p = (centre[0] + mx * layout.size * 0.8, centre[1] + my * layout.size * 0.8)
        canvas.circle(p, 9, fill=theme.HIGHLIGHT_TILE)
        canvas.text(p, str(edge), size=theme.FONT_SMALL + 1, bold=True, fill="#ffffff")


Point = tuple[float, float]
