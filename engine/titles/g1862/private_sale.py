"""1862's initial stock round, private part (spec §8.2; S2 "INITIAL STOCK ROUND").

In his turn a player buys the lowest-numbered unsold private at its price, bids on another one, or passes.
Money in a player's highest bids is earmarked; a player outbid keeps or withdraws his bid at once. After each
purchase the next private is sold to its only bidder, or auctioned among its bidders, and so on. All passing
while private 1 is unsold lowers its price by $5 (at $0 the next player must take it); all passing later, with
privates left, ends the round (a revenue-only operating round and a new initial stock round follow). Bids and
auctions live on the game, so that standing bids survive into the next initial stock round.
"""

from __future__ import annotations

from typing import Any

from ...core import events as ev
from ...core.actions import Action, entity_action, opt_text, text, whole
from ...core.entities import Company, Entity, Player, as_player, pay
from ...core.errors import illegal, insufficient, malformed
from ...core.round import Step
from . import privates
from .state import Auction, Game1862, PrivateSale

KEEP = "keep"
WITHDRAW = "withdraw"


def unsold_privates(game: Game1862) -> list[Company]:
    return sorted((c for c in game.companies.values() if c.owner is None and not c.closed),
                  key=lambda c: int(c.data["order"]))


def earmarked(game: Game1862, player: Player, *, besides: str | None = None) -> int:
    """Money in ``player``'s bids, on every private but ``besides``: it may not be bid again elsewhere."""
    return sum(price for sym, bids in game.private_sale.bids.items() if sym != besides
               for p, price in bids if p is player)


def standing_bids(game: Game1862) -> dict[str, list[tuple[Any, int]]]:
    """The bids on privates, which stand from one initial stock round to the next: company -> (bidder, price)."""
    return {sym: list(bids) for sym, bids in game.private_sale.bids.items() if bids}


def sell_private(game: Game1862, player: Player, company: Company, price: int) -> None:
    company.owner = player
    player.companies.append(company)
    if price > 0:
        pay(player, game.bank, price, ev.Why.PRIVATE)
    ev.emit(ev.PrivateMoved(company.sym, ev.BANK, player.party, price))
    game.log(f"{player.name} buys {company.sym} for {game.format_money(price)}")
    ev.emit(ev.AuctionWon(company.sym, player.party, price))
    game.after_buy_company(player, company, price)
    if company.sym == privates.BO_MARKER:
        privates.place_bo_marker(game)


