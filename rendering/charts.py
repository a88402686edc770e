"""Charts of a game's history: net worth, share prices and revenue per operating round.

Drawn on the map's own canvas rather than with a plotting library: the three panels of a 1,500-action 1822 game
took matplotlib's Agg backend 700-1,000 ms on our 2-core machine (ticks and text layout alone cost ~600 ms),
against the 300 ms target; the canvas draws them in a fraction of that, with the fonts and colours of the other
pictures, and keeps numpy and matplotlib out of the bot. The data is an ``engine.history.GameHistory``.

>>> from engine.history import GameHistory
>>> h = GameHistory("1882", "$%d", ("SR1", "OR1.1"), {"ann": (400, 420)}, {}, (), {}, False, None, (), 2,
...                 None, None)
>>> render_chart(h, "value").size
(1200, 660)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image

from engine.history import GameHistory
from rendering import theme
from rendering.canvas import Canvas, Colour

__all__ = ["CHART_KINDS", "ChartKind", "nice_ticks", "render_chart"]

ChartKind = Literal["all", "value", "prices", "revenue"]
CHART_KINDS: tuple[ChartKind, ...] = ("all", "value", "prices", "revenue")

WIDTH = 1200.0
PANEL = 600.0
HEADER = 60.0
# Plot area inside a panel: room for the y labels on the left, names or the key on the right.
LEFT, RIGHT, TOP, BOTTOM = 92.0, 190.0, 58.0, 44.0
# Players get colours apart from most company colours, in an order that keeps neighbours apart.
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")
KIND_WORDS = {"payout": "paid out", "half": "half paid", "withhold": "withheld"}
TITLES = {"value": "Net worth after each round", "prices": "Share prices", "revenue": "Revenue per operating round"}
STOCK_BAND = "#f1efe8"
GRID = "#dedede"
FONT = 14.0


def render_chart(history: GameHistory, kind: ChartKind = "all", *, caption: str = "",
                 scale: float = 1.0) -> Image.Image:
    """One chart (``value``, ``prices``, ``revenue``) or all three stacked (``all``), as an RGB picture."""
    kinds: tuple[str, ...] = ("value", "prices", "revenue") if kind == "all" else (kind,)
    c = Canvas(WIDTH, HEADER + PANEL * len(kinds), scale=scale)
    default = f"{history.title}: {'the whole game' if history.finished else 'the game so far'}"
    c.text((24, HEADER / 2 + 4), caption or default, size=22, bold=True, anchor="lm")
    drawers: dict[str, Callable[[Canvas, _Plot, GameHistory], None]] = {
        "value": _draw_values, "prices": _draw_prices, "revenue": _draw_revenue}
    for i, k in enumerate(kinds):
        top = HEADER + i * PANEL
        c.text((24, top + 24), TITLES[k], size=18, bold=True, anchor="lm")
        plot = _Plot(LEFT, top + TOP, WIDTH - RIGHT, top + PANEL - BOTTOM)
        drawers[k](c, plot, history)
    return c.finish()


# ----------------------------------------------------------------------------- axes


def nice_ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    """Round values from ``lo`` to at least ``hi`` about ``count`` steps apart (steps of 1, 2, 2.5 or 5 x 10^k).

    >>> nice_ticks(0, 4830)
    [0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0]
    """
    span = max(hi - lo, 1.0)
    raw = span / max(count - 1, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    ticks = [first]
    while ticks[-1] < hi - 1e-9:
        ticks.append(ticks[-1] + step)
    return [float(t) for t in ticks]


@dataclass(frozen=True, slots=True)
class _Plot:
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True, slots=True)
class _Axes:
    """Where values go in a plot: ``slots`` columns across, ``ticks[0]``..``ticks[-1]`` up."""

    plot: _Plot
    slots: int
    ticks: Sequence[float]

    def x(self, i: float) -> float:
        w = (self.plot.x1 - self.plot.x0) / max(self.slots, 1)
        return self.plot.x0 + w * (i + 0.5)

    @property
    def slot_width(self) -> float:
        return (self.plot.x1 - self.plot.x0) / max(self.slots, 1)

    def y(self, v: float) -> float:
        lo, hi = self.ticks[0], self.ticks[-1]
        return self.plot.y1 - (v - lo) / (hi - lo or 1.0) * (self.plot.y1 - self.plot.y0)


def _frame(c: Canvas, ax: _Axes, h: GameHistory, labels: Sequence[str], *, bands: bool) -> None:
    """Grid, money on the y axis, round names along x (stock rounds shaded when ``bands``)."""
    p = ax.plot
    if bands:
        for i, label in enumerate(labels):
            if not label.startswith("OR"):
                c.rect((ax.x(i) - ax.slot_width / 2, p.y0, ax.x(i) + ax.slot_width / 2, p.y1), fill=STOCK_BAND)
    for t in ax.ticks:
        y = ax.y(t)
        c.line([(p.x0, y), (p.x1, y)], GRID, 1.0)
        c.text((p.x0 - 8, y), h.money(int(t)), size=FONT - 1, fill=theme.MUTED, anchor="rm")
    c.line([(p.x0, p.y1), (p.x1, p.y1)], theme.INK, 1.4)
    # Name as many columns as fit: every stock round when bands are drawn, else every k-th column.
    shown = [i for i, label in enumerate(labels) if not label.startswith("OR")] if bands else []
    widest = max((c.text_width(s, size=FONT - 1) for s in labels), default=0.0) + 10
    if not shown or len(shown) * widest > p.x1 - p.x0:
        step = max(1, math.ceil(len(labels) * widest / (p.x1 - p.x0)))
        shown = list(range(0, len(labels), step))
    for i in shown:
        c.line([(ax.x(i), p.y1), (ax.x(i), p.y1 + 5)], theme.INK, 1.2)
        c.text((ax.x(i), p.y1 + 16), labels[i], size=FONT - 1, fill=theme.INK)


def _end_labels(c: Canvas, ax: _Axes, labels: list[tuple[float, str, Colour]]) -> None:
    """Names at the right of the plot beside their line's last point, pushed apart so that none covers another."""
    gap = FONT + 4
    ordered = sorted(labels, key=lambda t: -t[0])
    placed: list[float] = []
    for value, _text, _colour in ordered:
        y = ax.y(value)
        placed.append(max(y, placed[-1] + gap) if placed else y)
    # Pushed below the plot: shift the whole column up.
    overflow = max(0.0, placed[-1] - ax.plot.y1) if placed else 0.0
    for (_value, text, colour), y in zip(ordered, placed, strict=True):
        y -= overflow
        c.text((ax.plot.x1 + 10, y), text, size=FONT, bold=True, fill=_readable(colour), anchor="lm")


