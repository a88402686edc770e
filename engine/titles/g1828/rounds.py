"""1828's stock round and operating round: which steps each holds, in 18xx.games' order."""

from __future__ import annotations

from typing import Any

from ...core.round import Round, Step
from ...core.steps.operating import Bankrupt
from .merger import Merger
from .operating import (
    BlockingBuyCompany1828,
    BuyCompany1828,
    BuyTrain1828,
    DiscardTrain1828,
    Dividend1828,
    RouteStep1828,
    SpecialBuy1828,
    SpecialToken1828,
    SwapTrain,
    TokenStep1828,
)
from .special_track import SpecialTrack1828
from .state import Game1828
from .stock import BuySellParShares1828, Exchange1828, HomeToken1828, RemoveTokens
from .stock_round import StockRound1828
from .track import Track1828


def stock_round(game: Game1828) -> Round:
    return StockRound1828(game, [DiscardTrain1828, RemoveTokens, Merger, Exchange1828, HomeToken1828,
                                 BuySellParShares1828])


def operating_steps() -> list[type[Step[Any]]]:
    # The order of 18xx.games' 1828 operating round.
    return [Bankrupt, Exchange1828, DiscardTrain1828, HomeToken1828, BuyCompany1828, SpecialTrack1828,
            SpecialToken1828, SpecialBuy1828, Track1828, TokenStep1828, RouteStep1828, Dividend1828, SwapTrain,
            BuyTrain1828, BlockingBuyCompany1828]