class PrivateAuction(Step[Game1862]):
    """Buy the lowest private, bid on another, or pass; keep-or-withdraw choices; auctions among bidders."""

    name = "Buy or bid on private companies"


    @property
    def sale(self) -> PrivateSale:
        return self.game.private_sale

    # --- queries
    def unsold(self) -> list[Company]:
        unsold = unsold_privates(self.game)
        return unsold

    def active_entities(self) -> list[Any]:
        if self.sale.decisions:
            return [self.sale.decisions[0][0]]
        auction = self.sale.auction
        if auction is not None:
            return [auction.order[auction.turn]]
        if not self.unsold():
            return []
        return [self.round.entity()]

    def actions(self, entity: Entity) -> list[str]:
        if not self.unsold() or entity not in self.active_entities():
            return []
        if self.sale.decisions:
            return ["choose"]
        if self.sale.auction is None and self.forced_free(as_player(entity)):
            return ["bid"]
        return ["bid", "pass"]

    def forced_free(self, player: Player) -> bool:
        """Private 1 at $0: the player whose turn it is must take it (S2)."""
        first = self.unsold()[0]
        return first is self.game.companies["BOM"] and first.min_bid <= 0

    def earmarked(self, player: Player, *, besides: str | None = None) -> int:
        return earmarked(self.game, player, besides=besides)

    def available(self, player: Player, company: Company) -> int:
        """Cash a player may put into ``company``: his cash less his bids on other privates."""
        return player.cash - self.earmarked(player, besides=company.sym)

    def high_bid(self, company: Company) -> tuple[Player, int] | None:
        bids = self.sale.bids.get(company.sym, [])
        return max(bids, key=lambda b: b[1]) if bids else None

    def min_bid(self, company: Company) -> int:
        high = self.high_bid(company)
        return (high[1] if high else company.value) + self.game.MIN_BID_INCREMENT

    def fits_limit(self, player: Player, company: Company) -> bool:
        return bool(self.game.num_certs(player) + 1 + privates.granted_certificates(company) <= self.game.cert_limit)

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose":
            return [{**entity_action(entity, "choose"), "choice": c} for c in (KEEP, WITHDRAW)]
        if kind != "bid":
            return super().choices(entity, kind)
        entity = as_player(entity)
        auction = self.sale.auction
        if auction is not None:
            company = self.game.companies[auction.company]
            price = auction.price + self.game.MIN_BID_INCREMENT
            ok = price <= self.available(entity, company)
            return [{**entity_action(entity, "bid"), "company": company.sym, "price": price}] if ok else []
        out: list[Action] = []
        unsold = self.unsold()
        first = unsold[0]
        if first.min_bid <= self.available(entity, first) and self.fits_limit(entity, first):
            out.append({**entity_action(entity, "bid"), "company": first.sym, "price": max(0, first.min_bid)})
        if self.forced_free(entity):
            return out[:1] or [{**entity_action(entity, "bid"), "company": first.sym, "price": 0}]
        for company in unsold[1:]:
            high = self.high_bid(company)
            if high is not None and high[0] is entity:
                continue
            price = self.min_bid(company)
            if price <= self.available(entity, company) and self.fits_limit(entity, company):
                out.append({**entity_action(entity, "bid"), "company": company.sym, "price": price})
        return out

    def price_range(self, entity: Entity, action: Action) -> tuple[int, int] | None:
        """A bid may name any price from the least allowed up to the player's unearmarked cash; buying the lowest
        private has its one price."""
        if action["type"] != "bid":
            return None
        entity = as_player(entity)
        company = self.game.company(text(action, "company"))
        auction = self.sale.auction
        if auction is not None:
            return auction.price + self.game.MIN_BID_INCREMENT, self.available(entity, company)
        if self.unsold() and company is self.unsold()[0]:
            return None
        return self.min_bid(company), self.available(entity, company)

    def choice_label(self, entity: Entity, action: Action) -> str | None:
        """What keeping or withdrawing an outbid bid does: the word alone does not say where the money goes."""
        if action.get("type") != "choose" or not self.sale.decisions:
            return None
        player, sym = self.sale.decisions[0]
        mine = [price for p, price in self.sale.bids.get(sym, []) if p is player]
        bid = f"the {self.game.format_money(mine[0])} bid" if mine else "the bid"
        if opt_text(action, "choice") == KEEP:
            return (f"{bid} on {sym} stands and its money stays earmarked; {player.name} joins the auction "
                    f"among {sym}'s bidders when it comes up")
        if opt_text(action, "choice") == WITHDRAW:
            return f"{bid} on {sym} is taken back and its money is free again"
        return None

    # --- processing
    def process_choose(self, action: Action, entity: Entity) -> None:
        choice = text(action, "choice")
        if choice not in (KEEP, WITHDRAW):
            raise malformed(f"choose {KEEP} or {WITHDRAW}, not {choice!r}")
        player, sym = self.sale.decisions.pop(0)
        if choice == WITHDRAW:
            self.sale.bids[sym] = [b for b in self.sale.bids.get(sym, []) if b[0] is not player]
            self.game.log(f"{player.name} withdraws the bid on {sym}")
        else:
            self.game.log(f"{player.name} keeps the bid on {sym}")

    def process_bid(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        company = self.game.company(text(action, "company"))
        price = whole(action, "price")
        unsold = self.unsold()
        if company not in unsold:
            raise illegal(f"{company.sym} is not for sale")
        auction = self.sale.auction
        if auction is not None:
            self._raise(entity, company, price, auction)
            return
        self.round.last_to_act = entity
        entity.passed = False
        if company is unsold[0]:
            if price != max(0, company.min_bid):
                raise illegal(f"{company.sym} costs {self.game.format_money(max(0, company.min_bid))}")
            self._check_money(entity, company, price)
            turn_after = self.round.entity_index
            sell_private(self.game, entity, company, price)
            self._cascade()
            self.round.entity_index = turn_after
            self.round.next_entity_index()
            self._after_sale()
            return
        if self.forced_free(entity):
            raise illegal(f"{unsold[0].sym} is free now and {entity.name} must take it")
        high = self.high_bid(company)
        if high is not None and high[0] is entity:
            raise illegal(f"{entity.name} already holds the highest bid on {company.sym}")
        least = self.min_bid(company)
        if price < least:
            raise illegal(f"a bid on {company.sym} must be at least {self.game.format_money(least)}")
        self._check_money(entity, company, price)
        bids = [b for b in self.sale.bids.get(company.sym, []) if b[0] is not entity]
        bids.append((entity, price))
        self.sale.bids[company.sym] = bids
        self.game.log(f"{entity.name} bids {self.game.format_money(price)} on {company.sym}")
        if high is not None:
            self.sale.decisions.append((high[0], company.sym))
        self.round.next_entity_index()

    def _check_money(self, player: Player, company: Company, price: int) -> None:
        available = self.available(player, company)
        if price > available:
            money = self.game.format_money
            raise insufficient(f"{player.name} has {money(available)} not earmarked for other bids, "
                               f"not {money(price)}")
        if not self.fits_limit(player, company):
            raise illegal(f"{company.sym} would put {player.name} over the certificate limit of {self.game.cert_limit}")

    def _raise(self, player: Player, company: Company, price: int, auction: Auction) -> None:
        if company.sym != auction.company:
            raise illegal(f"the auction is for {auction.company}")
        least = auction.price + self.game.MIN_BID_INCREMENT
        if price < least:
            raise illegal(f"the next bid on {company.sym} must be at least {self.game.format_money(least)}")
        self._check_money(player, company, price)
        self.sale.bids[company.sym] = [b for b in self.sale.bids[company.sym] if b[0] is not player]
        self.sale.bids[company.sym].append((player, price))
        auction.high, auction.price = player, price
        self.game.log(f"{player.name} bids {self.game.format_money(price)} on {company.sym}")
        self._next_bidder(auction)

    def _next_bidder(self, auction: Auction) -> None:
        n = len(auction.order)
        for k in range(1, n + 1):
            i = (auction.turn + k) % n
            if auction.order[i] is not auction.high:
                auction.turn = i
                return

    def process_pass(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        auction = self.sale.auction
        if auction is not None:
            self.game.log(f"{entity.name} drops out of the auction for {auction.company}")
            index = auction.order.index(entity)
            auction.order.remove(entity)
            self.sale.bids[auction.company] = [b for b in self.sale.bids[auction.company] if b[0] is not entity]
            if len(auction.order) == 1:
                self.sale.auction = None
                winner = auction.order[0]
                del self.sale.bids[auction.company]
                sell_private(self.game, winner, self.game.companies[auction.company], auction.price)
                self._cascade()
                self._after_sale()
                return
            auction.turn = (index - 1) % len(auction.order)
            self._next_bidder(auction)
            return
        if self.forced_free(entity):
            raise illegal(f"{self.unsold()[0].sym} is free now and {entity.name} must take it")
        entity.passed = True
        self.game.log(f"{entity.name} passes")
        self.round.next_entity_index()
        players = self.round.entities
        if not all(p.passed for p in players):
            return
        first = self.unsold()[0]
        if first is self.game.companies["BOM"]:
            first.discount += self.game.MIN_BID_INCREMENT
            self.game.log(f"{first.sym} is offered for {self.game.format_money(max(0, first.min_bid))}")
            for p in players:
                p.passed = False
            return
        # Privates are left after everyone passed: the round ends (a revenue-only OR follows).
        self.round.done = True

    def _cascade(self) -> None:
        """Sell the next privates to their only bidder, or start an auction among several (spec §8.2.4)."""
        while self.sale.auction is None and self.unsold():
            company = self.unsold()[0]
            bids = self.sale.bids.get(company.sym, [])
            if not bids:
                return
            if len(bids) == 1:
                player, price = bids[0]
                del self.sale.bids[company.sym]
                sell_private(self.game, player, company, price)
                continue
            high, price = max(bids, key=lambda b: b[1])
            seats = self.game.players
            start = seats.index(high)
            bidders = {p for p, _ in bids}
            order = [p for p in seats[start + 1:] + seats[:start + 1] if p in bidders]
            self.sale.auction = Auction(company.sym, order, high, price)
            self.game.log(f"{company.sym} goes to auction among {', '.join(p.name for p in order)}")
            return

    def _after_sale(self) -> None:
        if self.unsold() or self.sale.auction is not None:
            return
        # The last private is sold: the round goes on as a stock round for group 1, without sales (S2).
        for p in self.round.entities:
            p.passed = False
        self.game.log("All private companies are sold: group 1 (NYH, NYC, CP) is available")