def _readable(colour: Colour) -> Colour:
    """A company colour as text on white: pale ones (white minors, light yellows) darkened."""
    return theme.mix(colour, theme.INK, 0.55) if theme.luminance(colour) > 0.72 else colour


def _series_line(c: Canvas, ax: _Axes, points: Sequence[tuple[int, float]], colour: Colour, width: float,
                 *, rim: bool = False, dots: bool = False, steps: bool = False) -> None:
    pts: list[tuple[float, float]] = []
    for j, (i, v) in enumerate(points):
        if steps and j:
            pts.append((ax.x(i), pts[-1][1]))
        pts.append((ax.x(i), ax.y(v)))
    if len(pts) == 1:
        pts.append((pts[0][0] + 0.5, pts[0][1]))
    if rim:  # a dark rim under a line whose colour would vanish on the page
        c.line(pts, "#666666", width + 2.2, round_ends=True)
    c.line(pts, colour, width, round_ends=True)
    if dots:
        for x, y in pts:
            c.circle((x, y), width * 1.1, fill=colour)


# ----------------------------------------------------------------------------- panels


def _draw_values(c: Canvas, plot: _Plot, h: GameHistory) -> None:
    values = [v for series in h.values.values() for v in series]
    ax = _Axes(plot, len(h.rounds), nice_ticks(min(0, *values) if values else 0, max(values, default=1)))
    _frame(c, ax, h, h.rounds, bands=True)
    labels: list[tuple[float, str, Colour]] = []
    for i, (player, series) in enumerate(h.values.items()):
        colour = PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
        if series:
            _series_line(c, ax, list(enumerate(series)), colour, 3.0, dots=True)
            labels.append((series[-1], f"{player} {h.money(series[-1])}", colour))
    _end_labels(c, ax, labels)


