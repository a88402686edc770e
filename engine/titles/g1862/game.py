"""1862 USA & Canada (18xx und Zugzwang, Helmut Ohley): the title's hooks over the shared core.

A RECONSTRUCTED edition: the rules text (S2) has no map, market, tiles or train roster and several empty
sections; /work/shared/rules/1862-reconstruction.md (the spec) fills them, and docs/1862-decisions.md records
what we decided where the spec is wrong or silent. Section numbers in comments are the spec's.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, ClassVar

from ...core import events as ev
from ...core import loans
from ...core.abilities import Shares
from ...core.autoroute import BonusRule, Pricing, RouteGraph, TrainSpec
from ...core.board import Hex, _blank_side
from ...core.entities import Company, Corporation, Player, Share, Token, Train, pay
from ...core.errors import illegal, insufficient
from ...core.game import Game
from ...core.round import OperatingRound, Round, StockRound
from ...core.sequence import OPERATING, STOCK, Next, RoundPlan
from ...core.steps.operating import (
    Bankrupt,
    BuyTrain,
    DiscardTrain,
    Dividend,
    TokenStep,
    Track,
)
from ...core.steps.stock import HomeToken
from ...core.tiles import Tile, TokenKind
from ...core.track import move_tokens
from . import rules
from .privates import PrivateAuction, PrivateSale
from .steps import (
    ClosePrivate,
    ErieTile,
    InitialShares,
    NyhPar,
    Redeem,
    RockyMountainTile,
    Routes1862,
    Shares1862,
)

INITIAL = "initial"
NEW_YORK = "F31"
MEXICO = ("K12", "K14")
BALTIMORE = "G30"
BO_MARKER = "B&O"
# The spec's configuration switches (§14.2), each the alternative to its default, as optional rules.
RMC_REVENUE_20 = "rmc_revenue_20"
NO_BONUS_HEXES = "no_bonus_hexes"
NYH_PAR_LOCKED = "nyh_par_locked"
GROUP2_AFTER_FLOATS = "group2_after_group1_floats"
PRIVATES_CLOSE_ON_5 = "privates_close_on_first_5"
FORCED_PURCHASE_ALWAYS = "forced_purchase_always"
PRICE_ZERO_MARKERS_REMOVED = "price_zero_markers_removed"
SWITCHES = (RMC_REVENUE_20, NO_BONUS_HEXES, NYH_PAR_LOCKED, GROUP2_AFTER_FLOATS, PRIVATES_CLOSE_ON_5,
            FORCED_PURCHASE_ALWAYS, PRICE_ZERO_MARKERS_REMOVED)


class InitialStockRound(StockRound):
    """The initial stock round: the privates, then group 1 without sales (S2 "INITIAL STOCK ROUND")."""

    kind = INITIAL

    def name(self) -> str:
        return f"Initial Stock Round {self.game.turn}"


class G1862(Game):
    TITLE = "1862"
    DATA_PACKAGE = "engine.titles.g1862"
    EDITION = "reconstructed"
    SELL_AFTER_FIRST_SR = False  # the initial stock rounds forbid sales themselves (InitialShares)
    # The order is fixed when each operating round starts (§4.6), so companies leaving mid-round need no price.
    dynamic_operating_order = False
    RMC_DISCOUNT = 160
    OPTIONAL_RULES = SWITCHES
    # A long game (13 companies, 42 trains, a $22,000 bank): snapshots of its state are kept less often.
    CHECKPOINT_EVERY: ClassVar[int] = 100
    # 2: a forced purchase and bankruptcy are measured against the cheapest train of the bank and the pool, whose
    # sale of an unfloated company's shares pays the price after the drop; the treasury alone pays when it covers
    # such a train; the Rocky Mountain Company's tile only before the trains run (§8.7.4, §10.1, D-08, D-12).
    RULES_EDITION: ClassVar[int] = 2
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
        for number, company in enumerate(sorted(self.companies.values(), key=lambda c: int(c.data["number"]))):
            company.data["order"] = number
        self.update_cert_limit()
        if self.switch(RMC_REVENUE_20):
            self.companies["RMC"].revenue = 20
        if self.switch(NO_BONUS_HEXES):
            for hx in self.board.hexes.values():
                hx.bonus = {}

    def switch(self, name: str) -> bool:
        """Whether the game was set up with this §14.2 switch in its alternative position."""
        return name in (self.options.get("optional_rules") or [])

    @classmethod
    def edition_label(cls) -> str:
        """The label the game shows wherever a player meets it (spec, opening section)."""
        return str(cls.data()["game"]["edition_label"])

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
        if finished.kind == OPERATING and self.unsold_privates():
            return Next(INITIAL)
        return super().next_in_plan(finished)

    def players_in_game(self) -> int:
        return sum(1 for p in self.players if not p.bankrupt)

    def companies_out(self) -> int:
        return sum(1 for c in self.corporations.values() if c.closed)

    def update_cert_limit(self) -> None:
        table = self.data()["game"]["cert_limit_table"]
        self.cert_limit = rules.cert_limit(table, self.players_in_game(), 13 - self.companies_out())

    def bankrupt_or_out(self, entity: Any) -> bool:
        return isinstance(entity, Player) and entity.bankrupt

    def end_checks(self) -> dict[str, Any]:
        return {
            **super().end_checks(),
            "companies_out": lambda: self.companies_out() >= 8,
            "players_out": lambda: self.players_in_game() < 3,
        }

    # ------------------------------------------------------------------ privates
    def unsold_privates(self) -> list[Company]:
        return sorted((c for c in self.companies.values() if c.owner is None and not c.closed),
                      key=lambda c: int(c.data["order"]))

    def granted_certificates(self, company: Company) -> int:
        return sum(len(a.certificates) for a in company.abilities_of(Shares))

    def sell_private(self, player: Player, company: Company, price: int) -> None:
        company.owner = player
        player.companies.append(company)
        if price > 0:
            pay(player, self.bank, price, ev.Why.PRIVATE)
        ev.emit(ev.PrivateMoved(company.sym, ev.BANK, player.party, price))
        self.log(f"{player.name} buys {company.sym} for {self.format_money(price)}")
        ev.emit(ev.AuctionWon(company.sym, player.party, price))
        self.after_buy_company(player, company, price)
        if company.sym == BO_MARKER:
            hx = self.board[BALTIMORE]
            node = hx.tile.tdef.cities[0]
            slot = self.free_slot(hx, node, BO_MARKER)
            if slot is not None:
                hx.tile.tokens[node][slot] = BO_MARKER
                hx.tile.kinds[node][slot] = TokenKind.BLOCKING
                ev.emit(ev.StationChanged(hx.id, node, slot, None, BO_MARKER, TokenKind.BLOCKING.value))
                self.board_changed()
                self.log(f"The B&O station marker is placed in Baltimore ({BALTIMORE})")

    def close_private_voluntarily(self, company: Company) -> None:
        if company.sym == BO_MARKER:
            for hx in self.board.hexes.values():
                for node, slots in hx.tile.tokens.items():
                    for i, s in enumerate(slots):
                        if s == BO_MARKER:
                            slots[i] = None
                            hx.tile.kinds[node][i] = TokenKind.NORMAL
                            ev.emit(ev.StationChanged(hx.id, node, i, BO_MARKER, None))
            self.board_changed()
        self.close_company(company)

    def erie_placed(self) -> bool:
        return self.board["E28"].tile.name == "ERIE"

    def place_erie_tile(self) -> None:
        hx = self.board["E28"]
        tile = Tile("ERIE-0", self.tile_defs["ERIE"], 0, preprinted=True)
        move_tokens(hx.tile, tile)
        old = hx.tile
        hx.tile = hx.original = tile
        ev.emit(ev.TileLaid(hx.id, tile.name, tile.id, tile.rotation, old.name, ""))
        # Edges facing E28 open where the Erie tile now has track (§2.1 exit rule (b)).
        for h in [hx, *(self.board.hexes[n] for n in hx.neighbors.values())]:
            h.sealed = frozenset(e for e, other in h.neighbors.items()
                                 if _blank_side(self.board.hexes[other], (e + 3) % 6))
        self.board_changed()
        self.log("The special Erie tile is placed on E28")

    def float_corporation(self, corp: Corporation) -> None:
        super().float_corporation(corp)
        if corp.sym == "NYH":
            self.close_company(self.companies["NYSH"])
        soc = self.companies["SOC"]
        if corp.sym in ("CPR", "UP") and not soc.closed:
            if self.corporations["CPR"].floated and self.corporations["UP"].floated:
                self.close_company(soc)
            else:
                soc.revenue = 15
                self.log("SOC's revenue falls to $15")

    # ------------------------------------------------------------------ shares
    def group_open(self, group: int) -> bool:
        """Whether a company group is on sale (§5.3); companies out of the game are ignored."""
        if any(c.owner is None and not c.closed for c in self.companies.values()):
            return False
        if group >= 2 and any(c.shares for c in self.groups[1] if not c.closed):
            return False
        if group >= 2 and self.switch(GROUP2_AFTER_FLOATS) and not all(c.floated for c in self.groups[1]
                                                                       if not c.closed):
            return False
        return group < 3 or all(c.floated for c in self.groups[2] if not c.closed)

    def can_par(self, corp: Corporation, player: Player) -> bool:
        return super().can_par(corp, player) and self.group_open(int(corp.data["group"]))

    def cert_price(self, corp: Corporation, share: Share) -> int:
        cell = self.market.location.get(corp.sym)
        return rules.cert_value(cell.price, share.percent) if cell is not None else 0

    def sell_shares(self, seller: Player, shares: list[Share], percent: int | None = None) -> int:
        """One selling action: the price moves one row down; a floated company pays the price before the drop,
        an unfloated one the price after it (§4.3, §8.5)."""
        corp = self.corporation(shares[0].corp)
        if not corp.floated:
            self.market.down(corp.sym)
        proceeds = sum(self.cert_price(corp, s) for s in shares)
        previous = corp.owner
        for s in shares:
            self.transfer_share(s, self.pool)
        self.bank.spend(proceeds, seller, ev.Why.SHARE_SALE)
        self.check_presidency(corp, previous, seller)
        if corp.floated:
            self.market.down(corp.sym)
        self.log(f"{seller.name} sells {sum(s.percent for s in shares)}% of {corp.sym} for "
                 f"{self.format_money(proceeds)}")
        self.check_price_zero(corp)
        return proceeds

    def finish_stock_round(self) -> None:
        """A company none of whose certificates is in the initial offering or the pool rises a row (§4.3)."""
        for corp in self.operating_order():
            if not corp.shares and not self.pool.shares_of(corp.sym):
                self.market.up(corp.sym)
                price = self.market.location[corp.sym].price
                self.log(f"{corp.sym} is sold out and rises to {self.format_money(price)}")

    def player_value(self, player: Player) -> int:
        """Cash and certificates at their price (5% ones rounded up), less debt charged to him; privates $0
        (§10.3). A player bankrupt during play keeps the score fixed when he left (§10.1)."""
        if player.bankrupt and player.id in self.fixed_scores:
            return self.fixed_scores[player.id]
        value = player.cash - player.debt
        for s in player.shares:
            value += self.cert_price(self.corporations[s.corp], s)
        return value

    def private_worth(self, player: Player) -> int:
        return 0  # privates score nothing (§10.3)

    # ------------------------------------------------------------------ redemption (§9)
    def may_redeem(self, corp: Corporation) -> bool:
        return (corp.floated and not corp.closed and corp.sym not in self.redeemed
                and int(self.phase.get("debt_rate", 0)) > 0)

    def _redeemable(self, corp: Corporation) -> list[Share]:
        return [s for h in (*self.players, self.pool, corp) for s in h.shares if s.corp == corp.sym]

    def redemption_payment(self, corp: Corporation) -> int:
        price = self.market.location[corp.sym].price
        return sum(rules.redemption_cash(price, s.percent, s.president) for s in self._redeemable(corp))

    def redeem(self, corp: Corporation, kind: str) -> None:
        """Buy back half of every certificate (§9.2): 10% -> 5%, 30% president -> 10% president + 5%,
        20% president -> 10% president; the company takes its 50% certificate."""
        if not self.may_redeem(corp):
            raise illegal(f"{corp.sym} cannot redeem its shares now")
        price = self.market.location[corp.sym].price
        needed = self.redemption_payment(corp)
        if kind == "treasury":
            if corp.cash < needed:
                raise insufficient(f"{corp.sym} needs {self.format_money(needed)} and has "
                                   f"{self.format_money(corp.cash)}; take debt instead")
        else:
            rate = int(self.phase["debt_rate"])
            face = rules.debt_face(needed, rate)
            cash = face * rate // 100
            loans.lend(self.bank, corp, cash, owed=face)
            self.log(f"{corp.sym} takes a debt certificate of {self.format_money(face)} for "
                     f"{self.format_money(cash)}")
        fresh = iter(Share(f"{corp.sym}_R{i}", corp.sym, 5, False, corp) for i in range(1, 9))
        for holder in (*self.players, self.pool, corp):
            for old in [s for s in holder.shares if s.corp == corp.sym]:
                price_paid = rules.redemption_cash(price, old.percent, old.president)
                pay(corp, holder if isinstance(holder, Player) else self.bank, price_paid, ev.Why.SHARES)
                holder.shares.remove(old)
                ev.emit(ev.ShareCreated(old.id, corp.sym, old.percent, holder.party, gone=True))
                new: list[Share] = []
                if old.president:
                    new.append(Share(f"{corp.sym}_R0", corp.sym, 10, True, holder))
                if old.percent in (10, 30):
                    new.append(next(fresh))
                for share in new:
                    share.owner = holder
                    holder.shares.append(share)
                    ev.emit(ev.ShareCreated(share.id, corp.sym, share.percent, holder.party))
        corp.treasury.shares.append(Share(f"{corp.sym}_R9", corp.sym, 50, False, corp.treasury))
        ev.emit(ev.ShareCreated(f"{corp.sym}_R9", corp.sym, 50, corp.treasury.party))
        self.redeemed.add(corp.sym)
        self.redemptions += 1
        self.log(f"{corp.sym} redeems half of its shares for {self.format_money(needed)}; "
                 f"it holds its own 50% certificate")

    # ------------------------------------------------------------------ dividends (§9.4)
    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        corp.last_revenue = revenue
        parts: list[ev.HolderPart] = []
        if kind == "payout" and revenue > 0:
            kept = 0
            if corp.sym in self.redeemed:
                unit = rules.dividend_unit(revenue)
                for p in self.players:
                    units = sum(s.percent // 5 for s in p.shares_of(corp.sym))
                    if units:
                        parts.append(self.pay_holder(p, units * unit))
                kept = revenue - 10 * unit
                self.bank.spend(kept, corp, ev.Why.REVENUE)
            else:
                for p in self.players:
                    percent = p.percent_of(corp.sym)
                    if percent:
                        parts.append(self.pay_holder(p, revenue * percent // 100))
            self.log(f"{corp.sym} pays out {self.format_money(revenue)}")
            self.dividend_paid(corp, ev.DividendKind.FULL, revenue, parts, kept)
            self.market.right(corp.sym)
            first = {"NYC": "FNY", "WP": "PSC"}.get(corp.sym)
            if first is not None:
                self.close_company(self.companies[first])
        else:
            if revenue:
                self.bank.spend(revenue, corp, ev.Why.REVENUE)
            self.log(f"{corp.sym} withholds {self.format_money(revenue)}")
            self.dividend_paid(corp, ev.DividendKind.WITHHELD, revenue, parts, revenue)
            self.market.left(corp.sym)
            self.check_price_zero(corp)

    def check_price_zero(self, corp: Corporation) -> None:
        cell = self.market.location.get(corp.sym)
        if cell is not None and cell.price == 0:
            self.log(f"{corp.sym}'s share price falls to $0: it leaves the game")
            self.remove_corporation(corp, compensate=False, markers_stay=not self.switch(PRICE_ZERO_MARKERS_REMOVED))

    # ------------------------------------------------------------------ companies leaving the game
    def remove_corporation(self, corp: Corporation, *, compensate: bool, bankrupt: Player | None = None,
                           markers_stay: bool = True) -> None:
        """A company leaves the game (§4.4, §10.1): trains gone, treasury to the bank, debt cancelled,
        certificates out of play (other holders compensated at the current price after a bankruptcy), markers
        turned blank (or taken off the map: ``markers_stay`` False)."""
        for p in self.players:
            held = p.shares_of(corp.sym)
            if compensate and p is not bankrupt and held:
                amount = sum(self.cert_price(corp, s) for s in held)
                self.bank.spend(amount, p, ev.Why.CLOSING)
                self.log(f"{p.name} is compensated {self.format_money(amount)} for {corp.sym}")
        for holder in (*self.players, self.pool, corp.treasury):
            for s in holder.shares_of(corp.sym):
                self.transfer_share(s, corp)
        for t in list(corp.trains):
            corp.trains.remove(t)
            t.owner = None
            t.rusted = True
            ev.emit(ev.TrainMoved(t.id, t.name, corp.party, ev.NOBODY, ev.TrainHow.LEFT))
        if corp.cash:
            pay(corp, self.bank, corp.cash, ev.Why.CLOSING)
        if corp.debt:
            ev.emit(ev.LoanChanged(corp.party, -corp.debt, "debt"))
        corp.debt = 0
        for hx in self.board.hexes.values():
            for node, slots in hx.tile.tokens.items():
                for i, owner in enumerate(slots):
                    if owner == corp.sym and markers_stay:
                        hx.tile.kinds[node][i] = TokenKind.BLOCKING
                    elif owner == corp.sym:
                        slots[i] = None
                        hx.tile.kinds[node][i] = TokenKind.NORMAL
                        ev.emit(ev.StationChanged(hx.id, node, i, corp.sym, None))
        corp.closed = True
        self.market.remove(corp.sym)
        self.board_changed()
        self.update_cert_limit()
        self.log(f"{corp.sym} is out of the game")
        ev.emit(ev.CompanyClosed(corp.sym, "bankruptcy" if bankrupt is not None else "price"))

    def can_go_bankrupt(self, corp: Corporation) -> bool:
        if corp.closed:
            return False
        return super().can_go_bankrupt(corp)

    def min_depot_price(self) -> int | None:
        """What a forced purchase must raise: the cheapest train the bank or the pool offers (§8.7.4.2)."""
        if self.rules_edition >= 2:
            return super().min_depot_price()
        prices = [t.price for t in self.available_depot_trains()]  # edition 1: the bank's only
        return min(prices) if prices else None

    def sale_proceeds(self, corp: Corporation, shares: list[Share]) -> int:
        """What selling ``shares`` in one action pays: at the price before the drop for a floated company, after it
        for an unfloated one (§4.3, §8.5); edition 1 counted both at the price before it."""
        cell = self.market.location.get(corp.sym)
        if cell is None:
            return 0
        if not corp.floated and self.rules_edition >= 2:
            cell = self.market.below(corp.sym)
        return sum(rules.cert_value(cell.price, s.percent) for s in shares)

    def emergency_bundle_needed(self, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """No more than needed (§8.7.4.3): without its smallest certificate the sale must fall short."""
        if self.rules_edition < 2:
            return super().emergency_bundle_needed(corp, shares, percent)
        target = self.corporations[shares[0].corp]
        smallest = min(shares, key=lambda s: s.percent)
        rest = list(shares)
        rest.remove(smallest)
        return self.sale_proceeds(target, rest) < self.emergency_need(corp)

    def go_bankrupt(self, corp: Corporation) -> None:
        """Bankruptcy that continues the game (§10.1)."""
        player = corp.owner
        assert isinstance(player, Player)
        owed = (self.min_depot_price() or 0) - corp.cash
        self.log(f"{player.name} goes bankrupt")
        for sym in sorted({s.corp for s in player.shares if s.corp in self.market.location},
                          key=self.market.order_key):
            while True:
                sales = [(shares, percent) for shares, percent in self.sell_bundles(player, self.corporations[sym])
                         if self.emergency_bundle_legal(player, corp, shares, percent)]
                if not sales:
                    break
                shares, percent = max(sales, key=lambda sale: sale[1])
                self.sell_shares(player, shares, percent)
        unpaid = max(0, owed - player.cash)
        pay(player, self.bank, player.cash, ev.Why.BANKRUPTCY)
        player.bankrupt = True
        self.bankruptcies += 1
        for company in list(player.companies):
            if company.sym == "ERIE" and not self.erie_placed():
                self.place_erie_tile()
            self.close_company(company)
        for c in [c for c in self.corporations.values() if c.owner is player and not c.closed]:
            self.remove_corporation(c, compensate=True, bankrupt=player)
        dumped = 0
        for s in list(player.shares):
            owner = self.corporations[s.corp]
            if s.corp in self.market.location and owner.ipoed:
                dumped += self.cert_price(owner, s)
                self.transfer_share(s, self.pool)
            else:
                self.transfer_share(s, owner)
        self.fixed_scores[player.id] = dumped - unpaid
        self.update_cert_limit()
        self.log(f"{player.name} leaves the game with a score of {self.format_money(dumped - unpaid)}")

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """A forced sale never sells a president's certificate nor changes any presidency (§5.6, §8.7)."""
        sym = shares[0].corp
        if sym not in self.market.location or any(s.owner is not player or s.corp != sym for s in shares):
            return False
        if any(s.president for s in shares):
            return False
        if len(self.pool.shares_of(sym)) + len(shares) > self.config.shares.pool_limit:
            return False
        target = self.corporations[sym]
        if target.owner is player:
            others = max((p.percent_of(sym) for p in self.players if p is not player), default=0)
            if player.percent_of(sym) - percent < others:
                return False
        return True

    def emergency_liquidity(self, player: Player, corp: Corporation) -> int:
        total = 0
        for sym in {s.corp for s in player.shares}:
            target = self.corporations[sym]
            bundles = [shares for shares, percent in self.sell_bundles(player, target)
                       if self.emergency_bundle_legal(player, corp, shares, percent)]
            total += max((self.sale_proceeds(target, shares) for shares in bundles), default=0)
        return total

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
        if hx.id == NEW_YORK and len(tile.tdef.cities) == 1:
            # Brown New York merges the two stations (§3.4.6): both homes are in its one city.
            for c in self.corporations.values():
                if c.home == NEW_YORK:
                    c.home_city = 0

    @staticmethod
    def country(hx: Hex) -> str:
        return "CA" if "ca" in hx.tags else "MX" if "mx" in hx.tags else "US"

    def marker_cost(self, corp: Corporation, token: Token, hx: Hex) -> int:
        """A station marker's price, 1.5 times across the US/Canada border from the company's home (§5.5)."""
        home = self.board[corp.home] if corp.home else hx
        return token.price * 3 // 2 if self.country(hx) != self.country(home) else token.price

    def can_token_city(self, corp: Corporation, hx: Hex, node: int, token: Token | None = None) -> bool:
        if corp.closed or not super().can_token_city(corp, hx, node, token):
            return False
        return token is None or token.used or self.marker_cost(corp, token, hx) <= corp.cash

    def can_place_token(self, corp: Corporation) -> bool:
        return not corp.closed and super().can_place_token(corp)

    def station_surcharge(self, corp: Corporation, token: Token, hx: Hex) -> int:
        extra = self.marker_cost(corp, token, hx) - token.price
        if extra and corp.cash < token.price + extra:
            raise insufficient(f"{corp.sym} cannot afford a station across the border: treasury "
                               f"{self.format_money(corp.cash)}, price {self.format_money(token.price + extra)}")
        return extra

    def discard_train(self, corp: Corporation, train: Train) -> None:
        """Trains over a lowered limit go to the bank pool, where any company may buy them (§7.3)."""
        self.discard_to_pool(corp, train)

    def must_buy_train(self, corp: Corporation) -> bool:
        if corp.closed or corp.trains or not (self.available_depot_trains() or self.pool_trains):
            return False
        return self.switch(FORCED_PURCHASE_ALWAYS) or self.network(corp).route_possible

    def president_may_contribute(self, corp: Corporation) -> bool:
        """Only when the treasury cannot pay for any train of the bank or the pool (§8.7.4.1, SC-27)."""
        if not self.must_buy_train(corp):
            return False
        cheapest = self.min_depot_price()
        return self.rules_edition < 2 or cheapest is None or corp.cash < cheapest

    def autoroute_train_spec(self, train: Train) -> TrainSpec:
        # E trains count only their best N stops of a route of any length (§7.4).
        return TrainSpec(train.name, int(train.distance), express=train.name.endswith("E"))

    def autoroute_pricing(self, graph: RouteGraph) -> Pricing:
        # Both Mexico hexes are one destination: a route with both is never chosen (§2.5).
        groups = [sum(1 << i for i, n in enumerate(graph.nodes) if n.ref[0] == h) for h in MEXICO]
        if all(groups):
            return Pricing(route_rules=[BonusRule(groups, -10**7)])
        return Pricing()

    def autoroute_tile_once(self) -> frozenset[str]:
        # A route includes each tile once, except New York while its two stations are separate (§7.4); the
        # exemption is the one route_problem makes.
        hx = self.board.hexes[NEW_YORK]
        return frozenset({NEW_YORK}) if len(hx.tile.tdef.cities) == 2 else frozenset()

    def route_problem(self, data: dict[str, Any]) -> str | None:
        """Why a route breaks 1862's own rules (the same tile twice, both Mexico hexes), or None (§7.4)."""
        legs = [[str(h) for h in leg] for leg in data.get("connections") or [] if isinstance(leg, list)]
        count: Counter[str] = Counter(h for leg in legs for h in leg)
        for a, b in itertools.pairwise(legs):
            for shared in {a[0], a[-1]} & {b[0], b[-1]}:
                count[shared] -= 1
        nodes = [str(n) for n in data.get("nodes") or []]
        for hex_id, n in count.items():
            if n <= 1:
                continue
            hx = self.board.hexes.get(hex_id)
            if hex_id == NEW_YORK and hx is not None and len(hx.tile.tdef.cities) == 2:
                continue
            return f"a route may not include the tile on {hex_id} twice"
        if all(count.get(h, 0) > 0 for h in MEXICO):
            return "Mexico (K12 and K14) is one destination: a route may include only one of them"
        _ = nodes
        return None

    def phase_changed(self) -> None:
        super().phase_changed()
        if self.switch(PRIVATES_CLOSE_ON_5) and self.phase["name"] == "5":
            # As a bankrupt's privates close (D-13): the Erie tile is placed first, the B&O marker stays.
            for company in list(self.companies.values()):
                if company.closed:
                    continue
                if company.sym == "ERIE" and not self.erie_placed():
                    self.place_erie_tile()
                self.close_company(company)

    # ------------------------------------------------------------------ game end
    def before_game_end(self, reason: str) -> None:
        if reason != "manually_ended":
            self.repay_debts()

    def repay_debts(self) -> None:
        """After the last operating round every company repays its debt; its president covers a shortfall
        from his cash, and what he cannot pay is deducted from his score (§9.6). No price moves."""
        for corp in [c for c in self.corporations.values() if c.debt and not c.closed]:
            paid = min(corp.cash, corp.debt)
            pay(corp, self.bank, paid, ev.Why.REPAYMENT)
            rest = corp.debt - paid
            corp.debt = 0
            player = corp.owner
            if rest and isinstance(player, Player) and not player.bankrupt:
                cash = min(player.cash, rest)
                pay(player, self.bank, cash, ev.Why.REPAYMENT)
                player.debt += rest - cash
                self.log(f"{player.name} pays {self.format_money(cash)} of {corp.sym}'s debt"
                         + (f"; {self.format_money(rest - cash)} is deducted from the score" if rest > cash else ""))
            self.log(f"{corp.sym} repays its debt")
