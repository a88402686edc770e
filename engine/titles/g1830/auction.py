"""1830's private auction: the waterfall auction, where a round in which everyone passes lowers the price of the
first private (the Schuylkill Valley) only while it is unsold; once it is sold, such a round pays the privates'
revenue instead, however many privates were sold since (18xx.games' base auction; 1882 follows the cheapest)."""

from __future__ import annotations

from ...core.entities import Company, Player
from ...core.steps.auction import WaterfallAuction
from .rules import Rules1830


class WaterfallAuction1830(WaterfallAuction[Rules1830]):
    def award(self, player: Player, company: Company, price: int) -> None:
        first = self.cheapest
        super().award(player, company, price)
        self.cheapest = first
