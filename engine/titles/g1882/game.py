"""1882 Assiniboia: the title's hooks over the shared core (rules: 1882 rules of play)."""

from __future__ import annotations

from typing import Any

from ...core import events as ev
from ...core.entities import Corporation, Player, Token, Train
from ...core.game import Game
from ...core.round import AuctionRound, OperatingRound, Round, StockRound
from ...core.routes import Route
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
from ...core.steps.stock import BuySellParShares, HomeToken
from ...core.tiles import Tile, TokenKind
from .steps import SpecialNWR

NWR_CITIES = ("C3", "D4", "D6", "E5")


class G1882(Game):
    TITLE = "1882"
    DATA_PACKAGE = "engine.titles.g1882"
    RULES_EDITION = 2  # 2: the memory of routes (remembers_routes)
    # The private auction, then stock rounds and sets of operating rounds in turn (rules §4). The priority deal
    # passes at the end of the auction (§9) and of each stock round (§10.6).
    ROUND_PLAN = STANDARD_PLAN

    def setup(self) -> None:
        g = self.data()["game"]
        for corp in self.corporations.values():
            if corp.data.get("neutral_token"):
                corp.tokens.append(Token("CN", 0, kind=TokenKind.NEUTRAL))
        # One train of each of 3, 4, 5, 6 is set aside for SC (rules §7.1 P2); the last of each type.
        self.sc_reserve: dict[str, Train] = {}
        for name in g["sc_extra_trains"]["types"]:
            train = [t for t in self.depot if t.name == name][-1]
            self.depot.remove(train)
            train.reserved = True
            self.sc_reserve[name] = train
        # The North West Rebellion fires with the first train of a randomly drawn type (rules §8).
        candidates = g["nwr_event"]["train_candidates"]
        nwr = candidates[self.rng.next() % len(candidates)]
        next(t for t in self.depot if t.name == nwr).events.append("nwr")
        self.log(f"NWR Rebellion occurs on purchase of the first {nwr} train")
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
        if not corp.data.get("home_anywhere"):
            return
        self._add_sc_train(corp)
        self.pending_tokens.append((corp, self.sc_home_hexes(corp), corp.tokens[0]))

    def _add_sc_train(self, corp: Corporation) -> None:
        self.sc_convertible = False
        first = self.available_depot_trains()[0]
        extra = self.sc_reserve.pop(first.name, None)
        if extra is None:
            return
        extra.reserved = False
        self.depot.insert(self.depot.index(first), extra)
        self.log(f"{corp.sym} adds an extra {extra.name} train to the depot")

    def sc_home_hexes(self, corp: Corporation) -> list[str]:
        out = []
        for hx in self.board.hexes.values():
            for node, slots in hx.tile.tokens.items():
                if "CN" in slots or self.free_slot(hx, node, corp.sym) is not None:
                    out.append(hx.id)
                    break
        return out

    def action_processed(self, action: dict[str, Any]) -> None:
        sc_company = self.companies["SC"]
        sc = self.corporations.get("SC")
        if sc is not None and not sc.ipoed and self.sc_convertible and (
                sc_company.closed or isinstance(sc_company.owner, Corporation)):
            self.sc_convertible = False
            sc.closed = True
            self.log("Saskatchewan Central can no longer be converted to a public corporation")

    def after_tile_laid(self, corp: Corporation, hx: Any, tile: Tile, water_crossings: int) -> None:
        self.nwr_bonus(corp, hx, tile)

    def nwr_bonus(self, corp: Corporation, hx: Any, tile: Tile) -> None:
        if "nwr" in hx.tags and tile.colour == "yellow":
            bonus = int(self.data()["game"]["track"]["nwr_yellow_bonus"])
            self.bank.spend(bonus, corp, ev.Why.TILE)
            self.log(f"{corp.sym} gains {self.format_money(bonus)} for laying a yellow tile in the NWR area")

    def event_nwr(self) -> None:
        self.log("-- Event: North West Rebellion! --")
        for hx in self.board.hexes.values():
            if "nwr" not in hx.tags or hx.tile.colour != "yellow" or hx.tile is hx.original:
                continue
            old = hx.tile
            hx.tile = hx.original
            # The printed hex comes back with its river crossings unpaid (as 18xx.games does).
            hx.borders = {e: type(b)(b.kind, b.cost) for e, b in hx.printed_borders.items()}
            for node, slots in old.tokens.items():
                dest = hx.original.tokens.get(node)
                for i, s in enumerate(slots):
                    if s is not None and dest is not None:
                        dest[i] = s
                        hx.original.kinds[node][i] = old.kinds[node][i]
                        slots[i] = None
            old.rotation = 0
            self.tile_supply[old.id] = old
            self.log(f"Rebellion destroys tile {hx.id}")
            ev.emit(ev.TileLaid(hx.id, hx.tile.name, hx.tile.id, hx.tile.rotation, old.name, ""))
        self.board_changed()
        self.routes_seen.clear()  # 18xx.games clears its whole graph here, memory of routes included

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
        net = self.network(corp)
        return self.must_buy_train(corp) or any(self.board.hexes[h].optional_node for h, _ in net.nodes)

    def may_replace_neutral(self, corp: Corporation) -> bool:
        # Only SC's home may take a neutral station's space (rules 7.1 P2); QL's may not (rules 11.4).
        return bool(corp.data.get("home_anywhere"))

