"""The stock market picture: price grid, zones, par and end cells, and the company markers."""

from __future__ import annotations

from PIL import Image

from engine.core.views import MarketView
from rendering import theme
from rendering.canvas import Canvas

__all__ = ["render_market"]

_MIN_WIDTH = 1440.0
_MARGIN = 24.0
_HEADER = 64.0
_FOOTER = 44.0


def render_market(view: MarketView) -> Image.Image:
    """Draw the stock market grid with every company's marker on its cell.

    Markers sharing a cell are stacked left to right in operating order, the first one on top.

    Returns:
        An RGB image at least 1440 px wide.
    """
    n_rows = len(view.rows)
    n_cols = max((len(r) for r in view.rows), default=0)
    cell_w = max(56.0, (_MIN_WIDTH - 2 * _MARGIN) / max(1, n_cols))
    cell_h = round(cell_w * 0.92)
    width = max(_MIN_WIDTH, n_cols * cell_w + 2 * _MARGIN)
    height = _HEADER + n_rows * cell_h + _FOOTER + _MARGIN
    c = Canvas(width, height)

    _draw_header(c, view, width)

    x0 = (width - n_cols * cell_w) / 2
    y0 = _HEADER
    par = set(view.par_cells)
    end = set(view.end_cells)
    for r, row in enumerate(view.rows):
        for col, price in enumerate(row):
            if price is None:
                continue
            bx, by = x0 + col * cell_w, y0 + r * cell_h
            box = (bx, by, bx + cell_w, by + cell_h)
            zone = view.zones.get((r, col), "plain")
            is_end = (r, col) in end
            fill = theme.END_FILL if is_end else theme.MARKET_COLOURS.get(zone, theme.hex_fill(zone))
            c.rect(box, fill=fill, outline="#8c8577", width=1)
            text_colour = theme.END_TEXT if is_end else theme.INK
            if (r, col) in par:
                inset = 2.5
                c.rect((bx + inset, by + inset, bx + cell_w - inset, by + cell_h - inset),
                       outline=theme.PAR_OUTLINE, width=3, radius=3)
                c.text((bx + cell_w - 8, by + 8), "par", size=10, bold=True, fill=theme.PAR_OUTLINE,
                       anchor="rt")
            c.text((bx + 8, by + 7), f"{price}", size=14, bold=True, fill=text_colour, anchor="lt")
            if is_end:
                c.text((bx + cell_w - 8, by + 8), "END", size=10, bold=True, fill="#ffcc33", anchor="rt")

    # Markers: one row for up to two, else two rows, each fanned out left to right; the first to
    # operate is top left and drawn last, on top of the others.
    for (r, col), stack in view.stacks.items():
        if not stack or r >= n_rows or col >= n_cols:
            continue
        bx, by = x0 + col * cell_w, y0 + r * cell_h
        lines = 1 if len(stack) <= 2 else 2
        per_line = -(-len(stack) // lines)
        free_h = cell_h - 26  # below the price
        radius = min(cell_w * 0.17, (free_h / lines - 1) / 2)
        avail = cell_w - 2 * radius - 10
        step = min(2 * radius + 2, avail / (per_line - 1)) if per_line > 1 else 0.0
        span = step * (per_line - 1)
        places = []
        for i in range(len(stack)):
            line, pos = divmod(i, per_line)
            cx = bx + cell_w / 2 - span / 2 + pos * step
            cy = by + 23 + radius + line * (2 * radius + 1)
            places.append((cx, cy))
        for i in reversed(range(len(stack))):
            _marker(c, view, places[i], radius, stack[i])

    _draw_legend(c, view, width, y0 + n_rows * cell_h + 10)
    return c.finish()


def _marker(c: Canvas, view: MarketView, p: tuple[float, float], r: float, sym: str) -> None:
    fill = view.corporation_colours.get(sym, "#888888")
    text = view.corporation_text_colours.get(sym) or theme.readable_on(fill)
    c.circle(p, r + 1.5, fill="#ffffff")
    c.circle(p, r, fill=fill, outline=theme.mix(fill, "#000000", 0.5), width=1.3)
    size = 11.0
    while size > 7 and c.text_width(sym, size=size, bold=True) > r * 1.75:
        size -= 1
    c.text(p, sym, size=size, bold=True, fill=text)


def _draw_header(c: Canvas, view: MarketView, width: float) -> None:
    c.rect((0, 0, width, _HEADER - 12), fill=theme.PANEL)
    y = (_HEADER - 12) / 2
    c.text((_MARGIN, y), f"{view.title} · Stock market", size=theme.FONT_HEADER, bold=True, anchor="lm")
    right = f"{view.round_name}   ·   Phase {view.phase}   ·   {view.operating_rounds_in_set} OR per set"
    if view.operating_rounds_in_set != 1:
        right = right.replace("OR per set", "ORs per set")
    c.text((width - _MARGIN, y), right, size=theme.FONT_TEXT + 1, anchor="rm")


def _draw_legend(c: Canvas, view: MarketView, width: float, top: float) -> None:
    y = top + 14
    x = _MARGIN
    known = ["yellow", "orange", "brown", "red"]
    zones = sorted(set(view.zones.values()), key=lambda z: (known.index(z) if z in known else len(known), z))
    for zone in zones:
        c.rect((x, y - 8, x + 22, y + 8), fill=theme.MARKET_COLOURS.get(zone, theme.hex_fill(zone)),
               outline="#8c8577", width=1, radius=2)
        c.text((x + 28, y), f"{zone} zone", size=theme.FONT_TEXT, anchor="lm")
        x += 28 + c.text_width(f"{zone} zone", size=theme.FONT_TEXT) + 22
    if view.par_cells:
        c.rect((x, y - 8, x + 22, y + 8), fill=theme.MARKET_COLOURS["plain"], outline=theme.PAR_OUTLINE,
               width=2.5, radius=2)
        c.text((x + 28, y), "par value", size=theme.FONT_TEXT, anchor="lm")
        x += 28 + c.text_width("par value", size=theme.FONT_TEXT) + 22
    if view.end_cells:
        c.rect((x, y - 8, x + 22, y + 8), fill=theme.END_FILL, radius=2)
        c.text((x + 28, y), "game ends", size=theme.FONT_TEXT, anchor="lm")
        x += 28 + c.text_width("game ends", size=theme.FONT_TEXT) + 22
    c.text((width - _MARGIN, y), "shared cell: first to operate is top left", size=theme.FONT_TEXT - 1,
           fill=theme.MUTED, anchor="rm")
