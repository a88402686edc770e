"""The private-company auction: the waterfall auction and the par a private may demand."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from ..actions import Action, entity_action, text, whole
from ..entities import Company, Entity, Player, as_player, pay
from ..errors import illegal, insufficient
from ..round import G, InterruptStep, Step


class CompanyPendingPar(InterruptStep[G]):
    """A private that comes with a president's certificate makes its buyer set the par at once."""

    name = "Choose par price"

    def round_setup(self) -> None:
        self.round.pending_par = []

    def pending(self) -> list[tuple[Company, str]]:
        return self.round.pending_par

    def actions(self, entity: Entity) -> list[str]:
        if self.pending() and entity is self.pending()[0][0].owner:
            return ["par"]
        return []

    def active_entities(self) -> list[Any]:
        return [self.pending()[0][0].owner] if self.pending() else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "par":
            return super().choices(entity, kind)
        corp = self.game.corporations[self.pending()[0][1]]
        return [{**entity_action(entity, "par"), "corporation": corp.sym, "share_price": cell.text}
                for cell in self.game.market.par_cells()]

    def process_par(self, action: Action, entity: Entity) -> None:
        company, corp_sym = self.pending()[0]
        corp = self.game.corporation(text(action, "corporation"))
        if corp.sym != corp_sym:
            raise illegal(f"{company.sym} makes you set the par price of {corp_sym}, not {corp.sym}")
        cell = self.game.parse_price(action["share_price"], par=True)
        self.game.shares.set_par(corp, cell)
        pres = corp.shares[0]
        entity = as_player(entity)  # the private's buyer
        self.game.shares.buy_shares(entity, [pres], 0)
        self.game.log(f"{entity.name} pars {corp.sym} at {self.game.format_money(cell.price)}")
        self.pending().pop(0)


