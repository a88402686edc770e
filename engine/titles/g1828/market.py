"""1828's stock market: a grid with an empty lower-left corner, whose top row moves right instead of up."""

from __future__ import annotations

from typing import Any

from ...core.entities import Corporation, CorporationKind, Share
from ...core.market import Cell, StockMarket
from .state import Game1828


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


def share_price_of(game: Game1828, corp: Corporation) -> int:
    return game.market.location[corp.sym].price


def share_value(game: Game1828, share: Share) -> int:
    corp = game.corporations[share.corp]
    return share_price_of(game, corp) * share.percent // corp.share_percent


def sold_out_rise(game: Game1828) -> None:
    """Sold-out companies rise (rules 12.2): one row, two from the gray zone, one more when the president
    holds 80% or more. A system's treasury share does not count against being sold out."""
    for corp in game.operating_order():
        if corp.kind is CorporationKind.MINOR:
            continue
        held = sum(p.percent_of(corp.sym) for p in game.players)
        if held != (90 if corp.kind is CorporationKind.SYSTEM else 100):
            continue
        cell = game.market.location[corp.sym]
        if cell.zone == "gray":
            game.market.up(corp.sym)
        game.market.up(corp.sym)
        if corp.owner is not None and corp.owner.percent_of(corp.sym) >= 80:
            game.market.up(corp.sym)
        price = game.market.location[corp.sym].price
        game.log(f"{corp.sym} is sold out and rises to {game.format_money(price)}")


def system_market_price(game: Game1828, cells: list[Cell]) -> Cell:
    """A new system's price (rules 7.5.3): the higher price plus half the lower, on the row of the leftmost
    marker's column, or along the top row when even its top cell is lower."""
    values = sorted(c.price for c in cells)
    col = min(c.col for c in cells)
    target = values[1] + values[0] // 2
    top = game.market.rows[0]
    top_cell = top[col]
    assert top_cell is not None
    if top_cell.price < target:
        i = len(top) - 1
        while (cell := top[i]) is not None and cell.price > target:
            i -= 1
        found = top[i]
    else:
        i = 0
        while (cell := game.market.at(i, col)) is not None and cell.price > target:
            i += 1
        found = game.market.at(i, col)
    assert found is not None
    return found
