"""1822 The Railways of Great Britain: the title's hooks over the shared core (18xx.games' g_1822 is the
authority for every rule; /work/shared/rules/1822-reference.md gives the shape).

The bid boxes, the minors they float, the concessions that start majors and the privates are companies; a minor
is a corporation of kind ``minor`` whose one certificate is two shares. The stock round takes bids (steps.py) and
resolves them at its end (:meth:`G1822.resolve_bid_boxes`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from ...core import events as ev
from ...core import loans
from ...core.actions import Action
from ...core.entities import Company, Corporation, CorporationKind, Holder, Player, Share, Token, Train, pay
from ...core.errors import GameError, illegal, insufficient
from ...core.game import Game
from ...core.game_end import EndTiming, EndTrigger
from ...core.graph import company_network
from ...core.market import Cell, StockMarket
from ...core.routes import Route
from ...core.sequence import OPERATING, STOCK, Next, RoundPlan
from ...core.tiles import NODE_BASE, TokenKind
from ...core.track import legal_rotations

CHOICES = "choices"
PLUS = "plus_expansion"
PLUS_NO_REMOVALS = "plus_expansion_no_removals"
PLUS_SINGLE_STACK = "plus_expansion_single_stack"
TAX_HAVEN_MULTIPLE = "tax_haven_multiple"  # P16 buys a share a stock round with what its charter holds
OPTIONAL_RULES = (PLUS, PLUS_NO_REMOVALS, PLUS_SINGLE_STACK, TAX_HAVEN_MULTIPLE)
TAX_HAVEN = "P16"
LOCAL_TRAINS = ("L", "LP")
EXTRA_TRAINS = ("2P", "P+", "LP")  # outside the train limit, and no train for the must-own rule
PERMANENT_TRAINS = ("2P", "LP")
PULLMAN = "P+"
TRACK_PLAIN = ("7", "8", "9", "80", "81", "82", "83", "544", "545", "546", "60", "169")
TRACK_TOWN = ("3", "4", "58", "141", "142", "143", "144", "767", "768", "769", "X17")


class TaxHaven(Holder):
    """P16's off-shore charter: the shares its owner bought through it and the dividends they earned. Its
    certificates are nobody's holding, so they count for no directorship, holding limit or certificate limit,
    but they are sold (a company can be sold out with one there) and float a company."""

    def __init__(self) -> None:
        self.name = "the tax haven"
        self.cash = 0
        self.shares: list[Share] = []


class Market1822(StockMarket):
    """18xx.games' two-dimensional movement over a market aligned on the right: off the right end a payout goes
    up, or down and right where there is no cell above; off the left end (or a gap) a fall goes down."""

    def right(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.col + 1 >= len(self.rows[cur.row]):
            self.up(corp)
        else:
            self._go(corp, cur.row, cur.col + 1)

    def left(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.col > 0 and self.at(cur.row, cur.col - 1) is not None:
            self._go(corp, cur.row, cur.col - 1)
        else:
            self.down(corp)

    def down(self, corp: str) -> None:
        cur = self.location[corp]
        row = cur.row + 1 if cur.row + 1 < len(self.rows) else cur.row
        self._go(corp, row, cur.col)

    def up(self, corp: str) -> None:
        cur = self.location[corp]
        if cur.row > 0 and self.at(cur.row - 1, cur.col) is not None:
            self._go(corp, cur.row - 1, cur.col)
        else:
            self._go(corp, cur.row + 1, cur.col + 1)

    def _go(self, corp: str, row: int, col: int) -> None:
        cell = self.at(row, col)
        if cell is not None:
            self._move_to(corp, cell)


class G1822(Game):
    TITLE = "1822"
    # 2: P5's unused English Channel power holds the token step open (p5_holds_token_step); a destination station
    # sends a company's other station in that city back to its charter (remove_extra_tokens).
    # 3: P21's lays must cross an estuary crossing of the hex still unbuilt (crossing_required); a minor's station
    # leaving at its acquisition takes an added space with it (_remove_minor_station); minor 14, not yet started,
    # holds London's last unreserved space (token_blocked_by_reservation); 4: a company without a train must buy
    # one from the bank pool too when the bank has none (must_buy_train; 1822 reference §7, as 18xx.games).
    RULES_EDITION = 4
    DATA_PACKAGE = "engine.titles.g1822"
    SELL_AFTER_FIRST_SR = False  # sales wait for the company's first operating turn instead (can_sell_corp)
    # A stock round, then (when P9's owner may double their cash) a choices round, then the set of operating
    # rounds; the new player order (most cash first) is fixed before the operating rounds.
    ROUND_PLAN = RoundPlan(initial=STOCK, after={
        STOCK: Next(CHOICES),
        CHOICES: Next(OPERATING, priority_deal=True),
        OPERATING: Next(STOCK),
    })
    OPTIONAL_RULES = OPTIONAL_RULES
    TAX_HAVEN = TAX_HAVEN
    # The operating order is fixed when a round starts (18xx.games reorders only after emergency sales).
    dynamic_operating_order = False

    # ------------------------------------------------------------------ setup
    def in_game(self, entry: dict[str, Any]) -> bool:
        return not entry.get("plus") or self.plus

    @property
    def phase(self) -> dict[str, Any]:
        current: dict[str, Any] = self.phases[self.phase_index]
        remover = self.laying_private if hasattr(self, "laying_private") else None
        if remover is not None and self.track_power(remover).get("advanced"):
            # P11 lays only track of the colour that comes next, before its phase.
            order = ("yellow", "green", "brown", "gray")
            at = order.index(current["tiles"][-1])
            return {**current, "tiles": list(order[at + 1:at + 2])}
        return current

    @property
    def plus(self) -> bool:
        return PLUS in self.optional_rules()

    def optional_rules(self) -> list[str]:
        return [str(r) for r in self.options.get("optional_rules") or []]

    def setup(self) -> None:
        g = self.data()["game"]
        self.market = Market1822(g["market"])
        self.rules = g["rules"]
        self.bidding = g["bidding"]
        self.bid_tokens = int(self.bidding["tokens"][str(len(self.players))])
        self.nothing_sold = True
        self.double_cash_choice: Player | None = None
        self.phase_revenue_cash: dict[str, int] = {sym: 0 for sym in ("P15", "P20") if sym in self.companies}
        self.tax_haven = TaxHaven()
        self.exchange_tokens: dict[str, int] = {sym: int(n) for sym, n in self.rules["exchange_tokens"].items()}
        self.bidbox_minor_cache: list[str] = []
        self.bids: dict[str, list[tuple[Player, int]]] = {}
        self.history: dict[str, int] = {}  # operating turns each company has completed
        self.egr_choice: dict[str, str] = {}  # P8's choice: "token" (a free lay) or "discount"
        self.acquired_this_round: set[str] = set()
        self.track_left: dict[str, dict[str, int]] = {}
        self.laying_private: Company | None = None  # the private whose track power is laying, while it lays
        self.free_tokens_used: set[str] = set()  # majors that have placed their free station (SECR's Channel)
        self.selling: set[str] = set()  # certificates being sold, while their sale settles the presidency
        self.fully_capitalised: set[str] = set()  # majors that will receive ten times their par when they float
        self._setup_companies()
        for corp in self.corporations.values():
            if corp.data.get("destination"):
                corp.tokens.append(Token(corp.sym, 0, kind=TokenKind.DESTINATION))

    def _setup_companies(self) -> None:
        comps = self.rng.shuffled(list(self.companies.values()))
        minors = [c for c in comps if c.sym[0] == "M"]
        concessions = [c for c in comps if c.sym[0] == "C"]
        privates = [c for c in comps if c.sym[0] == "P"]
        for group, first in ((minors, self.bidding["start_minor"]), (concessions, self.bidding["start_concession"]),
                             (privates, self.bidding["start_private"])):
            head = next(c for c in group if c.sym == first)
            group.remove(head)
            group.insert(0, head)
        if self.plus and PLUS_NO_REMOVALS not in self.optional_rules():
            boxes = self.bidding["plus_boxes"]
            privates = [c for box in boxes for c in privates if c.sym in box]
            removed = [next(c for c in privates if c.sym in boxes[1] and c.sym != "P5")]
            removed += [c for c in privates if c.sym in boxes[2]][:2]
            for comp in removed:
                privates.remove(comp)
                self.log(f"{comp.name} has been removed from the game")
        self.companies = {c.sym: c for c in minors + concessions + privates}
        self.company_trains: dict[str, Train] = {}
        for comp in privates:
            train_id = comp.data.get("train")
            if train_id:
                train = self.all_trains[str(train_id)]
                self.depot.remove(train)
                train.reserved = True
                self.company_trains[comp.sym] = train
        for spec_id in ("2P-0", "2P-1", "5P-0", "P+-0", "P+-1", "LP-0"):
            spare = self.all_trains.get(spec_id)
            if spare is not None and spare in self.depot:
                self.depot.remove(spare)
                spare.reserved = True

    def initial_round(self) -> Any:
        return self.stock_round()

    def new_round(self, kind: str, number: int) -> Any:
        if kind == CHOICES:
            from .steps import ChoicesRound, DoubleCash
            return ChoicesRound(self, [DoubleCash])
        return super().new_round(kind, number)

    def stock_round(self) -> Any:
        from .operating import DiscardTrain1822
        from .steps import BidBoxStockRound, BidSellParShares
        return BidBoxStockRound(self, [DiscardTrain1822, BidSellParShares])

    def operating_round(self, number: int) -> Any:
        from .steps import operating_round
        return operating_round(self, number)

    # ------------------------------------------------------------------ bid boxes
    def bank_companies(self, prefix: str) -> list[Company]:
        bank = self.bank
        return [c for c in self.companies.values()
                if c.sym[0] == prefix and (c.owner is None or c.owner is bank) and not c.closed]

    def bidbox_minors(self) -> list[Company]:
        first = self.bank_companies("M")[: int(self.bidding["minor_boxes"])]
        return [c for c in first if c.sym in self.bidbox_minor_cache]

    def bidbox_concessions(self) -> list[Company]:
        return self.bank_companies("C")[: int(self.bidding["concession_boxes"])]

    def bidbox_privates(self) -> list[Company]:
        privates = self.bank_companies("P")
        if self.plus and PLUS_SINGLE_STACK not in self.optional_rules():
            out = []
            for box in self.bidding["plus_boxes"]:
                found = next((c for c in privates if c.sym in box), None)
                if found is not None:
                    out.append(found)
            return out
        return privates[: int(self.bidding["private_boxes"])]

    def bidbox_companies(self) -> list[Company]:
        return [*self.bidbox_minors(), *self.bidbox_concessions(), *self.bidbox_privates()]

    def standing_bids(self) -> dict[str, list[tuple[Any, int]]]:
        return dict(self.bids)

    def refill_minor_boxes(self) -> None:
        self.bidbox_minor_cache = [c.sym for c in self.bank_companies("M")[: int(self.bidding["minor_boxes"])]]

    def setup_bidboxes(self) -> None:
        self.refill_minor_boxes()
        for comp in self.bidbox_companies():
            comp.owner = self.bank
        self.double_cash_choice = None

    def min_bid(self, company: Company) -> int:
        bids = self.bids.get(company.sym)
        if bids:
            return max(p for _, p in bids) + self.MIN_BID_INCREMENT
        return company.value if company.sym[0] in "CM" else 0

    def highest_bid(self, company: Company) -> tuple[Player, int] | None:
        bids = self.bids.get(company.sym)
        if not bids:
            return None
        best = bids[0]
        for bid in bids[1:]:
            if bid[1] > best[1]:
                best = bid
        return best

    def committed_cash(self, player: Player) -> int:
        """What the player's winning bids hold back from their cash."""
        return sum(price for sym in self.bids
                   if (best := self.highest_bid(self.companies[sym])) is not None
                   for who, price in [best] if who is player)

    def winning_bids(self, player: Player) -> int:
        return sum(1 for sym in self.bids if (best := self.highest_bid(self.companies[sym])) is not None
                   and best[0] is player)

    def bids_placed(self, player: Player) -> int:
        return sum(1 for bids in self.bids.values() if any(who is player for who, _ in bids))

    def resolve_bid_boxes(self) -> None:
        """The end of a stock round: winners take concessions and privates, minors float in order of their bid,
        and unsold minors export L trains (an unsold first box closes its minor and exports the next train)."""
        float_minors: list[tuple[tuple[Player, int], int, Company]] = []
        remove_l = 0
        remove_minor: Company | None = None
        minors = self.bidbox_minors()
        for index, minor in enumerate(minors):
            bid = self.highest_bid(minor)
            if bid is not None:
                float_minors.append((bid, index, minor))
            else:
                minor.owner = None
                remove_l += 1
                if index == 0:
                    remove_minor = minor
        for comp in [*self.bidbox_concessions(), *self.bidbox_privates()]:
            bid = self.highest_bid(comp)
            if bid is not None:
                self._win_company(comp, *bid)
            else:
                comp.owner = None
        count = len(minors)
        for bid, _, minor in sorted(float_minors, key=lambda m: (m[0][1], count - m[1]), reverse=True):
            self.float_minor(minor, *bid)
        upcoming = self.available_depot_trains()
        if remove_l and upcoming and upcoming[0].sym == "L":
            self._export_l_trains(remove_l)
        if remove_minor is not None:
            train = self._export_next_train()
            self.log(f"No bids on minor {remove_minor.sym}, it will close and a {train.name} train is removed")
            corp = self.corporations[remove_minor.sym[1:]]
            corp.closed = True
            remove_minor.closed = True
            del self.companies[remove_minor.sym]
        self.refill_minor_boxes()
        self.bids = {}
        for p in self.players:
            if p.debt:
                interest = (p.debt + 1) // 2  # 50% interest on player loans, rounded up
                p.debt += interest
                ev.emit(ev.LoanChanged(p.party, interest, "interest"))

    def _win_company(self, comp: Company, player: Player, price: int) -> None:
        comp.owner = player
        player.companies.append(comp)
        if price:
            pay(player, self.bank, price, ev.Why.AUCTION)
        ev.emit(ev.PrivateMoved(comp.sym, ev.BANK, player.party, price))
        self.log(f"{player.name} wins the bid {comp.name} for {self.format_money(price)}")
        ev.emit(ev.AuctionWon(comp.sym, player.party, price))

    def minor_par_cell(self, price: int) -> Cell:
        pars = sorted(self.market.par_cells(), key=lambda c: (c.price, c.col, c.row), reverse=True)
        top = pars[0].price
        target = int(self.bidding["minor_start_par"]) if self.phase["name"] == "1" else price // 2
        target = min(target, top)
        return next(c for c in pars if c.price <= target)

    def float_minor(self, comp: Company, player: Player, price: int) -> None:
        minor = self.corporations[comp.sym[1:]]
        cell = self.minor_par_cell(price)
        self.set_par(minor, cell)
        presidency = cell.price * 2
        share = minor.shares[0]
        self.transfer_share(share, player)
        minor.owner = player
        pay(player, self.bank, price, ev.Why.AUCTION)
        treasury = presidency if int(self.phase["name"]) < 3 else price
        self.bank.spend(treasury, minor, ev.Why.CAPITAL)
        minor.floated = True
        ev.emit(ev.CompanyFloated(minor.sym))
        del self.companies[comp.sym]
        comp.owner = None
        self.log(f"{player.name} wins minor {minor.sym} for {self.format_money(price)}; it floats at "
                 f"{self.format_money(cell.price)} with {self.format_money(treasury)}")
        ev.emit(ev.AuctionWon(comp.sym, player.party, price))

    def _export_l_trains(self, count: int) -> None:
        removed = 0
        while count and self.depot and self.available_depot_trains()[0].sym == "L":
            self._remove_depot_train(self.available_depot_trains()[0])
            count -= 1
            removed += 1
        self.log(f"{removed} L trains have been removed")

    def _export_next_train(self) -> Train:
        """The next train leaves the game as if bought: it may start a phase, rust trains and fire events."""
        train = self.available_depot_trains()[0]
        self._remove_depot_train(train)
        self.phase_from_train(train)
        self._rust(train)
        for event in list(train.events):
            self.run_event(event, None, train)
        train.events.clear()
        return train

    def _remove_depot_train(self, train: Train) -> None:
        self.depot.remove(train)
        self._replenish_unlimited(train)
        train.owner = None
        ev.emit(ev.TrainMoved(train.id, train.name, ev.DEPOT, ev.NOBODY, ev.TrainHow.EXPORTED))

    def on_new_train(self, corp: Corporation, train: Train) -> None:
        if train.name == train.sym or train.name == "2":
            super().on_new_train(corp, train)
            return
        # A 7 bought as an E train starts phase 7 and rusts as a 7 (18xx.games goes by the train's type); only an
        # L bought as a 2 counts as the variant, for phase 2.
        name, train.name = train.name, train.sym
        try:
            super().on_new_train(corp, train)
        finally:
            train.name = name

    def finish_stock_round(self) -> None:
        if self.nothing_sold:
            # Nothing bought or bid on in the first stock round: 18xx.games ends the game ("dnf").
            self.end_game("dnf")
            return
        self.resolve_bid_boxes()
        for corp in self.operating_order():
            if corp.kind is not CorporationKind.MAJOR:
                continue
            if sum(h.percent_of(corp.sym) for h in (*self.players, self.tax_haven)) == 100:
                self.market.up(corp.sym)

    def remembers_routes(self) -> bool:
        return True  # see Route1822

    def game_end_timing(self) -> EndTrigger | None:
        """A bank broken during an operating round ends the game after the set; broken at another time, after
        the next operating round (18xx.games)."""
        trigger = super().game_end_timing()
        if trigger is not None and trigger.reason == "bank" and self.end_latch.first is None \
                and self.round.kind != "operating":
            return EndTrigger("bank", EndTiming.CURRENT_OR)
        return trigger

    def reorder_players(self) -> None:
        def cash(p: Player) -> int:
            return p.cash * 2 if p is self.double_cash_choice else p.cash
        self.players = sorted(self.players, key=cash, reverse=True)
        self.double_cash_choice = None
        self.log("-- New player order: " + ", ".join(p.name for p in self.players))

    # ------------------------------------------------------------------ companies and corporations
    def operating_order(self) -> list[Corporation]:
        floated = [c for c in self.corporations.values() if c.floated and not c.closed]
        ordered = sorted(floated, key=lambda c: (*self.market.order_key(c.sym), c.sym))
        minors = [c for c in ordered if c.kind is CorporationKind.MINOR]
        return minors + [c for c in ordered if c.kind is not CorporationKind.MINOR]

    def train_limit(self, corp: Corporation) -> int:
        return self._limit_in(self.phase, corp)

    @staticmethod
    def _limit_in(phase: dict[str, Any], corp: Corporation) -> int:
        return int(phase["minor_train_limit" if corp.kind is CorporationKind.MINOR else "train_limit"])

    def num_certs(self, player: Player) -> float:
        total = super().num_certs(player)
        if any(c.sym == TAX_HAVEN for c in player.companies):
            total -= 1  # P16 does not count against the certificate limit
        return total

    def _share_worth(self, shares: list[Share]) -> int:
        worth = 0
        for s in shares:
            cell = self.market.location.get(s.corp)
            if cell is not None:
                worth += cell.price * s.percent // self.corporations[s.corp].share_percent
        return worth

    def player_value(self, player: Player) -> int:
        """Cash less loans, shares at their price, concessions, and for P16's owner what the tax haven holds."""
        value = player.cash - player.debt + self._share_worth(player.shares)
        value += sum(c.value for c in player.companies if not c.closed and c.sym[0] == "C")
        if self.tax_haven_owner() is player:
            value += self.tax_haven_value()
        return value

    def private_worth(self, player: Player) -> int:
        """Only concessions count at their value (the tax haven's certificates count as shares)."""
        return sum(c.value for c in player.companies if not c.closed and c.sym[0] == "C")

    def sell_shares(self, seller: Player, shares: list[Share], percent: int | None = None) -> int:
        self.selling = {s.id for s in shares}  # which certificates the presidency check sees changing hands
        try:
            return int(super().sell_shares(seller, shares, percent))
        finally:
            self.selling = set()

    def check_presidency(self, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
        """As the core, with 18xx.games' handover: the presidency passes to the largest holder (the first after
        the president among equals) who holds at least the president's certificate's percent, and the
        certificate changes hands only when it was just sold or the outgoing president holds it. A seller who
        still holds the most (shares can change hands without a presidency check, as in a minor's acquisition)
        becomes president without it, as does anybody while it sits elsewhere (a company that redeemed it)."""
        pres = next((s for h in self._holders() for s in h.shares if s.corp == corp.sym and s.president), None)
        if pres is None or previous is None or previous not in self.players:
            super().check_presidency(corp, previous, seller)
            return
        holdings = {p: p.percent_of(corp.sym) for p in self.players}
        top = max(holdings.values())
        if holdings[previous] == top or top < pres.percent:
            return
        start = self.players.index(previous) + 1
        new = next(p for p in self.players[start:] + self.players[:start] if holdings[p] == top)
        if new is seller or (pres.id not in self.selling and pres.owner is not previous):
            corp.owner = new
            self.log(f"{new.name} becomes the president of {corp.sym}")
            return
        super().check_presidency(corp, previous, seller if seller is previous else None)

    def splits_anothers_directors_certificate(self, action: Action) -> bool:
        """Whether ``action`` sells part of a director's certificate its seller holds without directing the
        company. 18xx.games leaves a certificate so (above: a seller who stays the largest holder after a
        minor's owner was paid in shares becomes director without it); selling half of it, 18xx.games moves the
        whole certificate to the market and pays for one share, where we give the other share back from the
        market as for any director's certificate sold in part (docs/conformance.md)."""
        if action.get("type") != "sell_shares":
            return False
        shares = [self.share_by_id(str(i)) for i in action.get("shares") or []]
        pres = next((s for s in shares if s.president), None)
        if pres is None or action.get("percent") is None:
            return False
        corp = self.corporation(pres.corp)
        return pres.owner is not corp.owner and int(action["percent"]) < sum(s.percent for s in shares)

    # ------------------------------------------------------------------ P16, the tax haven
    def extra_holders(self, corp: Corporation | None = None) -> list[Holder]:
        return [self.tax_haven]

    def private_card(self, sym: str) -> ev.Party:
        """The charter of a private holding money until it closes or a company acquires it (P15, P20)."""
        return ev.Party(ev.PartyKind.HOLDER, f"{sym}'s charter")

    def cash_aside(self) -> dict[ev.Party, int]:
        return {self.private_card(sym): cash for sym, cash in self.phase_revenue_cash.items()}

    def tax_haven_company(self) -> Company | None:
        comp = self.companies.get(TAX_HAVEN)
        return comp if comp is not None and not comp.closed else None

    def tax_haven_owner(self) -> Player | None:
        comp = self.tax_haven_company()
        return comp.owner if comp is not None and isinstance(comp.owner, Player) else None

    def tax_haven_value(self) -> int:
        """The tax haven's cash and its shares at their price: its owner's at the end of the game."""
        return self.tax_haven.cash + self._share_worth(self.tax_haven.shares)

    def company_value(self, company: Company) -> int:
        """What a private is worth in the status: P16 is worth what its tax haven holds."""
        return self.tax_haven_value() if company.sym == TAX_HAVEN else int(company.value)

    def tax_haven_multiple(self) -> bool:
        return TAX_HAVEN_MULTIPLE in self.optional_rules()

    def tax_haven_spender(self) -> Holder | None:
        """Who pays for the tax haven's share: its owner; under the variant, the tax haven itself once it holds
        something."""
        owner = self.tax_haven_owner()
        if owner is not None and self.tax_haven_multiple() and self.tax_haven_value() > 0:
            return self.tax_haven
        return owner

    def tax_haven_share(self, choice: str) -> Share | None:
        """The certificate a choice ``<major>_ipo`` or ``<major>_market`` buys: the first of the company's own or of
        the market's, or None for a choice naming neither."""
        sym, _, source = choice.rpartition("_")
        corp = self.corporations.get(sym)
        if corp is None or corp.kind is not CorporationKind.MAJOR or source not in ("ipo", "market"):
            return None
        holder: Holder = corp if source == "ipo" else self.pool
        return next((s for s in holder.shares_of(sym) if not s.president), None)

    def tax_haven_choices(self, available: int) -> list[str]:
        """What the tax haven may buy now with ``available`` cash of its spender: one share of a major with a
        price that it holds no share of, from the company or the market, at the share price; under the
        variant one such share a stock round, otherwise one in the game."""
        if self.tax_haven_owner() is None:
            return []
        if self.tax_haven_value() > 0 and not self.tax_haven_multiple():
            return []
        out = []
        for corp in self.corporations.values():
            cell = self.market.location.get(corp.sym)
            if corp.kind is not CorporationKind.MAJOR or corp.closed or cell is None or cell.price <= 0:
                continue
            if self.tax_haven.percent_of(corp.sym) or cell.price > available:
                continue
            for source in ("ipo", "market"):
                if self.tax_haven_share(f"{corp.sym}_{source}") is not None:
                    out.append(f"{corp.sym}_{source}")
        return out

    def sale_ties_tax_haven_for_presidency(self, player: Player, shares: list[Share], percent: int) -> bool:
        """Whether a sale would hand a presidency on while the tax haven ties for the largest holding.

        18xx.games counts the tax haven among the holders a presidency may pass to and then cannot process the
        sale (its seat is nowhere at the table), so the move does not exist there. It can happen only to a
        company whose president's certificate is one share (LNWR)."""
        sym = shares[0].corp
        haven = self.tax_haven.percent_of(sym)
        if not haven or self.corporations[sym].owner is not player:
            return False
        pres = next((s.percent for h in self._holders() for s in h.shares if s.corp == sym and s.president), 0)
        top = max([haven, *(p.percent_of(sym) for p in self.players if p is not player)])
        return haven == top >= pres and player.percent_of(sym) - percent < top

    def tax_haven_buy(self, choice: str) -> None:
        """The tax haven buys the certificate ``choice`` names: the company is paid for one of its own (even
        fully capitalised, whose float then returns the money), the bank for one from the market."""
        share = self.tax_haven_share(choice)
        spender = self.tax_haven_spender()
        if share is None or spender is None:
            raise illegal(f"the tax haven cannot buy {choice}")
        corp = self.corporation(share.corp)
        price = self.market.location[corp.sym].price
        receiver: Holder = corp if share.owner is corp else self.bank
        pay(spender, receiver, price, ev.Why.SHARES)
        self.transfer_share(share, self.tax_haven)
        owner = self.tax_haven_owner()
        where = "its treasury" if receiver is corp else "the market"
        payer = "the tax haven" if spender is self.tax_haven else spender.name
        self.log(f"{payer} pays {self.format_money(price)} and the tax haven ({owner.name if owner else ''}) "
                 f"gains a share of {corp.sym} from {where}")
        self._check_float(corp)

    def payout_companies(self) -> None:
        self.acquired_this_round = set()  # a new operating round begins
        phase = int(self.phase["name"])
        for sym in self.phase_revenue_cash:
            comp = self.companies.get(sym)
            if comp is None or comp.closed or comp.owner is None:
                continue
            comp.revenue = phase * (10 if sym == "P15" else 5)
            self.bank.withdraw(comp.revenue)
            self.phase_revenue_cash[sym] += comp.revenue
            ev.emit(ev.MoneyMoved(ev.BANK, self.private_card(sym), comp.revenue, ev.Why.PRIVATE_REVENUE))
        p9 = self.companies.get("P9")
        if p9 is not None and isinstance(p9.owner, Corporation):
            p9.revenue = self.rules["double_cash_revenue"][phase]
        for comp in self.companies.values():
            if comp.closed or comp.owner is None or comp.owner is self.bank or comp.revenue <= 0:
                continue
            self.bank.spend(comp.revenue, comp.owner, ev.Why.PRIVATE_REVENUE)
            self.log(f"{comp.owner.name} collects {self.format_money(comp.revenue)} from {comp.sym}")

    def event_close_concessions(self) -> None:
        self.log("-- Event: Concessions close --")
        for comp in self.companies.values():
            if comp.sym[0] == "C" and not comp.closed:
                self.close_company(comp)
        for corp in self.corporations.values():
            if not corp.floated and corp.kind is CorporationKind.MAJOR:
                corp.float_percent = 50
                corp.data = {**corp.data, "no_concession": True}

    def event_full_capitalisation(self) -> None:
        self.log("-- Event: Major companies receive full capitalisation when floated --")
        self.fully_capitalised |= {c.sym for c in self.corporations.values()
                                   if c.kind is CorporationKind.MAJOR and not c.floated}

    def event_phase_revenue(self) -> None:
        self.log("-- Event: Phase revenue companies close with money returned to the bank --")
        for sym in list(self.phase_revenue_cash):
            comp = self.companies.get(sym)
            if comp is None or comp.closed:
                continue
            returned = self.phase_revenue_cash.pop(sym)
            self.bank.cash += returned
            ev.emit(ev.MoneyMoved(self.private_card(sym), ev.BANK, returned, ev.Why.CLOSING))
            self.close_company(comp)

    # ------------------------------------------------------------------ privates
    def purchasable_companies(self, corp: Corporation) -> list[Company]:
        phase = int(self.phase["name"])
        kind = corp.kind.value
        return [c for c in self.companies.values()
                if c.sym[0] == "P" and not c.closed and isinstance(c.owner, Player)
                and kind in c.data.get("acquire", ()) and phase >= int(c.data.get("acquire_phase", 99))]

    def acquire_private(self, corp: Corporation, company: Company) -> None:
        owner = company.owner
        if isinstance(owner, Player) and company in owner.companies:
            owner.companies.remove(company)
        company.owner = corp
        corp.companies.append(company)
        self.log(f"{corp.sym} acquires {company.name} from {getattr(owner, 'name', 'the bank')}")
        ev.emit(ev.PrivateMoved(company.sym, owner.party if owner is not None else ev.BANK, corp.party))
        train = self.company_trains.pop(company.sym, None)
        if train is not None:
            train.reserved = False
            train.owner = corp
            corp.trains.append(train)
            ev.emit(ev.TrainMoved(train.id, train.name, ev.DEPOT, corp.party, ev.TrainHow.HANDED))
            self.log(f"{corp.sym} gains a {train.name} train")
            self.close_company(company)
        elif company.sym in self.phase_revenue_cash:
            gained = self.phase_revenue_cash.pop(company.sym)
            corp.cash += gained
            ev.emit(ev.MoneyMoved(self.private_card(company.sym), corp.party, gained, ev.Why.PRIVATE))
            self.log(f"{corp.sym} gains {self.format_money(gained)}")
            self.close_company(company)
        elif company.sym == "P9":
            company.revenue = self.rules["double_cash_revenue"][int(self.phase["name"])]
        elif company.sym in ("P5", "P6", "P7", "P8", "P10", "P17", "P18", "P21"):
            company.revenue = 0

    # ------------------------------------------------------------------ privates' track powers
    def track_power(self, company: Company) -> dict[str, Any]:
        power: dict[str, Any] = company.data.get("track") or {}
        return power

    def track_uses(self, company: Company) -> dict[str, int]:
        """Uses left of a private's track power: count, and P12's lays and upgrade."""
        power = self.track_power(company)
        left = self.track_left.get(company.sym)
        if left is None:
            left = self.track_left[company.sym] = {
                "count": int(power.get("count", power.get("lay_count", 0))),
                "lay": int(power.get("lay_count", 0)), "upgrade": int(power.get("upgrade_count", 0))}
        return left

    def track_power_usable(self, company: Any, corp: Any) -> bool:
        if not isinstance(company, Company) or company.closed or not self.track_power(company):
            return False
        if self.egr_choice.get(company.sym) == "discount":
            return False
        if company.owner is not corp or not isinstance(corp, Corporation):
            return False
        return self.track_uses(company)["count"] > 0

    def track_powers_block(self, corp: Corporation) -> bool:
        """Privates whose track power keeps the company's track step open until it passes."""
        # Only tile-lay powers keep it open in 18xx.games, not P5's `teleport`.
        return any(self.track_power_usable(c, corp) and not self.track_power(c).get("consume_tile_lay")
                   and not self.track_power(c).get("teleport") for c in corp.companies)

    def track_power_allows(self, company: Company, corp: Corporation, power: dict[str, Any],
                           action: dict[str, Any]) -> bool:
        hx = self.board.hexes.get(str(action.get("hex")))
        if hx is None:
            return False
        hexes = power.get("hexes")
        if hexes and hx.id not in hexes:
            return False
        name = str(action.get("tile", "")).rsplit("-", 1)[0]
        tiles = power.get("tiles")
        if tiles and name not in tiles:
            return False
        uses = self.track_uses(company)
        upgrade = hx.tile.colour != "white"
        if power.get("lay_count") is not None and "lay_count" in power:
            if upgrade and uses["upgrade"] <= 0:
                return False
            if not upgrade and uses["lay"] <= 0:
                return False
        if power.get("estuary") or (power.get("crossing_required") and self.rules_edition >= 3):
            # P10 lays across an estuary crossing of the hex (and pays £40 less for it); from edition 3 P21's
            # bridge lays must too, over a crossing not yet built (18xx.games).
            tile = self.tile_supply.get(str(action.get("tile")))
            if tile is None:
                return False
            rot = int(action.get("rotation", 0))
            exits = {(e + rot) % 6 for e in tile.tdef.edges()}
            if not any(b.kind == "water" and e in exits for e, b in hx.borders.items()):
                return False
        if company.sym == "P8" and (hx.tile is not hx.original or hx.terrain_kind not in ("hill", "mountain")):
            return False  # the free lay is on a hill or mountain hex
        if power.get("advanced"):
            # P11 upgrades plain or town track of the phase's newest colour (a minor's only from yellow).
            newest = self.phases[self.phase_index]["tiles"][-1]
            if hx.tile.name not in TRACK_PLAIN + TRACK_TOWN or hx.tile.colour != newest:
                return False
            if corp.kind is CorporationKind.MINOR and hx.tile.colour != "yellow":
                return False
        if power.get("teleport"):
            return self.teleport_open(company)
        return hx.id in self.network(corp).hex_edges

    def teleport_open(self, company: Company) -> bool:
        """P5 (LC&DR) may upgrade the English Channel, reached or not, to make room for its station when every
        space there is taken and the upgrade adds one: green to brown once brown tiles are out, brown to grey once
        grey ones are (18xx.games' `teleport`; the tile keeps rotation 0). Not for a company already stationed
        there, which could place nothing in the space made (18xx.games offers the lay, then cannot go on)."""
        corp = company.owner
        if not isinstance(corp, Corporation) or self.exchange_tokens.get(corp.sym, 0) <= 0:
            return False
        hx = self.board.hexes[str(self.rules["english_channel"])]
        if any(t.used and t.hex == hx.id for t in corp.tokens):
            return False
        if any(owner is None for slots in hx.tile.tokens.values() for owner in slots):
            return False
        newest = self.phases[self.phase_index]["tiles"][-1]
        return (hx.tile.colour == "green" and newest in ("brown", "gray")) \
            or (hx.tile.colour == "brown" and newest == "gray")

    def teleport_lays(self, company: Company) -> list[dict[str, Any]]:
        """P5's English Channel upgrades the company can pay for now (hex, tile, rotation 0)."""
        corp = company.owner
        if not isinstance(corp, Corporation) or not self.teleport_open(company):
            return []
        hx = self.board.hexes[str(self.rules["english_channel"])]
        out = []
        for name in self.track_power(company).get("tiles", ()):
            tile = next((t for t in self.tile_supply.values() if t.name == name), None)
            if tile is None or tile.colour not in self.phase["tiles"]:
                continue
            if 0 not in self.tile_rotations(corp, hx, tile.tdef, None):
                continue
            if self.upgrade_cost(corp, hx, tile) > corp.cash:
                continue
            out.append({"hex": hx.id, "tile": tile.id, "rotation": 0})
        return out

    def use_track_power(self, company: Company, corp: Corporation, upgrade: bool) -> None:
        uses = self.track_uses(company)
        power = self.track_power(company)
        if power.get("teleport"):
            uses["count"] = 0  # P5 stays open: its station power is still to be used
            return
        if "lay_count" in power:
            if upgrade:
                uses["lay"] = 0
                uses["upgrade"] -= 1
                if uses["upgrade"] <= 0:
                    uses["count"] = 0
            else:
                uses["upgrade"] = 0
                uses["lay"] -= 1
                if uses["lay"] <= 0:
                    uses["count"] = 0
            if corp.kind is CorporationKind.MINOR:
                uses["count"] = 0
        else:
            uses["count"] -= 1
        if uses["count"] <= 0:
            self.close_company(company)

    def token_choices(self, company: Company) -> list[str]:
        """P5 moves an exchange token to the charter; P18 moves one either way (each then closes)."""
        corp = company.owner
        if company.closed or not isinstance(corp, Corporation):
            return []
        left = self.exchange_tokens.get(corp.sym, 0)
        if company.sym == "P5":
            return ["exchange"] if left > 0 else []
        if company.sym == "P18":
            out = ["exchange"] if left > 0 else []
            if corp.unused_tokens() and left < int(self.rules["exchange_tokens"].get(corp.sym, 0)):
                out.append("available")
            return out
        return []

    def make_token_choice(self, company: Company, choice: str) -> None:
        corp = company.owner
        assert isinstance(corp, Corporation)
        if choice == "exchange":
            self._move_exchange_token(corp)
            self.log(f"{corp.sym} moves an exchange token to its available tokens")
        else:
            token = corp.unused_tokens()[0]
            corp.tokens.remove(token)
            self.exchange_tokens[corp.sym] = self.exchange_tokens.get(corp.sym, 0) + 1
            self.log(f"{corp.sym} moves an available token to its exchange tokens")
        self.close_company(company)

    def company_choices(self, company: Company, time: str) -> list[str]:
        """The choose_ability choices of a private at a step of its company's turn (``token``, ``track`` or
        ``issue``): P5's and P18's token moves, P17's card moves."""
        if company.sym == "P17":
            return self.move_card_choices(company)
        if (company.sym == "P18" and time in ("token", "track")) or (company.sym == "P5" and time == "token"):
            return self.token_choices(company)
        return []

    def make_company_choice(self, company: Company, choice: str, time: str) -> None:
        if choice not in self.company_choices(company, time):
            raise illegal("that choice is not available now")
        if company.sym == "P17":
            self.move_card(company, choice)
        else:
            self.make_token_choice(company, choice)

    def move_card_choices(self, company: Company) -> list[str]:
        """P17 moves a minor, concession or private of the bank's stacks (not one in a bid box) to the top of
        its stack, under the bid boxes, or to the bottom: choices ``<sym>_top`` and ``<sym>_bottom``."""
        if company.sym != "P17" or company.closed or not isinstance(company.owner, Corporation):
            return []
        out = []
        for prefix, boxed in (("M", self.bidbox_minors()), ("C", self.bidbox_concessions()),
                              ("P", self.bidbox_privates())):
            for comp in self.bank_companies(prefix):
                if comp not in boxed:
                    out += [f"{comp.sym}_top", f"{comp.sym}_bottom"] if boxed else [f"{comp.sym}_bottom"]
        return out

    def move_card(self, company: Company, choice: str) -> None:
        if choice not in self.move_card_choices(company):
            raise illegal(f"{company.sym} cannot make the move {choice}")
        sym, where = choice.rsplit("_", 1)
        moved = self.companies[sym]
        order = [c for c in self.companies.values() if c is not moved]
        if where == "top":
            boxed = {"M": self.bidbox_minors, "C": self.bidbox_concessions}.get(sym[0], self.bidbox_privates)()
            order.insert(order.index(boxed[-1]) + 1, moved)
        else:
            order.append(moved)
        self.companies = {c.sym: c for c in order}
        self.log(f"{self.describe(company.owner)} moves {moved.name} to the {where} of its stack")
        self.close_company(company)

    # ------------------------------------------------------------------ majors
    def concession_of(self, corp: Corporation) -> Company | None:
        """The concession that starts ``corp`` (until concessions close in phase 5)."""
        if corp.data.get("no_concession"):
            return None
        return self.par_exchange(corp)

    def can_par(self, corp: Corporation, player: Player) -> bool:
        if corp.kind is not CorporationKind.MAJOR or corp.ipoed or corp.closed:
            return False
        status = self.phase.get("status", [])
        if "can_convert_concessions" not in status and "can_par" not in status:
            return False
        concession = self.concession_of(corp)
        return concession is None or (not concession.closed and concession.owner is player)

    def start_major(self, player: Player, corp: Corporation, cell: Cell, cost: int) -> None:
        """The director's certificate for ``cost`` (a concession counts towards it; the bank adds its value)."""
        concession = self.concession_of(corp)
        self.set_par(corp, cell)
        pres = corp.shares[0]
        self.buy_shares(player, [pres], cost, receiver=corp)
        if concession is not None:
            full = cell.price * pres.percent // corp.share_percent
            money = concession.value if full - concession.value >= 0 else cell.price
            self.bank.spend(money, corp, ev.Why.CAPITAL)
            self.close_company(concession)
        self.log(f"{player.name} starts {corp.sym} at {self.format_money(cell.price)}")

    def share_payee(self, corp: Corporation, receiver: Holder | None) -> Holder | None:
        if corp.sym in self.fully_capitalised and (receiver is None or receiver is corp):
            return self.bank  # the company is paid in full when it floats
        return receiver

    def float_corporation(self, corp: Corporation) -> None:
        if "full_capitalisation" in self.phase.get("status", []) and corp.kind is CorporationKind.MAJOR:
            # What the shares sold so far paid goes back to the bank, and the unsold shares go to the market.
            if corp.cash > 0:
                pay(corp, self.bank, corp.cash, ev.Why.CAPITAL)
            for share in list(corp.shares):
                self.transfer_share(share, self.pool)
            self.log(f"{corp.sym}'s remaining shares are transferred to the market")
        corp.floated = True
        ev.emit(ev.CompanyFloated(corp.sym))
        self.log(f"{corp.sym} floats")
        if corp.sym in self.fully_capitalised:
            self.fully_capitalised.discard(corp.sym)
            capital = int(corp.par_price or 0) * (100 // corp.share_percent)
            self.bank.spend(capital, corp, ev.Why.CAPITAL)
            self.log(f"{corp.sym} receives {self.format_money(capital)}")

    def destination_token(self, corp: Corporation) -> Token | None:
        return next((t for t in corp.tokens if t.kind is TokenKind.DESTINATION and not t.used), None)

    def destination_connected(self, corp: Corporation) -> bool:
        dest = corp.data.get("destination")
        if not dest or not corp.tokens[0].used:
            return False
        hx = self.board.hexes[dest]
        home = corp.tokens[0]
        if home.hex is None or home.node is None:
            return False
        # 18xx.games asks for track between the destination and the home station itself, not any station.
        nodes = company_network(self.board, corp.sym, starts=frozenset({(home.hex, home.node)})).nodes
        return any((dest, n) in nodes for n in hx.tile.tokens)

    def place_destination_token(self, corp: Corporation) -> None:
        token = self.destination_token(corp)
        if token is None:
            return
        hx = self.board.hexes[corp.data["destination"]]
        node = next(iter(hx.tile.tokens))
        slots = hx.tile.tokens[node]
        slot = self.free_slot(hx, node, corp.sym)
        if slot is None:
            slots.append(None)
            hx.tile.kinds[node].append(TokenKind.NORMAL)
            slot = len(slots) - 1
        ev.emit(ev.StationChanged(hx.id, node, slot, slots[slot], corp.sym, TokenKind.DESTINATION.value))
        slots[slot] = corp.sym
        hx.tile.kinds[node][slot] = TokenKind.DESTINATION
        token.used, token.hex, token.node, token.slot = True, hx.id, node, slot
        self.board_changed()
        self.log(f"{corp.sym} places its destination token on {hx.id}")

    def remove_extra_tokens(self, hx: Any) -> None:
        """Edition 2, as 18xx.games: after a destination station, a company with more than one station in a city
        of the hex gets the latest placed of its other stations back on its charter (never its home), at the
        usual price; the extra space the destination station made is then given up."""
        if self.rules_edition < 2:
            return
        returned = False
        for node, slots in hx.tile.tokens.items():
            kinds = hx.tile.kinds[node]
            counts: dict[str, int] = {}
            for owner in slots:
                if owner is not None:
                    counts[owner] = counts.get(owner, 0) + 1
            extra = False
            for sym, count in counts.items():
                corp = self.corporations.get(sym)
                if count < 2 or corp is None:
                    continue
                extra = True
                mine = [t for t in corp.tokens if t.used and t.hex == hx.id and t.node == node
                        and t.kind is not TokenKind.DESTINATION]
                for token in mine[len(mine) - min(count - 1, len(mine)):][::-1]:
                    kinds[token.slot] = TokenKind.NORMAL
                    self._remove_station(corp, token)
                    token.price = int(self.rules["token_price"])
                    self.log(f"Extra token for {corp.sym} is returned to their available tokens")
            if extra:
                self._drop_extra_space(hx, node)
                returned = True
        if returned:
            self.board_changed()  # place_destination_token has already said so when nothing came back

    def _stations_in_city(self, hx: Any, node: int) -> list[Token]:
        """The placed tokens of every company in one city of ``hx`` (their ``slot`` follows the city's list)."""
        return [t for c in self.corporations.values() for t in c.tokens
                if t.used and t.hex == hx.id and t.node == node]

    def _drop_extra_space(self, hx: Any, node: int) -> None:
        slots, kinds = hx.tile.tokens[node], hx.tile.kinds[node]
        if len(slots) <= hx.tile.tdef.nodes[node].slots or None not in slots:
            return
        empty = slots.index(None)
        if empty == len(slots) - 1:
            return  # the empty space is the extra one itself (18xx.games leaves it then)
        owner, kind = slots.pop(), kinds.pop()
        slots[empty], kinds[empty] = owner, kind
        for t in self._stations_in_city(hx, node):
            if t.slot == len(slots):
                t.slot = empty

    def after_home_token(self, corp: Corporation) -> None:
        if corp.sym == "LNWR":
            self.place_destination_token(corp)

    # ------------------------------------------------------------------ operating
    def tile_lays_for(self, corp: Corporation) -> list[dict[str, Any]]:
        if corp.kind is CorporationKind.MAJOR and int(self.phase["name"]) >= 3:
            return [{"lay": True, "upgrade": True}, {"lay": True, "upgrade": False, "not_if_upgraded": True}]
        return [{"lay": True, "upgrade": True}]

    def upgrade_cost(self, corp: Corporation, hx: Any, tile: Any) -> int:
        cost: int = super().upgrade_cost(corp, hx, tile)
        if not cost or hx.tile is not hx.original:
            return cost
        for comp in corp.companies:
            if comp.closed or self.egr_choice.get(comp.sym) == "token":
                continue
            for discount in comp.data.get("discounts", ()):
                if discount.get("terrain") == hx.terrain_kind or hx.id in discount.get("hexes", ()):
                    cost -= int(discount["amount"])
        return max(cost, 0)

    def lay_crossings(self, corp: Corporation, hx: Any, tile: Any) -> tuple[int, int]:
        """An estuary crossing is paid by the tile that points across its own hex's crossing (18xx.games)."""
        exits = tile.exits()
        total = count = 0
        for edge, border in list(hx.borders.items()):
            if border.kind != "water" or edge not in exits:
                continue
            total += border.cost
            count += 1
            del hx.borders[edge]
            other_id = hx.neighbors.get(edge)
            if other_id is not None:
                other = self.board.hexes[other_id]
                if (edge + 3) % 6 in other.tile.exits():
                    other.borders.pop((edge + 3) % 6, None)
        return total, count

    def crossing_estimate(self, corp: Corporation, hx: Any, exits: frozenset[int]) -> int:
        return sum(b.cost for e, b in hx.borders.items() if b.kind == "water" and e in exits)

    def tile_rotations(self, corp: Corporation, hx: Any, tdef: Any, edges: set[int] | None) -> list[int]:
        stubs = self.map_extras(hx.id)["stubs"]
        if hx.tile.colour == "white" and stubs:
            # The first lay on a London approach hex must use its stubs, whoever lays it: 18xx.games withdraws
            # every holder's rights to the hex before it checks the lay, so nobody lays there freely.
            return [r for r in self._tile_rotations(corp, hx, tdef, edges)
                    if all(e in {(x + r) % 6 for x in tdef.edges()} for e in stubs)]
        return self._tile_rotations(corp, hx, tdef, edges)

    def _tile_rotations(self, corp: Corporation, hx: Any, tdef: Any, edges: set[int] | None) -> list[int]:
        special = self.map_extras(hx.id)
        if special.get("swansea") and hx.tile is hx.original:
            # Swansea's first yellow tile drops its town: only the plain city tile, pointing one of two ways.
            return [2, 5] if tdef.name == "57" else []
        future = special.get("future_label")
        if future and tdef.colour == "green" and hx.tile.colour == "yellow":
            if tdef.label != future:
                return []
            return legal_rotations(self, hx, replace(tdef, label=hx.tile.tdef.label), edges)
        if future and tdef.colour == "yellow" and tdef.label is not None:
            return []
        if tdef.name in TRACK_PLAIN and (hx.tile.name in TRACK_TOWN or (
                hx.tile.colour == "white" and len(hx.tile.tdef.towns) == 1 and not hx.tile.tdef.cities)):
            # Only P2's lay removes a town, from a town tile or an undeveloped hex of one small station: the
            # company's own lays must keep the town's paths (18xx.games).
            remover = self.laying_private
            if remover is None or not self.track_power(remover).get("remove_town"):
                return []
            return self._town_to_plain(hx, tdef, edges)
        return legal_rotations(self, hx, tdef, edges)

    def _town_to_plain(self, hx: Any, tdef: Any, edges: set[int] | None) -> list[int]:
        """P2 replaces a town tile by plain track of the next colour that keeps its exits."""
        order = ("white", "yellow", "green", "brown", "gray")
        if order.index(tdef.colour) != order.index(hx.tile.colour) + 1:
            return []
        old = hx.tile.exits()
        out = []
        seen: set[frozenset[int]] = set()
        for rot in range(6):
            exits = frozenset((e + rot) % 6 for e in tdef.edges())
            if exits in seen or not old <= exits:
                continue
            if any(e not in hx.neighbors or e in hx.sealed for e in exits):
                continue
            if any(b.kind == "impassable" for e, b in hx.borders.items() if e in exits):
                continue
            if edges is not None and not exits & edges:
                continue
            seen.add(exits)
            out.append(rot)
        return out

    def after_tile_laid(self, corp: Corporation, hx: Any, tile: Any, water_crossings: int) -> None:
        super().after_tile_laid(corp, hx, tile, water_crossings)
        if len(tile.tokens) != 1:
            return  # London's cities keep their own spaces
        # A station in a space added beside the printed ones (a destination in a full city) takes a free,
        # unreserved printed space of the new tile when it has one (18xx.games).
        node = next(iter(tile.tokens))
        slots, kinds = tile.tokens[node], tile.kinds[node]
        printed = tile.tdef.nodes[node].slots
        reserved = self.reserved_slots(hx, node)
        for k in range(len(slots) - 1, printed - 1, -1):
            if slots[k] is None:
                continue
            free = next((x for x in range(printed) if slots[x] is None and x not in reserved), None)
            if free is None:
                continue
            slots[free], kinds[free] = slots[k], kinds[k]
            slots[k] = None
            for token in self._stations_in_city(hx, node):
                if token.slot == k:
                    token.slot = free
        while len(slots) > printed and slots[-1] is None:
            slots.pop()
            kinds.pop()

    def map_extras(self, hex_id: str) -> dict[str, Any]:
        raw: dict[str, Any] = self.data()["map"]["hexes"].get(hex_id, {})
        return {"future_label": raw.get("future_label"), "stubs": raw.get("stubs", []),
                "swansea": hex_id == "D35"}

    def crowded_corporations(self) -> list[Corporation]:
        # Besides the train limit, a company keeps at most one permanent private train (2P, LP) and one Pullman.
        # Asked after almost every action, so the limits are read once and each company's trains counted in one pass.
        phase = self.phase
        minor_limit = int(phase["minor_train_limit"])
        major_limit = int(phase["train_limit"])
        out = []
        for c in self.corporations.values():
            trains = c.trains
            if not trains:
                continue
            limit = minor_limit if c.kind is CorporationKind.MINOR else major_limit
            if len(trains) == 1 and limit >= 1:
                continue  # one train is within any limit and no second of a kind
            in_limit = permanent = pullmans = 0
            for t in trains:
                in_limit += t.counts_for_limit
                permanent += t.name in PERMANENT_TRAINS
                pullmans += t.name == PULLMAN
            if in_limit > limit or permanent > 1 or pullmans > 1:
                out.append(c)
        return out

    @staticmethod
    def _extra_count(corp: Corporation, names: tuple[str, ...]) -> int:
        return sum(1 for t in corp.trains if t.name in names)

    def discardable_trains(self, corp: Corporation) -> list[Train]:
        """The trains a crowded company chooses from: a second permanent private train first, then a second
        Pullman, else its trains within the limit."""
        for names in (PERMANENT_TRAINS, (PULLMAN,)):
            if self._extra_count(corp, names) > 1:
                return [t for t in corp.trains if t.name in names]
        return [t for t in corp.trains if t.name not in EXTRA_TRAINS]

    def discard_train(self, corp: Corporation, train: Train) -> None:
        corp.trains.remove(train)
        if train.name in PERMANENT_TRAINS or train.name == PULLMAN:
            train.owner = None  # a private's train leaves the game
        else:
            train.owner = self.pool
            self.pool_trains.append(train)
        self.log(f"{corp.sym} discards a {train.name} train")
        ev.emit(ev.TrainMoved(train.id, train.name, corp.party, ev.POOL if train.owner is self.pool else ev.NOBODY,
                              ev.TrainHow.DISCARDED))

    def can_place_token(self, corp: Corporation) -> bool:
        unused = [t for t in corp.unused_tokens() if t.kind is not TokenKind.DESTINATION]
        if not unused or min(t.price for t in unused) > corp.cash:
            return False
        return any(self.offers_city(corp, self.board.hexes[h], n) for h, n in self.network(corp).nodes)

    def offers_city(self, corp: Corporation, hx: Any, node: int) -> bool:
        """Whether the token step offers this city: as on 18xx.games, no city of a hex where the company already
        has a station (London's too, though a station placed there anyway is accepted)."""
        if node not in hx.tile.tokens or any(corp.sym in slots for slots in hx.tile.tokens.values()):
            return False
        return any(self.can_token_city(corp, hx, node, t) for t in corp.unused_tokens())

    def can_token_city(self, corp: Corporation, hx: Any, node: int, token: Token | None = None) -> bool:
        if hx.id != self.rules["london"]:
            return super().can_token_city(corp, hx, node, token)
        # London's cities are stations of their own: one per company per city.
        if node not in hx.tile.tokens or corp.sym in hx.tile.tokens[node]:
            return False
        if self.rules_edition >= 3 and self.token_blocked_by_reservation(hx, corp.sym):
            return False
        return self.free_slot(hx, node, corp.sym) is not None

    def token_blocked_by_reservation(self, hx: Any, corp: str) -> bool:
        """Edition 3, as 18xx.games: minor 14, not yet started, holds one of London's spaces that no city reserves
        for its own company, so the last such space is its."""
        if self.rules_edition < 3:
            return bool(super().token_blocked_by_reservation(hx, corp))
        holders = self.tile_home_holders(hx, corp)
        if not holders:
            return False
        available = 0
        for node, slots in hx.tile.tokens.items():
            reserved = self.reserved_slots(hx, node)
            available += sum(1 for i, s in enumerate(slots) if s is None and i not in reserved)
        return available <= len(holders)

    def p5_holds_token_step(self, corp: Corporation) -> bool:
        """18xx.games stops at the token step of a company that owns P5 (LC&DR) while its English Channel station
        power is unused, even where the company can place no station (edition 2; games begun under edition 1 did
        not stop)."""
        return self.rules_edition >= 2 and any(c.sym == "P5" and not c.closed for c in corp.companies) \
            and not self._stationed_in(corp, str(self.rules["english_channel"]))

    def _stationed_in(self, corp: Corporation, hex_id: str) -> bool:
        """Edition 2: 18xx.games counts a station power as unusable once its company has a station in every hex
        the power names."""
        return self.rules_edition >= 2 and any(t.used and t.hex == hex_id for t in corp.tokens)

    def channel_station_power(self, company: Company) -> bool:
        """P5 (LC&DR) may place one of its company's exchange tokens as a free station in the English Channel,
        reached or not, during the company's token step; it then closes (18xx.games: its `token` ability)."""
        corp = company.owner
        return company.sym == "P5" and not company.closed and isinstance(corp, Corporation) \
            and self.exchange_tokens.get(corp.sym, 0) > 0

    def channel_station_cities(self, company: Company) -> list[tuple[Any, int]]:
        corp = company.owner
        if not self.channel_station_power(company) or not isinstance(corp, Corporation):
            return []
        hx = self.board.hexes[str(self.rules["english_channel"])]
        return [(hx, node) for node in sorted(hx.tile.tokens) if self.can_token_city(corp, hx, node)]

    def place_channel_station(self, company: Company, hx: Any, node: int, slot: Any) -> None:
        corp = company.owner
        if not isinstance(corp, Corporation) or (hx, node) not in self.channel_station_cities(company):
            raise illegal(f"{company.sym} may place a station only in a free space of the English Channel "
                          f"({self.rules['english_channel']}), from an exchange token of its company")
        self._move_exchange_token(corp)
        token = corp.unused_tokens()[-1]
        token.price = 0
        self.place_token(corp, token, hx, node, free=True, slot=slot)
        self.log(f"{company.sym} places an exchange token of {corp.sym} in the English Channel and closes")
        self.close_company(company)

    def free_token_hexes(self, corp: Corporation) -> list[str]:
        """Hexes where ``corp`` may still place one station for free (SECR in the English Channel)."""
        if corp.sym in self.free_tokens_used:
            return []
        return [str(h) for h in corp.data.get("free_token_hexes", ()) if not self._stationed_in(corp, str(h))]

    def can_lay_track(self, corp: Corporation) -> bool:
        return any(t.used for t in corp.tokens)

    def route_trains(self, corp: Corporation) -> list[Train]:
        return [t for t in corp.trains if t.name != PULLMAN]

    def must_buy_train(self, corp: Corporation) -> bool:
        on_sale = bool(self.available_depot_trains()) or (self.rules_edition >= 4 and bool(self.pool_trains))
        return not any(t.name not in EXTRA_TRAINS for t in corp.trains) and on_sale

    def president_may_contribute(self, corp: Corporation) -> bool:
        return self.must_buy_train(corp)

    def before_train_purchase(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None,
                              must_buy: bool) -> None:
        player = corp.owner
        need = price - corp.cash
        if must_buy and isinstance(player, Player) and need > player.cash and exchange is None \
                and not self.emergency_bundles(player, corp):
            # With nothing left to sell, the director borrows the rest from the bank at 50% interest.
            loan = need - player.cash
            loans.lend(self.bank, player, loan, owed=loan + math.ceil(loan * 0.5), what="loan")
            self.log(f"{player.name} takes a loan of {self.format_money(loan)}")

    def other_train_price_range(self, corp: Corporation, train: Train,
                                last_sale_price: int | None = None) -> tuple[int, int]:
        # 18xx.games: the president never adds money for another company's train, so the treasury alone pays,
        # at any price from 1 up to all it has (above or below the face value).
        return 1, corp.cash

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Any], percent: int) -> bool:
        # Shares of a major are sold once it has operated; the company whose train is being bought must have
        # finished an operating turn before this one (18xx.games' full_or_turn).
        target = self.corporations.get(shares[0].corp) if shares else None
        if target is None or target.kind is not CorporationKind.MAJOR:
            return False
        if self.turns_operated(target) < (2 if target is corp else 1):
            return False
        if self.sale_ties_tax_haven_for_presidency(player, shares, percent):
            return False
        return super().emergency_bundle_legal(player, corp, shares, percent)

    def l_upgrade_open(self) -> bool:
        return True

    def l_upgrade_price(self) -> int:
        return int(self.rules["l_to_2_upgrade"])

    def upgrade_l_train(self, corp: Corporation, train: Train, price: int) -> None:
        if price != self.l_upgrade_price():
            raise illegal(f"upgrading an L train to a 2 train costs {self.format_money(self.l_upgrade_price())}")
        if price > corp.cash:
            raise insufficient(f"{corp.sym} cannot afford to upgrade its L train")
        train.choose_variant("2")
        pay(corp, self.bank, price, ev.Why.TRAIN)
        ev.emit(ev.TrainMoved(train.id, train.name, corp.party, corp.party, ev.TrainHow.CONVERTED, price))
        self.log(f"{corp.sym} upgrades an L train to a 2 train for {self.format_money(price)}")
        if self.phase["name"] == "1":
            self.phase_from_train(train)

    def _withheld(self, corp: Corporation, revenue: int, kind: str) -> int:
        if kind == "payout":
            return 0
        if kind == "half":
            half = revenue // 2
            return half if corp.kind is CorporationKind.MINOR else half // 10 * 10
        return revenue

    def pay_dividend(self, corp: Corporation, revenue: int, kind: str,
                     extra: tuple[int, str | None] | None = None, subsidy: int = 0) -> None:
        corp.last_revenue = revenue
        minor = corp.kind is CorporationKind.MINOR
        base = revenue - (extra[0] if extra else 0)
        withheld = self._withheld(corp, base, kind)
        shares = 100 // corp.share_percent
        per_share = (base - withheld) / shares
        if extra:
            extra_withheld = self._withheld(corp, extra[0], extra[1] or kind)
            withheld += extra_withheld
            per_share += (extra[0] - extra_withheld) / shares
        paid = revenue - withheld
        if withheld:
            self.bank.spend(withheld, corp, ev.Why.REVENUE)
        if subsidy:
            self.bank.spend(subsidy, corp, ev.Why.REVENUE)
            self.log(f"{corp.sym} earns a mail subsidy of {self.format_money(subsidy)}")
        parts: list[ev.HolderPart] = []
        if per_share:
            for holder in [*self.players, corp]:
                percent = holder.percent_of(corp.sym) if holder is not corp else sum(s.percent for s in corp.shares)
                if percent and not (minor and holder is corp):
                    amount = math.ceil(percent / corp.share_percent * per_share)
                    parts.append(self.pay_holder(holder, amount))
            haven = self.tax_haven_payout(corp, per_share)
            if haven:
                parts.append(ev.HolderPart(self.tax_haven.party, haven))
        self.log(f"{corp.sym} runs for {self.format_money(revenue)}: {kind}")
        dividend = {"payout": ev.DividendKind.FULL, "half": ev.DividendKind.HALF}.get(kind, ev.DividendKind.WITHHELD)
        ev.emit(ev.DividendPaid(corp.sym, dividend, revenue, math.ceil(per_share), corp.share_percent, tuple(parts),
                                withheld))
        if minor:
            if revenue > 0:
                self.market.right(corp.sym)
            else:
                self.market.left(corp.sym)
            return
        price = self.market.location[corp.sym].price
        if paid <= 0:
            self.market.left(corp.sym)
        elif paid >= 2 * price:
            self.market.right(corp.sym)
            self.market.right(corp.sym)
        elif paid >= price:
            self.market.right(corp.sym)

    def tax_haven_payout(self, corp: Corporation, per_share: float) -> int:
        """Dividends on the tax haven's shares go onto its charter; returns what it got."""
        count = self.tax_haven.percent_of(corp.sym) // corp.share_percent
        amount = int(count * per_share)
        if amount > 0:
            self.bank.spend(amount, self.tax_haven, ev.Why.DIVIDEND)
            self.log(f"{corp.sym} pays out {self.format_money(amount)} to the tax haven")
        return max(amount, 0)

    def count_operation(self, corp: Corporation) -> None:
        self.history[corp.sym] = self.history.get(corp.sym, 0) + 1

    def turns_operated(self, corp: Corporation) -> int:
        return self.history.get(corp.sym, 0)

    # ------------------------------------------------------------------ minors taken over by majors
    def potential_minors(self, major: Corporation) -> list[Corporation]:
        out = [c for c in self.corporations.values() if c.kind is CorporationKind.MINOR and c.floated and not c.closed
               and self.turns_operated(c) > 1 and self.minor_pay_choices(major, c)]
        if "can_acquire_minor_bidbox" in self.phase.get("status", []):
            out += [self.corporations[c.sym[1:]] for c in self.bidbox_minors()
                    if major.cash >= int(self.bidding["minor_box_price"])]
        return out

    def minor_connected(self, major: Corporation, minor: Corporation) -> bool:
        nodes = self.network(major).nodes
        if minor.floated and minor.tokens[0].used:
            token = minor.tokens[0]
            return (token.hex, token.node) in nodes
        if minor.home is None:
            return False
        hx = self.board.hexes[minor.home]
        if minor.home_city is not None:
            return (hx.id, hx.tile.tdef.cities[minor.home_city]) in nodes
        return any((hx.id, n) in nodes for n in hx.tile.tokens)

    def minor_pay_choices(self, major: Corporation, minor: Corporation) -> list[str]:
        if not minor.floated:
            return ["money"] if major.cash >= int(self.bidding["minor_box_price"]) else []
        owner = minor.owner
        worth = self.market.location[minor.sym].price * 2
        price = self.market.location[major.sym].price
        out = []
        if major.cash >= worth:
            out.append("money")
        ipo = len([s for s in major.shares if not s.president])
        for n, name in ((1, "one_share"), (2, "two_shares")):
            if ipo < n:
                continue
            if n == 2 and owner is not None and self.num_certs(owner) >= self.cert_limit:
                cell = self.market.location[major.sym]
                if cell.zone != "yellow":
                    continue
            diff = worth - price * n
            if diff < 0 and owner is not None and -diff > owner.cash:
                continue
            if diff > 0 and diff > major.cash:
                continue
            out.append(name)
        return out

    def acquire_minor(self, major: Corporation, minor: Corporation, shares: int, token_choice: str) -> None:
        owner = minor.owner
        if minor.floated and owner is not None:
            diff = self.market.location[minor.sym].price * 2 - self.market.location[major.sym].price * shares
            if diff < 0:
                pay(owner, major, -diff, ev.Why.MERGER)
            elif diff > 0:
                pay(major, owner, diff, ev.Why.MERGER)
            for _ in range(shares):
                share = next(s for s in major.shares if not s.president)
                self.transfer_share(share, owner)
            treasury = minor.cash
            pay(minor, major, minor.cash, ev.Why.MERGER)
            companies = tuple(c.sym for c in minor.companies)
            for comp in list(minor.companies):
                minor.companies.remove(comp)
                comp.owner = major
                major.companies.append(comp)
                ev.emit(ev.PrivateMoved(comp.sym, minor.party, major.party))
            trains = tuple(t.name for t in minor.trains)
            for train in list(minor.trains):
                minor.trains.remove(train)
                train.owner = major
                major.trains.append(train)
                ev.emit(ev.TrainMoved(train.id, train.name, minor.party, major.party, ev.TrainHow.HANDED))
            token = minor.tokens[0]
            hx = self.board.hexes[token.hex] if token.hex else None
            if token_choice == "replace" and hx is not None:
                if hx.tile.holds_station(token.node, major.sym):
                    self._move_exchange_token(major)
                    self._remove_minor_station(minor, token)
                else:
                    self.exchange_tokens[major.sym] -= 1
                    new = Token(major.sym, 0, used=True, hex=hx.id, node=token.node, slot=token.slot)
                    ev.emit(ev.StationChanged(hx.id, token.node, token.slot, hx.tile.tokens[token.node][token.slot],
                                              major.sym))
                    hx.tile.tokens[token.node][token.slot] = major.sym
                    major.tokens.append(new)
                    token.used, token.hex = False, None
            elif token_choice == "exchange":
                self._move_exchange_token(major)
                self._remove_minor_station(minor, token)
            else:
                self._remove_station(minor, token)
            self.log(f"{major.sym} acquires {minor.sym}")
            ev.emit(ev.Acquired(major.sym, minor.sym, treasury, trains, companies,
                                (f"{hx.id}: {token_choice}",) if hx is not None else ()))
        else:
            pay(major, self.bank, int(self.bidding["minor_box_price"]), ev.Why.MERGER)
            ev.emit(ev.Acquired(major.sym, minor.sym, 0, (), (), (token_choice,)))
            # The minor's home reservation ends first: a replacing station takes that space (18xx.games).
            self.close_corporation(minor)
            if token_choice == "exchange":
                self._move_exchange_token(major)
            elif token_choice == "replace":
                self._replace_bidbox_minor(major, minor)
            box = self.companies.pop(f"M{minor.sym}") if f"M{minor.sym}" in self.companies else None
            if box is not None:
                box.owner = None
            self.log(f"{major.sym} acquires {minor.sym} from the bid box")
        if not minor.closed:
            self.close_corporation(minor)
        self.board_changed()

    def _replace_bidbox_minor(self, major: Corporation, minor: Corporation) -> None:
        """A minor bought from a bid box leaves the major a station in its home city (minor 14: in a London city
        of the major's choice)."""
        assert minor.home is not None
        hx = self.board.hexes[minor.home]
        if minor.home_city is None and len(hx.tile.tdef.cities) > 1:
            self.exchange_tokens[major.sym] -= 1
            token = Token(major.sym, int(self.rules["minor_14_station_price"]))
            major.tokens.append(token)
            self.pending_tokens.append((major, [hx.id], token))
            return
        node = hx.tile.tdef.cities[minor.home_city or 0]
        if hx.tile.holds_station(node, major.sym):
            self._move_exchange_token(major)
            return
        self.exchange_tokens[major.sym] -= 1
        token = Token(major.sym, 0)
        major.tokens.append(token)
        self.place_pending_token(major, token, hx, node)

    def place_pending_token(self, corp: Corporation, token: Token, hx: Any, node: int) -> None:
        """Place a station whatever the city's free spaces (an extra space is added when it is full)."""
        slots = hx.tile.tokens[node]
        slot = self.free_slot(hx, node, corp.sym)
        if slot is None or corp.sym == "14":
            slots.append(None)
            hx.tile.kinds[node].append(TokenKind.NORMAL)
            slot = len(slots) - 1
        ev.emit(ev.StationChanged(hx.id, node, slot, slots[slot], corp.sym, token.kind.value))
        slots[slot] = corp.sym
        hx.tile.kinds[node][slot] = token.kind
        token.used, token.hex, token.node, token.slot = True, hx.id, node, slot
        if token.price:
            pay(corp, self.bank, token.price, ev.Why.STATION)
        self.board_changed()
        self.log(f"{corp.sym} places a token on {hx.id}")

    def _move_exchange_token(self, major: Corporation) -> None:
        self.exchange_tokens[major.sym] -= 1
        major.tokens.append(Token(major.sym, int(self.rules["token_price"])))

    def _remove_minor_station(self, minor: Corporation, token: Token) -> None:
        """Edition 3, as 18xx.games: a minor's station leaving at its acquisition (exchanged, or where the major
        already stands) takes its space with it when the city has more than its printed spaces (one added for a
        destination station in a full city); minor 14's London city keeps one added space."""
        hx = self.board.hexes[token.hex] if token.used and token.hex is not None else None
        if hx is None or self.rules_edition < 3:
            self._remove_station(minor, token)
            return
        node, slot = token.node, token.slot
        slots, kinds = hx.tile.tokens[node], hx.tile.kinds[node]
        least = hx.tile.tdef.nodes[node].slots + (1 if minor.sym == "14" and len(hx.tile.tdef.cities) > 1 else 0)
        if len(slots) <= least:
            self._remove_station(minor, token)
            return
        ev.emit(ev.StationChanged(hx.id, node, slot, slots[slot], None))
        del slots[slot], kinds[slot]
        for t in self._stations_in_city(hx, node):
            if t.slot > slot:
                t.slot -= 1
        token.used, token.hex = False, None

    def _remove_station(self, corp: Corporation, token: Token) -> None:
        if token.used and token.hex is not None:
            hx = self.board.hexes[token.hex]
            ev.emit(ev.StationChanged(hx.id, token.node, token.slot, hx.tile.tokens[token.node][token.slot], None))
            hx.tile.tokens[token.node][token.slot] = None
        token.used, token.hex = False, None

    def close_corporation(self, corp: Corporation) -> None:
        corp.closed = True
        ev.emit(ev.CompanyClosed(corp.sym, "acquired"))
        for token in corp.tokens:
            self._remove_station(corp, token)
        for holder in [*self.players, self.pool, self.tax_haven]:
            for share in holder.shares_of(corp.sym):
                self.transfer_share(share, corp)  # its certificates leave play with it
        self.market.remove(corp.sym)
        corp.owner = None
        self.board_changed()

    # ------------------------------------------------------------------ issuing and redeeming
    def issuable(self, corp: Corporation) -> list[tuple[list[Any], int]]:
        if corp.kind is not CorporationKind.MAJOR or self.turns_operated(corp) < 2:
            return []
        ipo = [s for s in corp.shares if not s.president]
        out: list[tuple[list[Any], int]] = []
        pool = self.pool.percent_of(corp.sym)
        for n in range(1, len(ipo) + 1):
            bundle = ipo[:n]
            if pool + sum(s.percent for s in bundle) > self.config.shares.pool_limit:
                break
            out.append((bundle, self._price_after_drops(corp, n)))
        return out

    def _price_after_drops(self, corp: Corporation, n: int) -> int:
        cell = self.market.location[corp.sym]
        row, col = cell.row, cell.col
        for _ in range(n):
            if row + 1 < len(self.market.rows) and self.market.at(row + 1, col) is not None:
                row += 1
        at = self.market.at(row, col)
        return at.price if at is not None else cell.price

    def issue_shares(self, corp: Corporation, bundle: list[Any], price: int) -> None:
        for share in bundle:
            self.transfer_share(share, self.pool)
        total = price * len(bundle)
        self.bank.spend(total, corp, ev.Why.CAPITAL)
        for _ in bundle:
            self.market.down(corp.sym)
        self.log(f"{corp.sym} issues {len(bundle)} shares for {self.format_money(total)}")
        self.check_presidency(corp, previous=corp.owner if isinstance(corp.owner, Player) else None)

    def redeemable(self, corp: Corporation) -> list[list[Any]]:
        if corp.kind is not CorporationKind.MAJOR:
            return []
        pool = self.pool.shares_of(corp.sym)
        price = self.market.location[corp.sym].price if corp.sym in self.market.location else 0
        return [pool[:n] for n in range(1, len(pool) + 1) if price * n <= corp.cash]

    def redeem_shares(self, corp: Corporation, bundle: list[Any]) -> None:
        price = self.market.location[corp.sym].price * len(bundle)
        for share in bundle:
            self.transfer_share(share, corp)
        pay(corp, self.bank, price, ev.Why.SHARES)
        self.log(f"{corp.sym} redeems {len(bundle)} shares for {self.format_money(price)}")
        # A share movement settles the directorship: a minor's owner paid in shares may now hold the most.
        self.check_presidency(corp, previous=corp.owner if isinstance(corp.owner, Player) else None)

    # ------------------------------------------------------------------ routes
    def autoroute_train_spec(self, train: Train) -> Any:
        from ...core.autoroute import TrainSpec
        if train.name in LOCAL_TRAINS:
            # One city (or off-board) and at most one town, or a local run at one station.
            caps = ((frozenset({"city", "offboard"}), 1), (frozenset({"town"}), 1))
            return TrainSpec(train.name, 2, caps=caps, local=True)
        if train.name == "E":
            # From station to station of the company, earning double its stations (the English Channel's
            # France rule is not read here: the finder never pays the channel station France's value).
            return TrainSpec(train.name, None, group="E", stations_only=True, multiplier=2)
        if train.name.endswith("+") and train.name != PULLMAN:
            return TrainSpec(train.name, train.distance, free_kinds=frozenset({"town"}))
        return None

    def autoroute_single_stop_hexes(self) -> frozenset[str]:
        # A route may not run between London's stations: it stops at one of them at most.
        return frozenset({str(self.rules["london"])})

    def autoroute_pricing(self, graph: Any) -> Any:
        """The destination bonus as a set-level bonus: the best route joining home and destination earns the
        destination's value again (doubled for an E train). Runs are priced by ``run_revenue`` (Route1822),
        not by route_bonus, so the finder's prices are not checked against route_bonus."""
        from ...core.autoroute import Candidate, Pricing
        corp = self.corporation(graph.corp)
        plain = Pricing(verify=False)
        if corp.kind is not CorporationKind.MAJOR:
            return plain
        dest = next((t for t in corp.tokens if t.kind is TokenKind.DESTINATION and t.used), None)
        home = corp.tokens[0]
        if dest is None or dest.hex is None or not home.used:
            return plain
        hi = graph.index.get((home.hex, home.node))
        di = graph.index.get((dest.hex, dest.node))
        if hi is None or di is None:
            return plain
        value = self.board.node_revenue(self.board.hexes[dest.hex], dest.node, self.phase_colour())
        double = any(t.name == "E" for t in self.route_trains(corp))

        def bonus(cands: list[Candidate]) -> int:
            best = 0
            for cand in cands:
                stops = cand.nodes(graph)
                if hi in stops and di in stops:
                    best = max(best, value * (2 if cand.train == "E" else 1))
            return best

        return Pricing(set_bound=value * (2 if double else 1), set_bonus=bonus, set_nodes=(1 << hi) | (1 << di),
                       verify=False)

    def suggest_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        """Routes for the company's trains that the rules accept: the route finder's, checked one by one, and an
        L train left without one runs locally from its best station."""
        try:
            found = self.best_routes(corp)
        except Exception:  # the finder's readings do not cover every 1822 rule; fall back to local runs
            found = []
        out: list[dict[str, Any]] = []
        traced: list[Route] = []
        used: set[str] = set()
        for data in found:
            train = self.all_trains.get(str(data.get("train")))
            if train is None or train.id in used:
                continue
            try:
                route = self.trace_1822_route(corp, train, data)
            except GameError:
                continue
            used.add(train.id)
            out.append({"train": train.id, "connections": data.get("connections")})
            traced.append(route)
        colour = self.phase_colour()
        taken: set[tuple[str, int]] = {s for r in traced if r.train.name in LOCAL_TRAINS for s in r.stops}
        for train in self.route_trains(corp):
            if train.id in used or train.name not in LOCAL_TRAINS:
                continue
            spots = sorted(((self.board.node_revenue(t_hx, t.node, colour), t.hex) for t in corp.tokens
                            if t.used and t.hex is not None and (t.hex, t.node) not in taken
                            for t_hx in [self.board.hexes[t.hex]]), reverse=True)
            if not spots:
                continue
            hex_id = spots[0][1]
            data = {"train": train.id, "connections": [["local", hex_id]]}
            route = self.trace_1822_route(corp, train, data)
            taken |= set(route.stops)
            used.add(train.id)
            out.append(data)
            traced.append(route)
        self.add_route_bonuses(corp, traced)
        for data, route in zip(out, traced, strict=True):
            data["revenue"] = route.revenue
            data["hexes"] = list(route.hexes)
        return out

    def run_revenue(self, corp: Corporation, routes: list[dict[str, Any]]) -> int:
        """What run_routes pays for these routes, destination bonus included (as Route1822 prices them)."""
        traced = [self.trace_1822_route(corp, self.all_trains[str(r["train"])], r) for r in routes]
        self.add_route_bonuses(corp, traced)
        return sum(r.revenue for r in traced)

    def mail_subsidy(self, corp: Corporation, routes: list[Route]) -> int:
        """Each mail contract (P6, P7) pays half the base value of the first and last stops of one train's route
        (not an L train's), the best routes first."""
        contracts = sum(1 for c in corp.companies if c.sym in ("P6", "P7") and not c.closed)
        if not contracts:
            return 0
        colour = self.phase_colour()
        subsidies = []
        for route in routes:
            if route.train.name.startswith("L") or len(route.stops) < 2:
                continue
            (h1, n1), (h2, n2) = route.stops[0], route.stops[-1]
            first = self.board.node_revenue(self.board.hexes[h1], n1, colour)
            last = self.board.node_revenue(self.board.hexes[h2], n2, colour)
            subsidies.append((first + last) // 2)
        return sum(sorted(subsidies, reverse=True)[:contracts])

    def add_route_bonuses(self, corp: Corporation, routes: list[Route]) -> None:
        """The destination bonus: one route joining the home and destination stations earns the destination's
        value again (the best such route)."""
        if corp.kind is not CorporationKind.MAJOR or not routes:
            return
        dest = next((t for t in corp.tokens if t.kind is TokenKind.DESTINATION and t.used), None)
        home = corp.tokens[0]
        if dest is None or not home.used:
            return
        best: tuple[int, Route] | None = None
        colour = self.phase_colour()
        for route in routes:
            stops = set(route.stops)
            if (home.hex, home.node) in stops and (dest.hex, dest.node) in stops:
                assert dest.hex is not None
                value = self.board.node_revenue(self.board.hexes[dest.hex], dest.node, colour)
                if route.train.name == "E":
                    value *= 2
                if best is None or value >= best[0]:  # ties: the last route, as 18xx.games sorts
                    best = (value, route)
        if best is not None:
            best[1].revenue += best[0]

    def trace_1822_route(self, corp: Corporation, train: Train, data: dict[str, Any]) -> Route:
        """A route as entered (hex chains, ``["local", HEX]`` for an L train at one station, ``[HEX]`` for the
        track inside a double hex), checked and priced."""
        connections = data.get("connections") or []
        if not connections:
            raise illegal("a route needs at least one leg")
        stops: list[tuple[str, int]] = []
        if len(connections) == 1 and len(connections[0]) == 2 and connections[0][0] == "local":
            if train.name not in LOCAL_TRAINS:
                raise illegal("only L trains run locally from one station")
            hx = self.board[str(connections[0][1])]
            node = next((n for n in hx.tile.tokens if hx.tile.holds_station(n, corp.sym)), None)
            if node is None:
                raise illegal(f"{corp.sym} has no station in {hx.id}")
            stops = [(hx.id, node)]
        elif all(len(c) == 1 for c in connections) and len(connections) == 1:
            hx = self.board[str(connections[0][0])]
            inner = [(a, b) for a, b in hx.tile.abs_paths() if a >= NODE_BASE and b >= NODE_BASE]
            if not inner:
                raise illegal(f"there is no track inside {hx.id}")
            a, b = inner[0]
            stops = [(hx.id, a - NODE_BASE), (hx.id, b - NODE_BASE)]
        else:
            from ...core.autoroute import validate_route
            stops = list(validate_route(self, corp, train, data).stops)
        if len(set(stops)) != len(stops):
            raise illegal("a route may not visit a stop twice")
        if not any(self.board.hexes[h].tile.holds_station(n, corp.sym) for h, n in stops
                   if n in self.board.hexes[h].tile.tokens):
            raise illegal(f"a route must include a {corp.sym} station")
        kinds = [self.board.hexes[h].tile.tdef.nodes[n].kind for h, n in stops]
        if train.name in LOCAL_TRAINS:
            if kinds.count("city") + kinds.count("offboard") > 1 or kinds.count("town") > 1:
                raise illegal("an L train runs to one station and at most one town")
        elif train.name.endswith("+") and train.name != PULLMAN:
            big = sum(1 for k in kinds if k != "town")
            if big > train.distance:
                raise illegal(f"a {train.name} train visits at most {train.distance} cities, and any towns")
        elif train.distance < 99 and len(stops) > train.distance:
            raise illegal(f"a {train.name} train visits at most {train.distance} stops")
        london = [h for h, _ in stops if h == self.rules["london"]]
        if len(london) > 1:
            raise illegal("a route may not run between London's stations")
        colour = self.phase_colour()
        if train.name == "E":
            revenue = self._e_train_revenue(corp, stops, colour)
        else:
            revenue = sum(self.board.node_revenue(self.board.hexes[h], n, colour) for h, n in stops)
        route = Route(train, stops=stops, hexes=[h for h, _ in stops], revenue=revenue)
        return route

    def _e_train_revenue(self, corp: Corporation, stops: list[tuple[str, int]], colour: str) -> int:
        """An E train runs between the company's stations and earns double the cities holding them (the English
        Channel station earns France's value)."""
        def tokened(ref: tuple[str, int]) -> bool:
            hx = self.board.hexes[ref[0]]
            return ref[1] in hx.tile.tokens and hx.tile.holds_station(ref[1], corp.sym)
        count = sum(1 for s in stops if tokened(s))
        if count < 2:
            raise illegal("an E train's route must include at least two of the company's stations")
        channel = self.rules["english_channel"]
        france = next((s for s in stops if s[0] == self.rules["france"]), None)
        if not (tokened(stops[0]) and tokened(stops[-1])):
            ends_ok = (tokened(stops[0]) or tokened(stops[-1])) and france is not None and \
                any(s[0] == channel and tokened(s) for s in stops)
            if not ends_ok:
                raise illegal("an E train's route must start and end at the company's stations")
        total = 0
        for ref in stops:
            if not tokened(ref):
                continue
            if ref[0] == channel:
                if france is not None:
                    total += self.board.node_revenue(self.board.hexes[france[0]], france[1], colour)
            else:
                total += self.board.node_revenue(self.board.hexes[ref[0]], ref[1], colour)
        return total * 2
