"""1882 Assiniboia: the title's hooks over the shared core (rules: 1882 rules of play)."""

from __future__ import annotations

from typing import Any

from ...core.entities import Company, Corporation, Player, Token, Train
from ...core.game import Game
from ...core.round import AuctionRound, OperatingRound, Round, StockRound
from ...core.routes import Route
from ...core.sequence import OPERATING, STOCK, Next, RoundPlan
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
    # The private auction, then stock rounds and sets of operating rounds in turn (rules §4). The priority deal
    # passes at the end of the auction (§9) and of each stock round (§10.6).
    ROUND_PLAN = RoundPlan(
        initial="auction",
        after={
            "auction": Next(STOCK, priority_deal=True),
            STOCK: Next(OPERATING, priority_deal=True),
            OPERATING: Next(STOCK),
        },
    )

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
        tb = self.companies["TB"]
        pool = tb.data["share_from"]
        tb.data["share"] = f"{pool[self.rng.next() % len(pool)]}_1"
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
    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        if company.data.get("president_of"):
            self.round.pending_par.append((company, company.data["president_of"]))  # type: ignore[attr-defined]
        share_id = company.data.get("share")
        if share_id:
            share = self.share_by_id(share_id)
            self.transfer_share(share, player)
            self.log(f"{player.name} receives {share_id} with {company.sym}")

    def can_par(self, corp: Corporation, player: Player) -> bool:
        if corp.ipoed or corp.closed:
            return False
        if corp.sym == "CN":
            # CN starts only once a neutral station is on the board (rules §10.4).
            return self._neutral_on_board()
        if corp.data.get("home_anywhere"):
            sc = self.companies["SC"]
            return self.sc_convertible and sc.owner is player and not sc.closed
        return True

    def par_cost(self, corp: Corporation, price: int) -> int:
        if corp.data.get("home_anywhere"):
            return price  # the SC private counts as the other half of the president's certificate
        return super().par_cost(corp, price)

    def par_corporation(self, player: Player, corp: Corporation, cell: Any) -> None:
        super().par_corporation(player, corp, cell)
        if not corp.data.get("home_anywhere"):
            return
        self.close_company(self.companies["SC"])
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

    def after_train_bought(self, corp: Corporation, train: Train) -> None:
        if corp.sym == "CPR":
            self.close_company(self.companies["CP"])

    def after_tile_laid(self, corp: Corporation, hx: Any, tile: Tile, water_crossings: int) -> None:
        tb = self.companies["TB"]
        if water_crossings and not tb.closed and tb.owner is not None:
            income = int(tb.data.get("river_income", 10)) * water_crossings
            self.bank.spend(income, tb.owner)
            self.log(f"{tb.owner.name} earns {self.format_money(income)} from {tb.sym}")
        self.nwr_bonus(corp, hx, tile)

    def nwr_bonus(self, corp: Corporation, hx: Any, tile: Tile) -> None:
        if "nwr" in hx.tags and tile.colour == "yellow":
            bonus = int(self.data()["game"]["track"]["nwr_yellow_bonus"])
            self.bank.spend(bonus, corp)
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
        self.board_changed()

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

    def network(self, corp: Corporation) -> Any:
        return super().network(corp)

    def nwr_powers_left(self, corp: Corporation) -> list[str]:
        """NWR's unused powers ("token", "tile") while ``corp`` owns it."""
        nwr = self.companies["NWR"]
        if nwr.owner is not corp or nwr.closed:
            return []
        return [power for power in ("token", "tile") if not nwr.data.get(f"{power}_used")]

    def has_turn_ability(self, corp: Corporation) -> bool:
        return bool(self.nwr_powers_left(corp))

    def token_ability_prices(self, corp: Corporation) -> list[int]:
        return [0] if "token" in self.nwr_powers_left(corp) else []

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

    def must_buy_train(self, corp: Corporation) -> bool:
        return not corp.trains and self.network(corp).route_possible

    def president_may_contribute(self, corp: Corporation) -> bool:
        if corp.trains:
            return False
        net = self.network(corp)
        return net.route_possible or any(self.board.hexes[h].optional_node for h, _ in net.nodes)

    def may_replace_neutral(self, corp: Corporation) -> bool:
        # Only SC's home may take a neutral station's space (rules 7.1 P2); QL's may not (rules 11.4).
        return bool(corp.data.get("home_anywhere"))

