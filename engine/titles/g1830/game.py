"""1830 Railways & Robber Barons: the title's hooks over the shared core (rules: 18xx.games' 1830, the
reference here, since no 1830 rulebook is in the project; every departure is in docs/conformance.md)."""

from __future__ import annotations

from ...core.game import Game
from ...core.round import AuctionRound, OperatingRound, Round, StockRound
from ...core.sequence import STANDARD_PLAN
from ...core.steps.auction import CompanyPendingPar, WaterfallAuction
from ...core.steps.operating import (
    Bankrupt,
    BlockingBuyCompany,
    BuyCompany,
    BuyTrain,
    DiscardTrain,
    Dividend,
    RouteStep,
    TokenStep,
    Track,
)
from ...core.steps.stock import HomeToken
from . import abilities as _abilities  # noqa: F401  (registers the title's ability types)
from .stock import BuySellParShares1830

# Optional rules of 18xx.games' 1830: several brown-zone shares may come from the IPO too, and a third 6 train.
MULTIPLE_BROWN_FROM_IPO = "multiple_brown_from_ipo"
OPTIONAL_6_TRAIN = "optional_6_train"


class G1830(Game):
    TITLE = "1830"
    DATA_PACKAGE = "engine.titles.g1830"
    RULES_EDITION = 1
    OPTIONAL_RULES = (MULTIPLE_BROWN_FROM_IPO, OPTIONAL_6_TRAIN)
    # The private auction, then stock rounds and sets of operating rounds in turn; priority passes at the end of
    # the auction and of each stock round.
    ROUND_PLAN = STANDARD_PLAN

    def setup(self) -> None:
        if not self.optional_rule(OPTIONAL_6_TRAIN):
            # The data holds the optional rule's three 6 trains; the printed game has two.
            sixes = [t for t in self.depot if t.name == "6"]
            self.depot.remove(sixes[-1])
            del self.all_trains[sixes[-1].id]

    def optional_rule(self, name: str) -> bool:
        return name in (self.options.get("optional_rules") or [])

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Round:
        return AuctionRound(self, [CompanyPendingPar, WaterfallAuction])

    def stock_round(self) -> Round:
        return StockRound(self, [DiscardTrain, HomeToken, BuySellParShares1830])

    def operating_round(self, number: int) -> Round:
        return OperatingRound(self, [Bankrupt, BuyCompany, HomeToken, Track, TokenStep, RouteStep, Dividend,
                                     DiscardTrain, BuyTrain, BlockingBuyCompany], number)
