"""1830 Railways & Robber Barons: the title's hooks over the shared core (rules: 18xx.games' 1830, the
reference here, since no 1830 rulebook is in the project; every departure is in docs/conformance.md)."""

from __future__ import annotations

from ...core.autoroute import Pricing, RouteGraph
from ...core.board import Hex
from ...core.entities import Corporation, Train
from ...core.errors import illegal
from ...core.round import Round
from ...core.rounds import AuctionRound, OperatingRound, StockRound
from ...core.routes import Route
from ...core.sequence import STANDARD_PLAN
from ...core.steps.auction import CompanyPendingPar
from ...core.steps.operating import Bankrupt, BlockingBuyCompany, BuyCompany, Dividend, RouteStep, TokenStep, Track
from ...core.steps.stock import HomeToken
from ...core.steps.trains import DiscardTrain
from ...core.track import city_map
from . import routes
from .abilities import ExtraLay  # the module registers the title's ability types
from .auction import WaterfallAuction1830
from .powers import Exchange1830, SpecialToken1830, SpecialTrack1830
from .rules import MULTIPLE_BROWN_FROM_IPO, OPTIONAL_6_TRAIN, Rules1830
from .stock import BuySellParShares1830
from .trains import BuyTrain1830


class G1830(Rules1830):
    TITLE = "1830"
    DATA_PACKAGE = "engine.titles.g1830"
    # 2: Dunkirk & Buffalo takes no other company's station until the Erie places its home there (1: one space
    # was held for the Erie, the other was open).
    RULES_EDITION = 2
    BIDS_IN_STEPS = False  # a bid is any amount at least $5 over the last
    OPTIONAL_RULES = (MULTIPLE_BROWN_FROM_IPO, OPTIONAL_6_TRAIN)
    # The private auction, then stock rounds and sets of operating rounds in turn; priority passes at the end of
    # the auction and of each stock round.
    ROUND_PLAN = STANDARD_PLAN

    def setup(self) -> None:
        self.teleported = None
        if not self.optional_rule(OPTIONAL_6_TRAIN):
            # The data holds the optional rule's three 6 trains; the printed game has two.
            sixes = [t for t in self.depot if t.name == "6"]
            self.depot.remove(sixes[-1])
            del self.all_trains[sixes[-1].id]

    def has_turn_ability(self, corp: Corporation) -> bool:
        # An unused C&StL lay keeps the company's turn open at the last buy-privates step (18xx.games).
        return super().has_turn_ability(corp) or any(
            comp.owner is corp and comp.active(ExtraLay) for comp in self.companies.values())

    # ------------------------------------------------------------------ stations
    def home_node(self, corp: Corporation, hx: Hex) -> int:
        """The NYNH's home city in New York follows its printed city through upgrades, as 18xx.games moves the
        reservation with the city whose exits the new tile keeps."""
        if corp.home_city is None or hx.tile is hx.original:
            return super().home_node(corp, hx)
        return city_map(hx.original, hx.tile)[hx.original.tdef.cities[corp.home_city]]

    def token_blocked_by_reservation(self, hx: Hex, corp: str) -> bool:
        """A home held in a hex rather than a city (the Erie's, in Dunkirk & Buffalo) shuts every city of the hex
        to the other companies until its station is placed: 18xx.games blocks the whole hex in 1830."""
        if self.rules_edition < 2:
            return super().token_blocked_by_reservation(hx, corp)
        return bool(self.track.tile_home_holders(hx, corp))

    # ------------------------------------------------------------------ routes
    def route_revenue(self, corp: Corporation, route: Route) -> int:
        group = routes.route_group(self.board, [h for h, _ in route.stops])
        if group is not None:
            raise illegal(f"a route may visit only one off-board of {group.title()}")
        return super().route_revenue(corp, route)

    def autoroute_pricing(self, graph: RouteGraph) -> Pricing:
        return routes.pricing(self.board, graph)

    # ------------------------------------------------------------------ trains
    def discard_train(self, corp: Corporation, train: Train) -> None:
        """Trains over a lowered limit go to the bank pool, where any company may buy them."""
        self.trains.discard_to_pool(corp, train)

    def min_depot_price(self) -> int | None:
        # The pool's trains are on sale too: the cheapest of them sets what a president must raise.
        prices = [t.price for t in [*self.trains.available_depot_trains(), *self.trains.pool_on_sale()]]
        return min(prices) if prices else None

    def trade_in(self, train: Train) -> None:
        """A train traded in for a diesel goes to the bank pool too (18xx.games' depot keeps it for sale)."""
        train.owner = self.pool
        self.pool_trains.append(train)
        self.log(f"{train.name} train is traded in")

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Round:
        return AuctionRound(self, [CompanyPendingPar, WaterfallAuction1830])

    def stock_round(self) -> Round:
        return StockRound(self, [DiscardTrain, Exchange1830, BuySellParShares1830])

    def operating_round(self, number: int) -> Round:
        return OperatingRound(self, [Bankrupt, Exchange1830, SpecialTrack1830, SpecialToken1830, BuyCompany,
                                     HomeToken, Track, TokenStep, RouteStep, Dividend, DiscardTrain, BuyTrain1830,
                                     BlockingBuyCompany], number)
