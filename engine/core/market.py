"""Two-dimensional stock markets: cells, zones and marker stacks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import events as ev
from .errors import malformed


@dataclass(slots=True, eq=False)
class Cell:
    price: int
    row: int
    col: int
    zone: str = ""  # "" plain; title zones such as "yellow", "orange", "brown"
    par: bool = False
    end: bool = False
    stack: list[str] = field(default_factory=list)  # corporations, arrival order (top first)

    @property
    def coords(self) -> tuple[int, int]:
        return (self.row, self.col)

    @property
    def text(self) -> str:
        """The cell as actions name it: "price,row,column"."""
        return f"{self.price},{self.row},{self.col}"

    def __repr__(self) -> str:
        return f"Cell({self.price} r{self.row}c{self.col})"


class StockMarket:
    """Grid market: right/left along a row, up/down between rows (1882 style).

    Moving right off a row's end goes up; left off its start goes down; down stops at the column
    bottom. Titles with other edge behaviour override ``right``/``left``/``up``/``down``.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        rows: list[list[int]] = data["rows"]
        # ``gap``: the number that marks a place in the grid that is not a cell (markets aligned on the right).
        # It must be stated, since 0 is a real price in some markets (1862's closing cell).
        gap = data.get("gap")
        self.rows: list[list[Cell | None]] = [
            [Cell(p, r, c) if p is not None and p != gap else None for c, p in enumerate(row)]
            for r, row in enumerate(rows)
        ]
        for zone, cells in data.get("zones", {}).items():
            for r, c in cells:
                self.cell(r, c).zone = zone
        for r, c in data.get("par", ()):
            self.cell(r, c).par = True
        for r, c in data.get("end", ()):
            self.cell(r, c).end = True
        # Arrows: a payout from these cells moves the marker up instead of right (1830-style right column).
        self.up_arrows: set[tuple[int, int]] = {(r, c) for r, c in data.get("up_arrows", ())}
        # Ledges: a marker on these cells does not fall further when it would move down.
        self.ledges: set[tuple[int, int]] = {(r, c) for r, c in data.get("ledges", ())}
        self.location: dict[str, Cell] = {}
        # Reaching an end cell ends the game even if a later sale moves the marker off it again (rules §12).
        self.end_reached = False

    def cell(self, row: int, col: int) -> Cell:
        cell = self.at(row, col)
        if cell is None:
            raise KeyError((row, col))
        return cell

    def at(self, row: int, col: int) -> Cell | None:
        if 0 <= row < len(self.rows) and 0 <= col < len(self.rows[row]):
            return self.rows[row][col]
        return None

    def par_cells(self) -> list[Cell]:
        return sorted((c for row in self.rows for c in row if c is not None and c.par), key=lambda c: c.price)

    def place(self, corp: str, cell: Cell) -> None:
        self._move_to(corp, cell)

    def _move_to(self, corp: str, cell: Cell) -> None:
        old = self.location.get(corp)
        if old is cell:
            return
        if old is not None:
            old.stack.remove(corp)
        cell.stack.append(corp)
        self.location[corp] = cell
        self.end_reached = self.end_reached or cell.end
        if ev.recording_now():
            ev.emit(ev.PriceMoved(corp, old.price if old else None, cell.price, old.coords if old else None,
                                  cell.coords))

    def remove(self, corp: str) -> None:
        old = self.location.pop(corp, None)
        if old is not None:
            old.stack.remove(corp)
            if ev.recording_now():
                ev.emit(ev.PriceMoved(corp, old.price, None, old.coords, None))

    def right(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.coords in self.up_arrows:
            self.up(corp)
            return
        nxt = self.at(cur.row, cur.col + 1) or self.at(cur.row - 1, cur.col)
        if nxt is not None:
            self._move_to(corp, nxt)

    def left(self, corp: str) -> None:
        cur = self.location[corp]
        nxt = self.at(cur.row, cur.col - 1) if cur.col > 0 else self.at(cur.row + 1, cur.col)
        if nxt is not None:
            self._move_to(corp, nxt)

    def down(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.coords in self.ledges:
            return
        nxt = self.at(cur.row + 1, cur.col)
        if nxt is not None:
            self._move_to(corp, nxt)

    def below(self, corp: str) -> Cell:
        """The cell ``down`` would move the marker to (its own cell on a ledge or the bottom row)."""
        cur = self.location[corp]
        if cur.coords in self.ledges:
            return cur
        return self.at(cur.row + 1, cur.col) or cur

    def up(self, corp: str) -> None:
        cur = self.location[corp]
        nxt = self.at(cur.row - 1, cur.col)
        if nxt is not None:
            self._move_to(corp, nxt)

    def order_key(self, corp: str) -> tuple[int, int, int, int]:
        """Operating order: higher price, then further right, then higher up, then top of stack."""
        cell = self.location[corp]
        return (-cell.price, -cell.col, cell.row, cell.stack.index(corp))

    def any_at_end(self) -> bool:
        """Whether a marker has reached an end cell this game (it need not still be there)."""
        return self.end_reached


def parse_price_text(text: str) -> tuple[int, int, int]:
    try:
        price, row, col = (int(x) for x in str(text).split(","))
    except ValueError:
        raise malformed(f"share price {text!r} should read 'price,row,column'") from None
    return price, row, col
