"""1862 USA & Canada (18xx und Zugzwang, Helmut Ohley): the title's hooks over the shared core.

A RECONSTRUCTED edition: the rules text (S2) has no map, market, tiles or train roster and several empty
sections; /work/shared/rules/1862-reconstruction.md (the spec) fills them, and docs/1862-decisions.md records
what we decided where the spec is wrong or silent. Section numbers in comments are the spec's.

The rules live in modules named for them: ``private_sale`` (the initial stock round's privates), ``privates``
(their powers), ``shares``, ``redemption``, ``debt``, ``forced_purchase``, ``bankruptcy``, ``stations``,
``routes``, ``switches`` (§14.2) and ``rules`` (the arithmetic). This class holds the title's state and answers
the core's hooks, each by a call into those modules.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...core import events as ev
from ...core.autoroute import Pricing, RouteGraph, TrainSpec
from ...core.board import Hex
from ...core.entities import Corporation, Player, Share, Token, Train
from ...core.game_end import EndCheck
from ...core.round import Round
from ...core.rounds import OperatingRound, StockRound
from ...core.sequence import OPERATING, STOCK, Next, RoundPlan
from ...core.steps.operating import Bankrupt, Dividend, TokenStep, Track
from ...core.steps.stock import HomeToken
from ...core.steps.trains import BuyTrain, DiscardTrain
from ...core.tiles import Tile
from . import (
    bankruptcy,
    certificates,
    debt,
    forced_purchase,
    private_sale,
    privates,
    redemption,
    routes,
    stalemate,
    stations,
)
from . import shares as share_rules
from .private_sale import PrivateAuction, unsold_privates
from .privates import ClosePrivate, ErieTile, NyhPar, RockyMountainTile
from .redemption import Redeem
from .routes import Routes1862
from .shares import InitialShares, Shares1862
from .state import Game1862, PrivateSale
from .switches import NO_BONUS_HEXES, PRIVATES_CLOSE_ON_5, RMC_REVENUE_20, SWITCHES

INITIAL = "initial"


class InitialStockRound(StockRound):
    """The initial stock round: the privates, then group 1 without sales (S2 "INITIAL STOCK ROUND")."""

    kind = INITIAL

    def name(self) -> str:
        return f"Initial Stock Round {self.game.turn}"


class G1862(Game1862):
    TITLE = "1862"
    DATA_PACKAGE = "engine.titles.g1862"
    EDITION = "reconstructed"
    SELL_AFTER_FIRST_SR = False  # the initial stock rounds forbid sales themselves (InitialShares)
    # The order is fixed when each operating round starts (§4.6), so companies leaving mid-round need no price.
    dynamic_operating_order = False
    OPTIONAL_RULES = SWITCHES
    # A long game (13 companies, 42 trains, a $22,000 bank): snapshots of its state are kept less often.
    CHECKPOINT_EVERY: ClassVar[int] = 100
    # 2: a forced purchase and bankruptcy are measured against the cheapest train of the bank and the pool, whose
    # sale of an unfloated company's shares pays the price after the drop; the treasury alone pays when it covers
    # such a train; the Rocky Mountain Company's tile only before the trains run (§8.7.4, §10.1, D-08, D-12).
    # 3: a frozen game, in which no company can ever float or operate again, ends with the round (D-22).
    RULES_EDITION: ClassVar[int] = 3
    # Initial stock rounds (repeated while privates are unsold, through next_in_plan), then sets of operating
    # rounds and stock rounds in turn; priority passes at the end of every stock round (S2 "SEQUENCE").
    ROUND_PLAN: ClassVar[RoundPlan] = RoundPlan(
        initial=INITIAL,
        after={
            INITIAL: Next(OPERATING, priority_deal=True),
            STOCK: Next(OPERATING, priority_deal=True),
            OPERATING: Next(STOCK),
        },
    )

    def setup(self) -> None:
        self.private_sale = PrivateSale()
        self.redeemed: set[str] = set()
        self.fixed_scores: dict[int, int] = {}  # bankrupt players' scores, fixed when they leave (§10.1)
        self.redemptions = 0
        self.groups: dict[int, list[Corporation]] = {
            g: [c for c in self.corporations.values() if int(c.data["group"]) == g] for g in (1, 2, 3)}
        self.bankruptcies = 0
        self.idle_stock_rounds = 0
        for number, company in enumerate(sorted(self.companies.values(), key=lambda c: int(c.data["number"]))):
            company.data["order"] = number
        certificates.update_cert_limit(self)
        if self.switch(RMC_REVENUE_20):
            self.companies["RMC"].revenue = 20
        if self.switch(NO_BONUS_HEXES):
            for hx in self.board.hexes.values():
                hx.bonus = {}

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Round:
        return InitialStockRound(self, [NyhPar, ErieTile, PrivateAuction, InitialShares])

    def stock_round(self) -> Round:
        return StockRound(self, [HomeToken, ErieTile, ClosePrivate, Shares1862])

    def operating_round(self, number: int) -> Round:
        return OperatingRound(self, [Bankrupt, ErieTile, ClosePrivate, RockyMountainTile, HomeToken, Track, TokenStep,
                                     Routes1862, Dividend, DiscardTrain, BuyTrain, Redeem], number)

    def next_in_plan(self, finished: Any) -> Next:
        # Privates left unsold after an initial stock round: a revenue-only OR, then another initial round.
        if finished.kind == OPERATING and unsold_privates(self):
            return Next(INITIAL)
        return super().next_in_plan(finished)

    # ------------------------------------------------------------------ views
    def standing_bids(self) -> dict[str, list[tuple[Any, int]]]:
        return private_sale.standing_bids(self)

    def committed_cash(self, player: Player) -> int:
        return private_sale.earmarked(self, player)

    def end_checks(self) -> dict[str, EndCheck]:
        return {
            **super().end_checks(),
            "companies_out": lambda: certificates.companies_out(self) >= 8,
            "players_out": lambda: certificates.players_in_game(self) < 3,
            "frozen": lambda: stalemate.frozen(self),
        }

    def before_game_end(self, reason: str) -> None:
        if reason != "manually_ended":
            debt.repay_debts(self)

    def phase_changed(self) -> None:
        super().phase_changed()
        if self.switch(PRIVATES_CLOSE_ON_5) and self.phase["name"] == "5":
            privates.close_all(self, list(self.companies.values()))

    # ------------------------------------------------------------------ shares
    def can_par(self, corp: Corporation, player: Player) -> bool:
        return super().can_par(corp, player) and share_rules.group_open(self, int(corp.data["group"]))

    def float_corporation(self, corp: Corporation) -> None:
        super().float_corporation(corp)
        privates.after_float(self, corp)

    def sell_shares(self, seller: Player, shares: list[Share], percent: int | None = None) -> int:
        return share_rules.sell_shares(self, seller, shares)

    def finish_stock_round(self) -> None:
        share_rules.sold_out_rise(self)
        self.idle_stock_rounds += 1

    def action_processed(self, action: dict[str, Any]) -> None:
        self.idle_stock_rounds = 0

    def player_value(self, player: Player) -> int:
        return share_rules.player_value(self, player)

    def private_worth(self, player: Player) -> int:
        return 0  # privates score nothing (§10.3)

    # ------------------------------------------------------------------ dividends (§9.4)
    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        corp.last_revenue = revenue
        if kind == "payout" and revenue > 0:
            parts, kept = redemption.payout_parts(self, corp, revenue)
            self.log(f"{corp.sym} pays out {self.format_money(revenue)}")
            self.runs.dividend_paid(corp, ev.DividendKind.FULL, revenue, parts, kept)
            self.market.right(corp.sym)
            privates.after_payout(self, corp)
        else:
            if revenue:
                self.bank.spend(revenue, corp, ev.Why.REVENUE)
            self.log(f"{corp.sym} withholds {self.format_money(revenue)}")
            self.runs.dividend_paid(corp, ev.DividendKind.WITHHELD, revenue, [], revenue)
            self.market.left(corp.sym)
            bankruptcy.check_price_zero(self, corp)

    # ------------------------------------------------------------------ trains, forced purchase, bankruptcy
    def discard_train(self, corp: Corporation, train: Train) -> None:
        """Trains over a lowered limit go to the bank pool, where any company may buy them (§7.3)."""
        self.trains.discard_to_pool(corp, train)

    def must_buy_train(self, corp: Corporation) -> bool:
        return forced_purchase.must_buy_train(self, corp)

    def president_may_contribute(self, corp: Corporation) -> bool:
        return forced_purchase.president_may_contribute(self, corp)

    def min_depot_price(self) -> int | None:
        """What a forced purchase must raise: the cheapest train the bank or the pool offers (§8.7.4.2)."""
        if self.rules_edition >= 2:
            return super().min_depot_price()
        return forced_purchase.edition_1_min_depot_price(self)

    def emergency_bundle_needed(self, corp: Corporation, shares: list[Share], percent: int) -> bool:
        if self.rules_edition < 2:
            return super().emergency_bundle_needed(corp, shares, percent)
        return forced_purchase.bundle_needed(self, corp, shares)

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Share],
                               percent: int) -> bool:
        return forced_purchase.bundle_legal(self, player, shares, percent)

    def emergency_liquidity(self, player: Player, corp: Corporation) -> int:
        return forced_purchase.liquidity(self, player)

    def can_go_bankrupt(self, corp: Corporation) -> bool:
        if corp.closed:
            return False
        return super().can_go_bankrupt(corp)

    def go_bankrupt(self, corp: Corporation) -> None:
        bankruptcy.go_bankrupt(self, corp)

    # ------------------------------------------------------------------ operating
    def start_operating(self, corp: Corporation) -> None:
        if not corp.closed:
            super().start_operating(corp)

    def tile_lays(self) -> list[dict[str, Any]]:
        # Phase 2: one yellow tile; from phase 3: two yellow tiles or one upgrade (§3.4).
        lays: list[dict[str, Any]] = [{"lay": True, "upgrade": True}]
        if self.phase["name"] != "2":
            lays.append({"lay": True, "upgrade": False, "not_if_upgraded": True})
        return lays

    def can_lay_track(self, corp: Corporation) -> bool:
        return not corp.closed and super().can_lay_track(corp)

    def after_tile_laid(self, corp: Corporation, hx: Hex, tile: Tile, water_crossings: int) -> None:
        stations.new_york_merged(self, hx, tile)

    def can_token_city(self, corp: Corporation, hx: Hex, node: int, token: Token | None = None) -> bool:
        if corp.closed or not super().can_token_city(corp, hx, node, token):
            return False
        return token is None or token.used or stations.marker_cost(self, corp, token, hx) <= corp.cash

    def can_place_token(self, corp: Corporation) -> bool:
        return not corp.closed and super().can_place_token(corp)

    def station_surcharge(self, corp: Corporation, token: Token, hx: Hex) -> int:
        return stations.border_surcharge(self, corp, token, hx)

    # ------------------------------------------------------------------ routes (§7.4)
    def autoroute_train_spec(self, train: Train) -> TrainSpec:
        return routes.train_spec(train)

    def autoroute_pricing(self, graph: RouteGraph) -> Pricing:
        return routes.pricing(graph)

    def autoroute_tile_once(self) -> frozenset[str]:
        return routes.tile_once_exempt(self)
