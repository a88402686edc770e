"""The stock market picture: price grid, zones, par and end cells, and the company markers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.core.views import MarketView
from rendering import theme
from rendering.canvas import Canvas

__all__ = ["render_market"]

_MIN_WIDTH = 1440.0
_MARGIN = 24.0
_HEADER = 64.0
_FOOTER = 44.0
_PRICE = 17
_TEXT = theme.FONT_TEXT + 1
_ALERT = "#b3261e"


#: Markers drawn in one cell; with more, the first to operate and a "+N" count beside it, and the footer names
#: them all.
MAX_SHOWN = 2


def render_market(view: MarketView) -> Image.Image:
    """Draw the stock market grid with every company's marker on its cell.

    Markers sharing a cell are stacked left to right in operating order, the first one on top. A
    finished game gets a "Game over" panel with the final ranking, in an empty corner of the grid
    when there is one, else in a band under it.

    Returns:
        An RGB image at least 1440 px wide.
    """
    n_rows = len(view.rows)
    n_cols = max((len(r) for r in view.rows), default=0)
    cell_w = max(56.0, (_MIN_WIDTH - 2 * _MARGIN) / max(1, n_cols))
    cell_h = round(cell_w * 0.92)
    width = max(_MIN_WIDTH, n_cols * cell_w + 2 * _MARGIN)
    x0 = (width - n_cols * cell_w) / 2
    y0 = _HEADER

    over: _Panel | None = None
    band = 0.0
    if view.finished:
        measure = Canvas(1, 1)
        over = _game_over_panel(measure, view, min(width - 2 * _MARGIN, 560.0))
        spot = _empty_area(view.rows, n_cols, over.width / cell_w, over.height / cell_h)
        if spot is not None:
            r0, c0, r1, c1 = spot
            over.x = x0 + (c0 + c1) / 2 * cell_w - over.width / 2
            over.y = y0 + (r0 + r1) / 2 * cell_h - over.height / 2
        else:
            band = over.height + 16
            over.x = _MARGIN
            over.y = y0 + n_rows * cell_h + 12
    height = _HEADER + n_rows * cell_h + band + _FOOTER + _MARGIN
    c = Canvas(width, height)

    _draw_header(c, view, width)

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
            # "par" and "END" beside the price when both fit on the top line, else in the bottom right corner.
            tag = "END" if is_end else "par" if (r, col) in par else ""
            beside = c.text_width(f"{price}", size=_PRICE, bold=True) + c.text_width(tag, size=12, bold=True) + 18
            tag_at, tag_anchor = ((bx + cell_w - 7, by + 8), "rt") if beside <= cell_w else \
                ((bx + cell_w - 6, by + cell_h - 6), "rb")
            if (r, col) in par:
                inset = 2.5
                c.rect((bx + inset, by + inset, bx + cell_w - inset, by + cell_h - inset),
                       outline=theme.PAR_OUTLINE, width=3, radius=3)
            c.text((bx + 7, by + 6), f"{price}", size=_PRICE, bold=True, fill=text_colour, anchor="lt")
            if tag:
                c.text(tag_at, tag, size=12, bold=True, fill="#ffcc33" if is_end else theme.PAR_OUTLINE,
                       anchor=tag_anchor)

    # Markers: one row for up to two, else two rows, each fanned out left to right; the first to
    # operate is top left and drawn last, on top of the others.
    crowded: list[tuple[int, tuple[str, ...]]] = []  # price, companies of cells with more than MAX_SHOWN
    for (r, col), full in view.stacks.items():
        if not full or r >= n_rows or col >= n_cols:
            continue
        bx, by = x0 + col * cell_w, y0 + r * cell_h
        # Many companies at one price (1822's minors at £50): the first ones to operate, and a count of the rest;
        # the footer names them all.
        stack = full if len(full) <= MAX_SHOWN else full[:1]
        if len(full) > MAX_SHOWN:
            crowded.append((view.rows[r][col] or 0, full))
        slots = len(stack) + (len(full) > len(stack))  # the count takes the second place
        lines = 1 if slots <= 2 else 2
        per_line = -(-slots // lines)
        free_h = cell_h - 28  # below the price
        # As big as the cell allows with the markers of a line side by side (overlapping only
        # when there are too many), so that their names stay readable in a chat preview.
        radius = min(cell_w * 0.25, (cell_w - 8) / (2 * per_line) - 1, (free_h / lines - 1) / 2)
        avail = cell_w - 2 * radius - 10
        step = min(2 * radius + 2, avail / (per_line - 1)) if per_line > 1 else 0.0
        span = step * (per_line - 1)
        places = []
        for i in range(slots):
            line, pos = divmod(i, per_line)
            cx = bx + cell_w / 2 - span / 2 + pos * step
            cy = by + 26 + radius + line * (2 * radius + 1)
            places.append((cx, cy))
        for i in reversed(range(len(stack))):
            _marker(c, view, places[i], radius, stack[i])
        if len(full) > len(stack):
            cx, cy = places[-1]
            c.circle((cx, cy), radius, fill=theme.INK)
            c.text((cx, cy), f"+{len(full) - len(stack)}", size=min(16.0, radius * 1.1), bold=True, fill="#ffffff")

    if over is not None:
        _draw_panel(c, over)
    _draw_legend(c, view, width, y0 + n_rows * cell_h + band + 10, crowded)
    return c.finish()


@dataclass(slots=True)
class _Panel:
    lines: list[tuple[str, str, str, float, bool]]  # left text, right text, colour, size, bold
    width: float
    height: float
    x: float = 0.0
    y: float = 0.0


_PANEL_PAD = 16.0


def _game_over_panel(c: Canvas, view: MarketView, max_w: float) -> _Panel:
    cur = theme.currency_sign(view.currency)
    text = _TEXT + 2  # the news of the picture: larger than the grid's text
    lines: list[tuple[str, str, str, float, bool]] = [("Game over", "", _ALERT, 26, True)]
    if view.game_end_reason:
        reason = _wrap(c, view.game_end_reason, text, max_w - 2 * _PANEL_PAD)
        lines += [(s, "", theme.INK, text, False) for s in reason]
    if view.ranking:
        lines.append(("Final ranking", "", theme.MUTED, text - 1, True))
        for i, (name, value) in enumerate(view.ranking, 1):
            lines.append((f"{i}. {name}", f"{cur}{value:,}", theme.INK, text, i == 1))
    widths = [c.text_width(a, size=size, bold=bold) + (c.text_width(b, size=size, bold=bold) + 30 if b else 0)
              for a, b, _, size, bold in lines]
    width = min(max_w, max(widths) + 2 * _PANEL_PAD)
    height = sum(size + 10 for *_, size, _ in lines) + 2 * _PANEL_PAD - 10
    return _Panel(lines, max(width, 260.0), height)


def _draw_panel(c: Canvas, p: _Panel) -> None:
    c.rect((p.x + 3, p.y + 4, p.x + p.width + 3, p.y + p.height + 4), fill="#d9d4c7", radius=10)  # shadow
    c.rect((p.x, p.y, p.x + p.width, p.y + p.height), fill="#ffffff", outline=_ALERT, width=2.5, radius=10)
    y = p.y + _PANEL_PAD
    for left, right, colour, size, bold in p.lines:
        mid = y + size / 2
        c.text((p.x + _PANEL_PAD, mid), left, size=size, bold=bold, fill=colour, anchor="lm")
        if right:
            c.text((p.x + p.width - _PANEL_PAD, mid), right, size=size, bold=bold, fill=colour, anchor="rm")
        y += size + 10


def _wrap(c: Canvas, text: str, size: float, max_w: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and c.text_width(f"{lines[-1]} {word}", size=size) <= max_w:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def _empty_area(
    rows: Sequence[Sequence[int | None]], n_cols: int, need_cols: float, need_rows: float
) -> tuple[int, int, int, int] | None:
    """The largest block of cells with no price (rows r0..r1, columns c0..c1, ends exclusive) that
    holds ``need_cols`` x ``need_rows`` cells plus a little room, or None."""
    n_rows = len(rows)
    filled = [[1 if col < len(row) and row[col] is not None else 0 for col in range(n_cols)] for row in rows]
    # Prefix sums: any rectangle's count of priced cells in O(1).
    pre = [[0] * (n_cols + 1) for _ in range(n_rows + 1)]
    for r in range(n_rows):
        for col in range(n_cols):
            pre[r + 1][col + 1] = filled[r][col] + pre[r][col + 1] + pre[r + 1][col] - pre[r][col]
    best: tuple[int, int, int, int] | None = None
    best_area = 0
    for r0 in range(n_rows):
        for r1 in range(r0 + 1, n_rows + 1):
            if r1 - r0 < need_rows + 0.3:
                continue
            for c0 in range(n_cols):
                for c1 in range(c0 + 1, n_cols + 1):
                    if c1 - c0 < need_cols + 0.3:
                        continue
                    if pre[r1][c1] - pre[r0][c1] - pre[r1][c0] + pre[r0][c0]:
                        break  # wider ones from c0 hold this priced cell too
                    area = (r1 - r0) * (c1 - c0)
                    if area > best_area:
                        best, best_area = (r0, c0, r1, c1), area
    return best


def _marker(c: Canvas, view: MarketView, p: tuple[float, float], r: float, sym: str) -> None:
    """A company's price marker: a disc for a major, a square for a minor (1822), a wide two-line pill for a
    system (1828), which names both of its companies."""
    fill = view.corporation_colours.get(sym, "#888888")
    text = view.corporation_text_colours.get(sym) or theme.readable_on(fill)
    edge = theme.mix(fill, "#000000", 0.5)
    kind = view.kinds.get(sym, "major")
    x, y = p
    if kind == "system" and "-" in sym:
        w = r * 1.3
        c.rect((x - w - 1.5, y - r - 1.5, x + w + 1.5, y + r + 1.5), fill="#ffffff", radius=r * 0.6)
        c.rect((x - w, y - r, x + w, y + r), fill=fill, outline=edge, width=1.6, radius=r * 0.55)
        lines = sym.split("-", 1)
        size = 16.0
        while size > 8 and max(c.text_width(t, size=size, condensed=True) for t in lines) > w * 1.8:
            size -= 1
        c.text((x, y - size * 0.5), lines[0], size=size, condensed=True, fill=text)
        c.text((x, y + size * 0.5), lines[1], size=size, condensed=True, fill=text)
        return
    if kind == "minor":
        h = r * 0.88
        c.rect((x - h - 1.5, y - h - 1.5, x + h + 1.5, y + h + 1.5), fill="#ffffff", radius=4)
        c.rect((x - h, y - h, x + h, y + h), fill=fill, outline=edge, width=1.3, radius=3)
    else:
        c.circle(p, r + 1.5, fill="#ffffff")
        c.circle(p, r, fill=fill, outline=edge, width=1.3)
    size = 18.0
    while size > 8 and c.text_width(sym, size=size, condensed=True) > r * 1.75:
        size -= 1
    c.text(p, sym, size=size, condensed=True, fill=text)


def _draw_header(c: Canvas, view: MarketView, width: float) -> None:
    c.rect((0, 0, width, _HEADER - 12), fill=theme.PANEL)
    y = (_HEADER - 12) / 2
    c.text((_MARGIN, y), f"{view.title} · Stock market", size=theme.FONT_HEADER, bold=True, anchor="lm")
    right = f"{view.round_name}   ·   Phase {view.phase}   ·   {view.operating_rounds_in_set} OR per set"
    if view.operating_rounds_in_set != 1:
        right = right.replace("OR per set", "ORs per set")
    c.text((width - _MARGIN, y), right, size=theme.FONT_TEXT + 1, anchor="rm")


def _draw_legend(c: Canvas, view: MarketView, width: float, top: float,
                 crowded: Sequence[tuple[int, tuple[str, ...]]] = ()) -> None:
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
    on_market = {view.kinds.get(sym, "major") for stack in view.stacks.values() for sym in stack}
    shown = on_market & {"minor", "system"}
    for kind in sorted(shown):
        if kind == "minor":
            c.rect((x + 3, y - 8, x + 19, y + 8), fill=theme.MUTED, radius=2)
        else:
            c.rect((x, y - 8, x + 26, y + 8), fill=theme.MUTED, radius=7)
        label = "minor company" if kind == "minor" else "system (two companies merged)"
        c.text((x + 32, y), label, size=theme.FONT_TEXT, anchor="lm")
        x += 32 + c.text_width(label, size=theme.FONT_TEXT) + 22
    if shown:
        c.circle((x + 11, y), 8, fill=theme.MUTED)
        c.text((x + 26, y), "major", size=theme.FONT_TEXT, anchor="lm")
    note = "shared cell: first to operate is top left"
    if crowded:
        sign = theme.currency_sign(view.currency)
        note = "; ".join(f"{sign}{price}: {', '.join(syms)}" for price, syms in sorted(crowded)) + \
            " (first to operate first)"
    size = theme.FONT_TEXT - 1
    while size > theme.FONT_SMALL and c.text_width(note, size=size) > width - x - 2 * _MARGIN:
        size -= 1
    c.text((width - _MARGIN, y), note, size=size, fill=theme.MUTED, anchor="rm")
