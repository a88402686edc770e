"""The stock market where many companies share a price (1822's minors) and where "END" shares a cell with its
price: every marker and word readable, nothing drawn over anything else (review F11)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rendering import render_market
from rendering.canvas import Canvas
from rendering.market import MAX_SHOWN
from tests.rendering.boards import market_1882

_Text = tuple[tuple[float, float], str, str]  # where, what, anchor


def _texts(monkeypatch: pytest.MonkeyPatch) -> list[_Text]:
    drawn: list[_Text] = []
    real = Canvas.text

    def text(self: Canvas, xy: tuple[float, float], s: str, **kw: Any) -> None:
        drawn.append((xy, s, str(kw.get("anchor", "mm"))))
        real(self, xy, s, **kw)

    monkeypatch.setattr(Canvas, "text", text)
    return drawn


def test_many_companies_at_one_price_show_the_first_and_a_count_and_the_footer_names_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    minors = ("CPR", "GT", "HBR", "CNR", "QLL")
    view = replace(market_1882({(3, 3): minors}), kinds=dict.fromkeys(minors, "minor"))
    drawn = _texts(monkeypatch)
    render_market(view)
    words = [s for _xy, s, _a in drawn]
    assert "CPR" in words  # the first to operate
    assert all(sym not in words for sym in minors[1:])  # no tiny overlapping squares
    assert f"+{len(minors) - 1}" in words
    price = view.rows[3][3]
    assert any(s.startswith(f"${price}: CPR, GT, HBR, CNR, QLL") for s in words)
    assert MAX_SHOWN == 2


def test_two_companies_at_one_price_are_both_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _texts(monkeypatch)
    render_market(market_1882({(1, 7): ("GT", "HBR")}))
    words = [s for _xy, s, _a in drawn]
    assert "GT" in words and "HBR" in words and not any(s.startswith("+") for s in words)


def test_end_and_par_go_under_a_price_too_wide_to_share_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    view = market_1882()
    wide = [list(r) for r in view.rows]
    end_r, end_c = view.end_cells[0]
    wide[end_r][end_c] = 7000  # a four-digit price fills the top line
    drawn = _texts(monkeypatch)
    render_market(replace(view, rows=tuple(tuple(r) for r in wide)))  # type: ignore[arg-type]
    price = next(xy for xy, s, _a in drawn if s == "7000")
    end = next((xy, a) for xy, s, a in drawn if s == "END")
    assert end[1] == "rb" and end[0][1] > price[1] + 30
    # A short price keeps its tag beside it.
    drawn.clear()
    render_market(view)
    assert next(a for _xy, s, a in drawn if s == "END") == "rt"
