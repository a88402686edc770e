"""1830's stock round: several brown-zone shares in one turn come from the market only (unless the optional rule
multiple_brown_from_ipo)."""

from __future__ import annotations

from typing import Any

from ...core.entities import Corporation, Player, Share
from ...core.steps.stock import BuySellParShares


class BuySellParShares1830(BuySellParShares):
    game: Any

    def can_buy(self, player: Player, share: Share | None) -> bool:
        return super().can_buy(player, share)
