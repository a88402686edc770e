"""1822's rounds and the steps that differ from the core's.

A stock round takes bids into the bid boxes (stock.py); P9's owner may then double their cash for the player order
(a choices round). In an operating round a minor's first turn may start with buying the next L train; minors lay
one tile, majors from phase 3 two yellow or one upgrade; L trains run from one of the company's stations (plus one
town); minors always pay half, majors choose payout, half or withhold; an L train may be upgraded to a 2 train.
The steps reach the title's rules through the rule modules, with ``self.game`` their Game1822.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.rounds import OperatingRound
from .acquisition import AcquireCompany, MinorAcquisition
from .issues import IssueShares
from .routes import Dividend1822, Route1822
from .stations import DestinationToken, PendingToken, Token1822
from .stock import BidBoxStockRound, BidSellParShares, ChoicesRound, DoubleCash
from .track import SpecialChoose, SpecialTrack, Track1822
from .trains import BuyTrain1822, DiscardTrain1822, FirstTurnHousekeeping

if TYPE_CHECKING:
    from ..state import Game1822


def stock_round(game: Game1822) -> BidBoxStockRound:
    return BidBoxStockRound(game, [DiscardTrain1822, BidSellParShares])


def choices_round(game: Game1822) -> ChoicesRound:
    return ChoicesRound(game, [DoubleCash])


def operating_round(game: Game1822, number: int) -> OperatingRound:
    return OperatingRound(game, [DiscardTrain1822, PendingToken, FirstTurnHousekeeping, AcquireCompany, SpecialChoose,
                                 SpecialTrack, Track1822, DestinationToken, Token1822, Route1822, Dividend1822,
                                 BuyTrain1822, MinorAcquisition, IssueShares], number)
