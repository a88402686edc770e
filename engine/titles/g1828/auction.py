"""1828's private auction (rules 6): a waterfall auction by tiers of equal face value."""

from __future__ import annotations

from ...core.actions import Action, entity_action
from ...core.entities import Company, Entity, Player, as_player
from ...core.game import Game
from ...core.steps.auction import CompanyPendingPar, WaterfallAuction


class CompanyPendingPar1828(CompanyPendingPar[Game]):
    """A $250 private's buyer sets the par at once, from the par prices open now (yellow in the auction)."""


class TieredAuction(WaterfallAuction[Game]):
    """Privates of one face value form a tier (rules 6.1). The cheapest tier's privates are bought outright only
    once each other private of the tier has a bid; bids on a tier are settled only when all its privates have
    bids, or when every player has passed in turn, which also pays the privates' revenue (rules 6.2, 6.3). A $250
    private keeps only its latest bidder, who buys it at face value when it is settled (as 18xx.games does)."""

    def round_setup(self) -> None:
        super().round_setup()
        self.companies = [c for c in self.companies if not c.closed]
        self.cheapest = self.companies[0] if self.companies else None
        self.round_end = False

    def _rest_of_row_has_bids(self, company: Company) -> bool:
        return all(self.bids.get(c.sym) for c in self.companies if c.value == company.value and c is not company)

    def may_purchase(self, company: Company) -> bool:
        if not self.companies or self.companies[0].value != company.value or self.bids.get(company.sym):
            return False
        return self._rest_of_row_has_bids(company)

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "bid" or self._auction_bids():
            return super().choices(entity, kind)
        out = []
        for comp in self.companies:
            low = self.min_bid(comp)
            if low <= self.max_bid(as_player(entity), comp):
                out.append({**entity_action(entity, "bid"), "company": comp.sym, "price": low})
        return out

    def add_bid(self, player: Player, company: Company, price: int) -> None:
        super().add_bid(player, company, price)
        if company.value == 250 and not self._auction_bids():
            self.bids[company.sym] = [b for b in self.bids[company.sym] if b[0] is player]

    def _can_auction(self, company: Company) -> bool:
        many = len(self.bids.get(company.sym, [])) > 1
        return many and (self.round_end or company is self.companies[0])

    def _resolve_company(self, company: Company) -> bool:
        if not (self.round_end or self._rest_of_row_has_bids(company)):
            return False
        is_new = company is not self.auctioning
        self.auctioning = None
        bids = self.bids.get(company.sym, [])
        if len(bids) == 1:
            player, price = bids[0]
            del self.bids[company.sym]
            self.award(player, company, price)
            return True
        if self._can_auction(company):
            self.auctioning = company
            if is_new:
                self.game.log(f"{company.sym} goes up for auction")
        return False

    def resolve_bids(self) -> None:
        if self.round_end:
            for company in list(self.companies):
                self._resolve_company(company)
                if self.auctioning is company:
                    break
            if not any(self.bids.values()):
                self.round_end = False
                self.game.payout_companies()
                self.game.or_set_finished()
                for p in self.round.entities:
                    p.passed = False
            return
        while self.companies:
            if not self._resolve_company(self.companies[0]):
                break

    def all_passed(self) -> None:
        self.round_end = True
        self.resolve_bids()
