"""1828's stock market: a grid with an empty lower-left corner, whose top row moves right instead of up."""

from __future__ import annotations

from typing import Any

from ...core.market import Cell, StockMarket


class Market1828(StockMarket):
    """Rules 12.2: up at the top row moves right; left at a row's start (or beside the empty corner) moves down."""

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__(data)
        for r, c in data.get("gaps", ()):
            self.rows[r][c] = None
        self.par_colours: dict[tuple[int, int], str] = {
            (r, c): colour for colour, cells in data.get("par_colours", {}).items() for r, c in cells}
        # The phase colours whose par prices are open (rules 7.1): yellow at the start, more as phases begin.
        self.open_colours: list[str] = ["yellow"]

    def par_cells(self) -> list[Cell]:
        return [c for c in super().par_cells() if self.par_colours.get(c.coords) in self.open_colours]

    def up(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.row == 0:
            nxt = self.at(0, cur.col + 1)
            if nxt is not None:
                self._move_to(corp, nxt)
            return
        super().up(corp)

    def right(self, corp: str) -> None:
        cur = self.location[corp]
        nxt = self.at(cur.row, cur.col + 1)
        if nxt is not None:
            self._move_to(corp, nxt)
        else:
            self.up(corp)

    def left(self, corp: str) -> None:
        cur = self.location[corp]
        nxt = self.at(cur.row, cur.col - 1) if cur.col > 0 else None
        if nxt is not None:
            self._move_to(corp, nxt)
        else:
            self.down(corp)