class WaterfallAuction(Step[G]):
    """Privates are offered cheapest first; the cheapest may be bought outright at its price,
    others collect bids that are resolved when they become the cheapest."""

    name = "Bid on private companies"

    def round_setup(self) -> None:
        self.companies: list[Company] = sorted(self.game.companies.values(), key=lambda c: c.value)
        self.cheapest: Company | None = self.companies[0] if self.companies else None
        self.bids: dict[str, list[tuple[Player, int]]] = {}
        self.auctioning: Company | None = None

    # --- queries
    def company_bids(self) -> dict[str, list[tuple[Any, int]]]:
        return dict(self.bids)

    def _auction_bids(self) -> list[tuple[Player, int]]:
        if self.auctioning is None:
            return []
        bids = self.bids.get(self.auctioning.sym, [])
        return bids if len(bids) > 1 else []

    def active_entities(self) -> list[Any]:
        bids = self._auction_bids()
        if bids:
            return [min(bids, key=lambda b: b[1])[0]]
        return [self.round.entity()]

    def actions(self, entity: Entity) -> list[str]:
        if not self.companies:
            return []
        return ["bid", "pass"] if entity in self.active_entities() else []

    def committed(self, player: Player) -> int:
        return sum(price for bids in self.bids.values() for p, price in bids if p is player)

    def current_bid(self, player: Player, company: Company) -> int:
        return next((price for p, price in self.bids.get(company.sym, []) if p is player), 0)

    def max_bid(self, player: Player, company: Company) -> int:
        return player.cash - self.committed(player) + self.current_bid(player, company)

    def may_purchase(self, company: Company) -> bool:
        return not self._auction_bids() and bool(self.companies) and company is self.companies[0]

    def min_bid(self, company: Company) -> int:
        if self.may_purchase(company):
            return company.min_bid
        bids = self.bids.get(company.sym, [])
        high = max((price for _, price in bids), default=None)
        return (high if high is not None else company.min_bid) + self.game.MIN_BID_INCREMENT

    # --- processing
    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "bid":
            return super().choices(entity, kind)
        out = []
        bidding_on = self.auctioning if self._auction_bids() else None
        for comp in self.companies:
            if bidding_on is not None and comp is not bidding_on:
                continue
            low = self.min_bid(comp)
            if low <= self.max_bid(as_player(entity), comp):
                out.append({**entity_action(entity, "bid"), "company": comp.sym, "price": low})
        return out

    def price_range(self, entity: Entity, action: Action) -> tuple[int, int] | None:
        if action["type"] != "bid":
            return None
        company = self.game.company(text(action, "company"))
        return self.min_bid(company), self.max_bid(as_player(entity), company)

    def process_bid(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        company = self.game.company(text(action, "company"))
        if company not in self.companies:
            raise illegal(f"{company.sym} is not for sale")
        price = whole(action, "price")
        entity.passed = False
        if self._auction_bids():
            if company is not self.auctioning:
                assert self.auctioning is not None
                raise illegal(f"bidding is on {self.auctioning.sym} now")
            self.add_bid(entity, company, price)
        else:
            if self.may_purchase(company):
                if price < company.min_bid:
                    raise illegal(f"{company.sym} costs at least {self.game.format_money(company.min_bid)}")
                self._check_afford(entity, company, price)
                self.round.last_to_act = entity
                self.award(entity, company, price)
                self.resolve_bids()
            else:
                self.add_bid(entity, company, price)
            self.round.next_entity_index()

    def process_pass(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        if self._auction_bids():
            assert self.auctioning is not None
            self.bids[self.auctioning.sym] = [b for b in self.bids[self.auctioning.sym] if b[0] is not entity]
            self.game.log(f"{entity.name} passes on {self.auctioning.sym}")
            self.resolve_bids()
            return
        entity.passed = True
        self.game.log(f"{entity.name} passes bidding")
        if all(p.passed for p in self.round.entities):
            self.all_passed()
        self.round.next_entity_index()

    def _check_afford(self, player: Player, company: Company, price: int) -> None:
        available = self.max_bid(player, company)
        if price > available:
            money = self.game.format_money
            raise insufficient(f"{player.name} has {money(available)} available and cannot bid {money(price)}")

    def add_bid(self, player: Player, company: Company, price: int) -> None:
        low = self.min_bid(company)
        if price < low:
            raise illegal(f"the minimum bid for {company.sym} is {self.game.format_money(low)}")
        if self.game.BIDS_IN_STEPS and (price - low) % self.game.MIN_BID_INCREMENT:
            raise illegal(f"bids go up in multiples of {self.game.format_money(self.game.MIN_BID_INCREMENT)}")
        self._check_afford(player, company, price)
        bids = [b for b in self.bids.get(company.sym, []) if b[0] is not player]
        bids.append((player, price))
        self.bids[company.sym] = bids
        self.game.log(f"{player.name} bids {self.game.format_money(price)} for {company.sym}")

    def resolve_bids(self) -> None:
        while self.companies:
            company = self.companies[0]
            is_new = company is not self.auctioning
            self.auctioning = None
            bids = self.bids.get(company.sym, [])
            if len(bids) == 1:
                player, price = bids[0]
                del self.bids[company.sym]
                self.award(player, company, price)
                continue
            if len(bids) > 1:
                self.auctioning = company
                if is_new:
                    self.game.log(f"{company.sym} goes up for auction")
            break

    def award(self, player: Player, company: Company, price: int) -> None:
        available = self.max_bid(player, company)
        if available < price:
            money = self.game.format_money
            raise insufficient(f"{player.name} has {money(available)} available and cannot spend {money(price)}")
        company.owner = player
        player.companies.append(company)
        if price > 0:
            pay(player, self.game.bank, price, ev.Why.AUCTION)
        ev.emit(ev.PrivateMoved(company.sym, ev.BANK, player.party, price))
        self.companies.remove(company)
        self.game.log(f"{player.name} buys {company.sym} for {self.game.format_money(price)}")
        ev.emit(ev.AuctionWon(company.sym, player.party, price))
        self.game.after_buy_company(player, company, price)
        # Passing now lowers the price of whatever is cheapest next.
        self.cheapest = self.companies[0] if self.companies else None

    def all_passed(self) -> None:
        if self.cheapest is not None and self.cheapest in self.companies:
            self.cheapest.discount += 5
            self.game.log(f"{self.cheapest.sym} minimum bid decreases to "
                          f"{self.game.format_money(self.cheapest.min_bid)}")
            if self.cheapest.min_bid <= 0:
                self.round.next_entity_index()
                self.award(as_player(self.round.entity()), self.cheapest, 0)
                self.resolve_bids()
        else:
            self.game.payout_companies()
            self.game.or_set_finished()
        for p in self.round.entities:
            p.passed = False