def _draw_prices(c: Canvas, plot: _Plot, h: GameHistory) -> None:
    prices = [v for series in h.prices.values() for v in series if v is not None]
    ax = _Axes(plot, len(h.rounds), nice_ticks(0, max(prices, default=100)))
    _frame(c, ax, h, h.rounds, bands=True)
    labels: list[tuple[float, str, Colour]] = []
    minors = [s for s in h.prices if (info := h.companies.get(s)) is not None and info.kind == "minor"]
    # Minors first and thin, so that the majors and systems stay on top.
    for sym in sorted(h.prices, key=lambda s: s not in minors):
        series = h.prices[sym]
        info = h.companies.get(sym)
        colour = info.colour if info else "#777777"
        points = [(i, float(v)) for i, v in enumerate(series) if v is not None]
        if not points:
            continue
        pale = theme.luminance(colour) > 0.8
        if sym in minors:
            _series_line(c, ax, points, theme.mix(colour, "#8a8a8a", 0.6 if pale else 0.2), 1.6, steps=True)
            continue
        width = 4.0 if info is not None and info.kind == "system" else 3.0
        _series_line(c, ax, points, colour, width, rim=pale, steps=True)
        if series[-1] is not None:
            labels.append((series[-1], f"{sym} {h.money(series[-1])}", colour))
    _end_labels(c, ax, labels)
    if minors:
        x, y = plot.x0 + 12, plot.y0 + 4
        c.line([(x, y), (x + 30, y)], "#9a9a9a", 1.6)
        c.text((x + 38, y), f"{len(minors)} minor companies (thin)", size=FONT - 1, fill=theme.MUTED, anchor="lm")


def _draw_revenue(c: Canvas, plot: _Plot, h: GameHistory) -> None:
    """Stacked bars, one per operating round; each company's part in its colour, withheld and half payouts hatched."""
    ors = sorted({p.round for p in h.payouts})
    index = {r: i for i, r in enumerate(ors)}
    totals = [0] * len(ors)
    for p in h.payouts:
        totals[index[p.round]] += max(p.revenue, 0)
    ax = _Axes(plot, len(ors), nice_ticks(0, max(totals, default=100)))
    labels = [h.rounds[r] if r < len(h.rounds) else "end" for r in ors]
    _frame(c, ax, h, labels, bands=False)
    base = [0.0] * len(ors)
    used: dict[str, Colour] = {}
    kinds: set[str] = set()
    minors = False
    half = ax.slot_width * 0.39
    for p in sorted(h.payouts, key=lambda p: (p.round, p.corp)):
        if p.revenue <= 0:
            continue
        i = index[p.round]
        info = h.companies.get(p.corp)
        colour = info.colour if info else "#777777"
        box = (ax.x(i) - half, ax.y(base[i] + p.revenue), ax.x(i) + half, ax.y(base[i]))
        c.rect(box, fill=colour, outline="#333333", width=0.8)
        if p.kind != "payout":
            _hatch(c, box, p.kind)
            kinds.add(p.kind)
        base[i] += p.revenue
        if info is not None and info.kind == "minor":
            minors = True
        else:
            used.setdefault(p.corp, colour)
    key: list[tuple[str, Colour, str]] = [(s, col, "payout") for s, col in used.items()]
    if minors:
        key.append(("minors", "#ffffff", "payout"))
    key += [(KIND_WORDS.get(k, k), "#ffffff", k) for k in ("half", "withhold") if k in kinds]
    _key(c, plot, key)


def _hatch(c: Canvas, box: tuple[float, float, float, float], kind: str) -> None:
    """Diagonal stripes across a bar: ``/`` for withheld, ``\\`` for half paid."""
    x0, y0, x1, y1 = box
    step = 7.0
    slope = 1.0 if kind == "withhold" else -1.0
    w, hgt = x1 - x0, y1 - y0
    k = -hgt
    while k < w:
        # The stripe x = x0 + k + t (t from 0 to hgt), y going up (withhold) or down (half), clipped to the box.
        t0, t1 = max(0.0, -k), min(hgt, w - k)
        if t1 > t0:
            if slope > 0:
                a, b = (x0 + k + t0, y1 - t0), (x0 + k + t1, y1 - t1)
            else:
                a, b = (x0 + k + t0, y0 + t0), (x0 + k + t1, y0 + t1)
            c.line([a, b], "#222222", 1.2)
        k += step


def _key(c: Canvas, plot: _Plot, entries: Sequence[tuple[str, Colour, str]]) -> None:
    """The revenue chart's key at the right of the plot, in two columns when long."""
    rows = max(1, math.floor((plot.y1 - plot.y0) / 22))
    cols = math.ceil(len(entries) / rows)
    col_w = (RIGHT - 14) / max(cols, 1)
    for n, (label, colour, kind) in enumerate(entries):
        x = plot.x1 + 12 + (n // rows) * col_w
        y = plot.y0 + 8 + (n % rows) * 22
        box = (x, y - 8, x + 18, y + 8)
        c.rect(box, fill=colour, outline="#333333", width=0.8)
        if kind != "payout":
            _hatch(c, box, kind)
        c.text((x + 24, y), label, size=FONT - 1, anchor="lm")
