"""1882 Assiniboia: the title's hooks over the shared core (rules: 1882 rules of play)."""

from __future__ import annotations

from typing import Any

from ...core.actions import Action
from ...core.board import Hex
from ...core.entities import Corporation, Player, Token, Train
from ...core.round import Round
from ...core.rounds import AuctionRound, OperatingRound, StockRound
from ...core.routes import Route
from ...core.sequence import STANDARD_PLAN
from ...core.steps.auction import CompanyPendingPar, WaterfallAuction
from ...core.steps.operating import Bankrupt, BlockingBuyCompany, BuyCompany, Dividend, RouteStep, TokenStep, Track
from ...core.steps.stock import BuySellParShares, HomeToken
from ...core.steps.trains import BuyTrain, DiscardTrain
from ...core.tiles import Tile, TokenKind
from . import rebellion, saskatchewan
from .nwr_private import SpecialNWR
from .state import Game1882

NWR_CITIES = ("C3", "D4", "D6", "E5")


class G1882(Game1882):
    TITLE = "1882"
    DATA_PACKAGE = "engine.titles.g1882"
    RULES_EDITION = 2  # 2: the memory of routes (remembers_routes)
    # The private auction, then stock rounds and sets of operating rounds in turn (rules §4). The priority deal
    # passes at the end of the auction (§9) and of each stock round (§10.6).
    ROUND_PLAN = STANDARD_PLAN

    def setup(self) -> None:
        for corp in self.corporations.values():
            if corp.data.get("neutral_token"):
                corp.tokens.append(Token("CN", 0, kind=TokenKind.NEUTRAL))
        self.sc_reserve: dict[str, Train] = saskatchewan.set_aside_trains(self)
        # The North West Rebellion fires with the first train of a randomly drawn type (rules §8).
        rebellion.draw_train(self)
        # TB's random share is drawn next, by the core, from its shares ability.
        self.sc_convertible = True

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Round:
        return AuctionRound(self, [CompanyPendingPar, WaterfallAuction])

    def stock_round(self) -> Round:
        return StockRound(self, [DiscardTrain, HomeToken, BuySellParShares])

    def operating_round(self, number: int) -> Round:
        return OperatingRound(self, [Bankrupt, BuyCompany, HomeToken, SpecialNWR, Track, TokenStep, RouteStep,
                                     Dividend, DiscardTrain, BuyTrain, BlockingBuyCompany], number)

    def tile_lays(self) -> list[dict[str, Any]]:
        # One or two yellow tiles (the second costs $20), or one upgrade (rules §11.3).
        cost = int(self.data()["game"]["track"]["second_yellow_cost"])
        return [{"lay": True, "upgrade": True},
                {"lay": True, "upgrade": False, "not_if_upgraded": True, "cost": cost}]

    # ------------------------------------------------------------------ privates
    # The privates' powers are data (abilities in game.toml): HB, SC and TB block hexes, TB's share, river income
    # and CP's president's certificate, CP's no-buy, the closings. SC's conversion (the exchange ability, read by
    # the core's par rules) brings what data cannot say: the extra train and the home station anywhere.
    def can_par(self, corp: Corporation, player: Player) -> bool:
        if corp.sym == "CN" and not (corp.ipoed or corp.closed):
            # CN starts only once a neutral station is on the board (rules §10.4).
            return self._neutral_on_board()
        return super().can_par(corp, player)

    def after_par(self, player: Player, corp: Corporation) -> None:
        # The SC private, exchanged for the certificate, is closed by now.
        saskatchewan.converted(self, corp)

    def action_processed(self, action: Action) -> None:
        saskatchewan.check_convertible(self)

    def after_tile_laid(self, corp: Corporation, hx: Hex, tile: Tile, water_crossings: int) -> None:
        rebellion.yellow_bonus(self, corp, hx, tile)

    def event_nwr(self) -> None:
        rebellion.strike(self)

    # ------------------------------------------------------------------ operating
    def can_lay_track(self, corp: Corporation) -> bool:
        if corp.sym == "CN":
            # CN's stations are the neutral ones on the board (rules §10.4).
            return self._neutral_on_board()
        return bool(corp.tokens)

    def _neutral_on_board(self) -> bool:
        found = self.board_cache.get("neutral")
        if found is None:
            found = self.board_cache["neutral"] = any(
                "CN" in slots for hx in self.board.hexes.values() for slots in hx.tile.tokens.values())
        return bool(found)

    def has_route_bonus(self) -> bool:
        return True  # the Hudson Bay bonus

    def route_bonus(self, route: Route) -> int:
        hexes = {h for h, _ in route.stops}
        tags: set[str] = set()
        for h in hexes:
            tags |= self.board.hexes[h].tags
        if "hudson-bay" in tags and "hudson-west" in tags:
            return int(self.data()["game"]["hudson_bonus"])
        return 0

    def remembers_routes(self) -> bool:
        """Edition 2: a company that once had a route keeps running, and must own a train, after its track or
        station is cut off (a station re-placed on E5 or M11, a city filled), as on 18xx.games, whose players
        expect it; until the North West Rebellion, which makes 18xx.games look afresh. Edition 1, the rule of
        11.5 taken literally, is kept for games begun under it."""
        return self.rules_edition >= 2

    def president_may_contribute(self, corp: Corporation) -> bool:
        if corp.trains:
            return False
        return self.must_buy_train(corp) or self.track.any_node(corp, lambda h, _: self.board.hexes[h].optional_node)

    def may_replace_neutral(self, corp: Corporation) -> bool:
        # Only SC's home may take a neutral station's space (rules 7.1 P2); QL's may not (rules 11.4).
        return bool(corp.data.get("home_anywhere"))

