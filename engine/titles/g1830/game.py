"""1830 Railways & Robber Barons: the title's hooks over the shared core (rules: 18xx.games' 1830, the
reference here, since no 1830 rulebook is in the project; every departure is in docs/conformance.md)."""

from __future__ import annotations

from ...core.entities import Company, Corporation, Player, Share, Train
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
from .powers import Exchange1830, SpecialToken1830, SpecialTrack1830
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
        # The D&H after its lay in Scranton: the private and the hex where its corporation may now place a station.
        self.teleported: tuple[Company, str] | None = None
        if not self.optional_rule(OPTIONAL_6_TRAIN):
            # The data holds the optional rule's three 6 trains; the printed game has two.
            sixes = [t for t in self.depot if t.name == "6"]
            self.depot.remove(sixes[-1])
            del self.all_trains[sixes[-1].id]

    def optional_rule(self, name: str) -> bool:
        return name in (self.options.get("optional_rules") or [])

    def brown_from_ipo(self) -> bool:
        """Whether several brown-zone shares in one turn may come from the IPO as well as the market."""
        return self.optional_rule(MULTIPLE_BROWN_FROM_IPO)

    # ------------------------------------------------------------------ trains
    def discard_train(self, corp: Corporation, train: Train) -> None:
        """Trains over a lowered limit go to the bank pool, where any company may buy them."""
        corp.trains.remove(train)
        train.owner = self.pool
        self.pool_trains.append(train)
        self.log(f"{corp.sym} discards a {train.name} train to the pool")

    def trade_in(self, train: Train) -> None:
        """A train traded in for a diesel goes to the bank pool too (18xx.games' depot keeps it for sale)."""
        train.owner = self.pool
        self.pool_trains.append(train)
        self.log(f"{train.name} train is traded in")

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Round:
        return AuctionRound(self, [CompanyPendingPar, WaterfallAuction])

    def stock_round(self) -> Round:
        return StockRound(self, [DiscardTrain, Exchange1830, BuySellParShares1830])

    def operating_round(self, number: int) -> Round:
        return OperatingRound(self, [Bankrupt, Exchange1830, SpecialTrack1830, SpecialToken1830, BuyCompany,
                                     HomeToken, Track, TokenStep, RouteStep, Dividend, DiscardTrain, BuyTrain,
                                     BlockingBuyCompany], number)

    # ------------------------------------------------------------------ privates
    # Blocked hexes, the C&A's PRR share, the B&O's president's certificate, its no-buy and its closing are data
    # (abilities in game.toml); the C&StL's, D&H's and M&H's powers are the title's ability types (abilities.py)
    # carried out by powers.py.
    def exchange_allowed(self, player: Player, share: Share) -> bool:
        """The M&H's exchange needs the player to stay within 60% of the company (unless its price is in the
        orange or brown zone); the certificate limit does not apply (18xx.games)."""
        cell = self.market.location.get(share.corp)
        if cell is not None and cell.zone in ("orange", "brown"):
            return True
        return player.percent_of(share.corp) + share.percent <= self.config.shares.hold_limit

    def exchange_company(self, company: Company, share: Share) -> None:
        owner = company.owner
        assert isinstance(owner, Player)
        corp = self.corporations[share.corp]
        previous = corp.owner
        self.transfer_share(share, owner)
        self.log(f"{owner.name} exchanges {company.sym} for a {share.percent}% share of {corp.sym}")
        self.close_company(company)
        if corp.ipoed:
            self._check_float(corp)
            self.check_presidency(corp, previous=previous)
