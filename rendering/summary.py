"""The end-of-game summary: the winner, each player's worth in parts, why the game ended and a few numbers.

``summary_text`` is the chat message; ``render_summary`` the card that goes with it (the charts go too, from
``rendering.charts``). Both read an ``engine.history.GameHistory`` only.

>>> from engine.history import GameHistory, WorthSplit
>>> h = GameHistory("1882", "$%d", ("SR1",), {"ann": (500,), "bob": (400,)}, {}, (), {}, True, "the bank broke",
...                 (WorthSplit("ann", 300, 200, 0, 0), WorthSplit("bob", 400, 0, 0, 0)), 12, 0.0, 7200.0)
>>> print(summary_text(h).splitlines()[0])
1882 is over: the bank broke. ann wins with $500.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image

from engine.history import GameHistory, WorthSplit
from rendering import theme
from rendering.canvas import Canvas

__all__ = ["FunNumbers", "fun_numbers", "render_summary", "summary_text"]

PART_COLOURS = {"cash": "#3c9d5d", "shares": "#2f6fd1", "privates": "#c98a2b", "debt": "#c0392b"}


def duration(seconds: float) -> str:
    """A span as players say it: "40 s", "25 min", "3 h 10 min", "4 days 2 h".

    >>> duration(42), duration(1500), duration(11400), duration(360000)
    ('42 s', '25 min', '3 h 10 min', '4 days 4 h')
    """
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60} min" if s % 3600 >= 60 else f"{s // 3600} h"
    days = s // 86400
    return f"{days} day{'s' if days > 1 else ''} {s % 86400 // 3600} h"


@dataclass(frozen=True, slots=True)
class FunNumbers:
    best_run: tuple[str, int, str] | None  # company, revenue, round
    most_profitable: tuple[str, int] | None  # company, revenue over the game
    lines: tuple[str, ...]  # the numbers as sentences, names as given


def company(h: GameHistory, sym: str) -> str:
    """A company as players call it: "minor 23" for a numbered minor, else its symbol."""
    info = h.companies.get(sym)
    return f"minor {sym}" if info is not None and info.kind == "minor" and sym.isdigit() else sym


def fun_numbers(h: GameHistory, names: Mapping[str, str] | None = None) -> FunNumbers:
    """Best run, most profitable company, longest stock hold, moves and length, median time to move."""
    name = (lambda n: names.get(n, n)) if names else (lambda n: n)
    paid = [p for p in h.payouts if p.revenue > 0]
    best = max(paid, key=lambda p: p.revenue, default=None)
    totals: dict[str, int] = defaultdict(int)
    for p in paid:
        totals[p.corp] += p.revenue
    top = max(totals.items(), key=lambda kv: kv[1], default=None)
    lines: list[str] = []
    best_run = None
    if best is not None:
        where = h.rounds[best.round] if best.round < len(h.rounds) else "the last round"
        best_run = (best.corp, best.revenue, where)
        lines.append(f"Best run: {company(h, best.corp)}, {h.money(best.revenue)} in {where}.")
    if top is not None:
        lines.append(f"Most profitable company: {company(h, top[0])}, {h.money(top[1])} in all.")
    if h.longest_hold is not None:
        hold = h.longest_hold
        lines.append(f"Longest stock hold: {name(hold.player)} kept {company(h, hold.corp)} for {hold.rounds} rounds "
                     f"({hold.first} to {hold.last}).")
    length = ""
    if h.first_move_at is not None and h.last_move_at is not None and h.last_move_at > h.first_move_at:
        length = f" over {duration(h.last_move_at - h.first_move_at)}"
    lines.append(f"{h.moves} moves{length}, {len(h.rounds)} rounds.")
    if h.move_seconds:
        waits = sorted(h.move_seconds.items(), key=lambda kv: kv[1])
        lines.append("Median time to move: " + ", ".join(f"{name(p)} {duration(s)}" for p, s in waits) + ".")
    return FunNumbers(best_run, top, tuple(lines))


def _split_text(h: GameHistory, s: WorthSplit) -> str:
    parts = [f"cash {h.money(s.cash)}", f"shares {h.money(s.shares)}"]
    if s.privates:
        parts.append(f"privates {h.money(s.privates)}")
    if s.debt:
        parts.append(f"debt −{h.money(s.debt)}")
    return f"{h.money(s.total)} ({', '.join(parts)})"


def summary_text(h: GameHistory, names: Mapping[str, str] | None = None) -> str:
    """The message for the channel when a game ends (and for ``summary``)."""
    name = (lambda n: names.get(n, n)) if names else (lambda n: n)
    reason = f": {h.end_reason}" if h.end_reason else ""
    lines: list[str] = []
    if h.final:
        best = h.final[0].total
        winners = [s for s in h.final if s.total == best]
        who = " and ".join(name(s.player) for s in winners)
        if h.finished:
            verb = "win" if len(winners) > 1 else "wins"
            lines.append(f"{h.title} is over{reason}. {who} {verb} with {h.money(best)}.")
        else:
            verb = "lead" if len(winners) > 1 else "leads"
            lines.append(f"{h.title} is not over yet. {who} {verb} with {h.money(best)}.")
        lines.append("Final worth:" if h.finished else "Worth now:")
        lines += [f"  {i}. {name(s.player)} {_split_text(h, s)}" for i, s in enumerate(h.final, 1)]
    lines += fun_numbers(h, names).lines
    return "\n".join(lines)


# ----------------------------------------------------------------------------- the card

WIDTH = 1200.0
ROW = 58.0
TOP = 150.0


def render_summary(h: GameHistory, names: Mapping[str, str] | None = None) -> Image.Image:
    """A card: who won and why the game ended, each player's worth as a bar split into its parts, the numbers."""
    name = (lambda n: names.get(n, n)) if names else (lambda n: n)
    fun = fun_numbers(h, names).lines
    height = TOP + ROW * len(h.final) + 70 + 30 * len(fun) + 30
    c = Canvas(WIDTH, height)
    c.rect((0, 0, WIDTH, 100), fill=theme.PANEL)
    c.text((30, 34), f"{h.title}: {'game over' if h.finished else 'the game so far'}", size=24, bold=True,
           anchor="lm")
    if h.end_reason:
        c.text((30, 72), h.end_reason[0].upper() + h.end_reason[1:] + ".", size=18, fill=theme.MUTED, anchor="lm")
    if h.final:
        winner = h.final[0]
        c.text((WIDTH - 30, 50), f"Winner: {name(winner.player)}  {h.money(winner.total)}", size=26, bold=True,
               anchor="rm")
    widest = max((s.total + s.debt for s in h.final), default=1) or 1
    bar_x0, bar_x1 = 300.0, WIDTH - 40
    y = TOP
    for i, s in enumerate(h.final, 1):
        c.text((30, y), f"{i}. {name(s.player)}", size=18, bold=i == 1, anchor="lm")
        c.text((bar_x0 - 16, y), h.money(s.total), size=18, bold=True, anchor="rm")
        x = bar_x0
        for part, value in (("cash", s.cash), ("shares", s.shares), ("privates", s.privates)):
            if value <= 0:
                continue
            w = (bar_x1 - bar_x0) * value / widest
            c.rect((x, y - 16, x + w, y + 16), fill=PART_COLOURS[part])
            label = h.money(value)
            if c.text_width(label, size=14, bold=True) + 10 < w:
                c.text((x + w / 2, y), label, size=14, bold=True, fill="#ffffff")
            x += w
        if s.debt > 0:
            w = (bar_x1 - bar_x0) * s.debt / widest
            c.rect((x, y - 16, x + w, y + 16), fill="#ffffff", outline=PART_COLOURS["debt"], width=2.5)
            c.text((x + w / 2, y), f"−{h.money(s.debt)}", size=14, bold=True, fill=PART_COLOURS["debt"])
        y += ROW
    # The key to the bar colours.
    x = bar_x0
    for part, colour in PART_COLOURS.items():
        c.rect((x, y - 8, x + 18, y + 8), fill=colour)
        c.text((x + 26, y), part, size=15, anchor="lm")
        x += 40 + c.text_width(part, size=15)
    y += 50
    for line in fun:
        c.text((30, y), line, size=17, anchor="lm")
        y += 30
    return c.finish()
