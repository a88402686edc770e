"""1822's stock market movement, and what shares are worth at their price.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.entities import Share
from ...core.market import StockMarket

if TYPE_CHECKING:
    from ...core.game import Game


class Market1822(StockMarket):
    """18xx.games' two-dimensional movement over a market aligned on the right: off the right end a payout goes
    up, or down and right where there is no cell above; off the left end (or a gap) a fall goes down."""

    def right(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.col + 1 >= len(self.rows[cur.row]):
            self.up(corp)
        else:
            self._go(corp, cur.row, cur.col + 1)

    def left(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.col > 0 and self.at(cur.row, cur.col - 1) is not None:
            self._go(corp, cur.row, cur.col - 1)
        else:
            self.down(corp)

    def down(self, corp: str) -> None:
        cur = self.location[corp]
        row = cur.row + 1 if cur.row + 1 < len(self.rows) else cur.row
        self._go(corp, row, cur.col)

    def up(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.row > 0 and self.at(cur.row - 1, cur.col) is not None:
            self._go(corp, cur.row - 1, cur.col)
        else:
            self._go(corp, cur.row + 1, cur.col + 1)

    def _go(self, corp: str, row: int, col: int) -> None:
        cell = self.at(row, col)
        if cell is not None:
            self._move_to(corp, cell)


def share_worth(game: Game, shares: list[Share]) -> int:
    worth = 0
    for s in shares:
        cell = game.market.location.get(s.corp)
        if cell is not None:
            worth += cell.price * s.percent // game.corporations[s.corp].share_percent
    return worth
