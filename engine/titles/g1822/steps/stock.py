"""1822's stock round: bids into the bid boxes, buying, selling and starting majors, P16's purchase and
repaying loans; then P9's choices round.
"""

from __future__ import annotations

from typing import Any

from ....core import shares as units
from ....core.actions import Action, entity_action, opt_text, register_action, share_ids, text, whole
from ....core.entities import Company, Corporation, CorporationKind, Entity, Player, Share, as_company, as_player
from ....core.errors import illegal, insufficient, malformed
from ....core.loans import repay_debt
from ....core.market import Cell
from ....core.round import Round, Step
from ....core.rounds import StockRound
from ....core.steps.stock import BuySellParShares
from ..bidboxes import bidbox_companies, bids_placed, committed_cash, highest_bid, min_bid, setup_bidboxes, winning_bids
from ..holdings import splits_anothers_directors_certificate
from ..majors import concession_of, start_major
from ..state import Game1822
from ..tax_haven import (
    TAX_HAVEN,
    sale_ties_tax_haven_for_presidency,
    tax_haven_buy,
    tax_haven_choices,
    tax_haven_share,
    tax_haven_spender,
)

# A player repays an emergency loan in a stock turn, all of it that their cash allows or a part.
register_action("payoff_player_debt")
register_action("payoff_player_debt_partial", "amount")


class BidBoxStockRound(StockRound):
    """A stock round whose bid boxes are filled as it starts and resolved when everybody has passed."""

    game: Game1822

    def start(self) -> None:
        setup_bidboxes(self.game)
        super().start()


class BidSellParShares(BuySellParShares[Game1822]):
    """A player's stock turn: sell, then either buy one share, convert a concession or have P16's tax haven buy
    one (each ends the turn), or place or raise up to three bids in the bid boxes."""

    name = "Bid, convert a concession or buy and sell shares"

    def round_setup(self) -> None:
        super().round_setup()
        self.tax_haven_bought = False  # the tax haven buys once a stock round

    def setup(self) -> None:
        super().setup()
        self.bid_actions = 0

    # --- what the player may do
    def actions(self, entity: Entity) -> list[str]:
        if isinstance(entity, Company):
            return ["choose_ability"] if self.tax_haven_choices(entity) else []
        if entity is not self.round.entity() or not isinstance(entity, Player):
            return []
        if self.must_sell(entity):
            return ["sell_shares"]
        out: list[str] = []
        debt_free = entity.debt == 0
        if self.bid_actions == 0 and debt_free and self.can_buy_any(entity):
            out.append("buy_shares")
        if self.bid_actions == 0 and debt_free and self.can_par_any(entity):
            out.append("par")
        if self.can_sell_any(entity):
            out.append("sell_shares")
        if debt_free:
            out.append("bid")
        elif entity.cash > 0:
            out += ["payoff_player_debt", "payoff_player_debt_partial"]
        if out or self.tax_haven_tie_listed(entity):
            out.append("pass")
        return out

    def offers(self, entity: Entity, kind: str) -> bool:
        # actions(entity) holds ``kind``, asked without listing the rest.
        if isinstance(entity, Company):
            return kind == "choose_ability" and bool(self.tax_haven_choices(entity))
        if entity is not self.round.entity() or not isinstance(entity, Player):
            return False
        if self.must_sell(entity):
            return kind == "sell_shares"
        debt_free = entity.debt == 0
        if kind == "buy_shares":
            return self.bid_actions == 0 and debt_free and self.can_buy_any(entity)
        if kind == "par":
            return self.bid_actions == 0 and debt_free and self.can_par_any(entity)
        if kind == "sell_shares":
            return self.can_sell_any(entity)
        if kind == "bid":
            return debt_free
        if kind in ("payoff_player_debt", "payoff_player_debt_partial"):
            return not debt_free and entity.cash > 0
        if kind == "pass":  # a bid or a payment is always there, else a sale or a listed tie
            return debt_free or entity.cash > 0 or self.can_sell_any(entity) or self.tax_haven_tie_listed(entity)
        return False

    def has_any_action(self, player: Player) -> bool:
        # A player without debt may always bid; one in debt may pay it off or sell; a listed tax-haven tie keeps
        # the turn open for a pass.
        return (player.debt == 0 or player.cash > 0 or self.can_sell_any(player)
                or self.tax_haven_tie_listed(player))

    def tax_haven_tie_listed(self, player: Player) -> bool:
        """Whether 18xx.games lists a sale it cannot make, one that would hand a presidency on while the tax haven
        ties for the largest holding: the turn then stays open there, for a pass (see ``can_sell``)."""
        if self.bought() or (self.game.turn <= 1 and self.game.SELL_AFTER_FIRST_SR):
            return False
        for sym in sorted({s.corp for s in player.shares}):
            corp = self.game.corporation(sym)
            if corp.kind is not CorporationKind.MAJOR or not corp.operated or sym not in self.game.market.location:
                continue
            pool = self.game.pool.shares_of(sym)
            for shares, percent in self.game.shares.sell_bundles(player, corp):
                if units.pool_accepts(self.game.config.shares, corp, pool, shares, percent) and \
                        sale_ties_tax_haven_for_presidency(self.game, player, shares, percent):
                    return True
        return False

    def must_sell(self, player: Player) -> bool:
        return self.can_sell_any(player) and self.game.num_certs(player) > self.game.cert_limit

    def available_cash(self, player: Player) -> int:
        return player.cash - committed_cash(self.game, player)

    def certs_with_bids(self, player: Player) -> float:
        return float(self.game.num_certs(player) + winning_bids(self.game, player))

    def share_cost(self, share: Share) -> int:
        corp = self.game.corporation(share.corp)
        cell = self.game.market.location[corp.sym]
        return units.value(corp, cell.price, share.percent)

    def can_gain(self, player: Player, shares: list[Share], exchange: bool = False) -> bool:
        corp = self.game.corporation(shares[0].corp)
        if not self.holding_ok(player, corp, shares):
            return False
        if self.zone(corp) == "yellow" or exchange:
            return True
        return bool(self.certs_with_bids(player) < self.game.cert_limit)

    def can_buy(self, player: Player, share: Share | None) -> bool:
        if share is None:
            return False
        corp = self.game.corporation(share.corp)
        if corp.kind is not CorporationKind.MAJOR or not corp.ipoed or corp.closed or share.president:
            return False
        if self.sold.get(player.id, {}).get(corp.sym) or self.bought():
            return False
        return self.available_cash(player) >= self.share_cost(share) and self.can_gain(player, [share])

    def can_sell(self, player: Player, shares: list[Share], percent: int | None = None) -> bool:
        corp = self.game.corporation(shares[0].corp)
        if corp.kind is not CorporationKind.MAJOR or not corp.operated:
            return False
        if self.bought():
            return False  # sell, then buy
        sold = sum(s.percent for s in shares) if percent is None else percent
        if sale_ties_tax_haven_for_presidency(self.game, player, shares, sold):
            return False
        return super().can_sell(player, shares, percent)

    def parable(self, player: Player) -> list[Corporation]:
        if self.bought():
            return []
        out = []
        for corp in self.game.corporations.values():
            if corp.kind is not CorporationKind.MAJOR or not self.game.can_par(corp, player):
                continue
            affordable = any(self.par_cost(player, corp, cell) <= self.available_cash(player)
                             for cell in self.major_pars())
            if affordable and self.can_gain(player, [corp.shares[0]],
                                            exchange=concession_of(self.game, corp) is not None):
                out.append(corp)
        return out

    def major_pars(self) -> list[Cell]:
        places: list[tuple[int, int]] = self.game.data()["game"]["market"]["major_par"]
        return [self.game.market.cell(r, c) for r, c in places]

    def par_cost(self, player: Player, corp: Corporation, cell: Cell) -> int:
        """What the player pays to start ``corp`` at ``cell``: the director's certificate, less the concession."""
        price = units.value(corp, cell.price, corp.shares[0].percent)
        concession = concession_of(self.game, corp)
        if concession is not None:
            price = max(price - concession.value, 0)
        return price

    def tax_haven_choices(self, company: Company) -> list[str]:
        """P16's purchases open to its owner in their turn, before any bid and free of loans: not of a company
        the owner sold this round, and once a round."""
        player = company.owner
        if company.sym != TAX_HAVEN or company.closed or player is not self.round.entity():
            return []
        if not isinstance(player, Player) or self.tax_haven_bought or self.bid_actions or player.debt:
            return []
        if self.bought() or self.must_sell(player):
            return []
        spender = tax_haven_spender(self.game)
        assert spender is not None  # P16's owner is the player in turn (above): they or their tax haven pay
        available = self.available_cash(player) if spender is player else int(spender.cash)
        sold = self.sold.get(player.id, {})
        return [c for c in tax_haven_choices(self.game, available) if not sold.get(c.rpartition("_")[0])]

    def offered_by_reference(self, entity: Entity, action: Action) -> bool:
        """Oracle playouts leave out the tax haven buying into a company whose director's certificate is one share
        (LNWR). 18xx.games offers it, but it then counts the tax haven among the holders a directorship may pass
        to; once that company's director holds only the certificate and needs emergency money, it demands a sale
        it cannot process (docs/conformance.md), so about one random game in fifty could never be finished
        there. Players may still make the purchase. Nor do they sell half of a director's certificate whose
        holder does not direct the company, which 18xx.games settles differently (docs/conformance.md)."""
        if splits_anothers_directors_certificate(self.game, action):
            return False
        share = tax_haven_share(self.game, str(opt_text(action, "choice"))) if action.get("type") == "choose_ability" \
            else None
        if share is None:
            return True
        corp = self.game.corporation(share.corp)
        return bool(corp.president_percent > corp.share_percent)

    def choice_label(self, entity: Entity, action: Action) -> str | None:
        choice = str(opt_text(action, "choice"))
        share = tax_haven_share(self.game, choice) if action.get("type") == "choose_ability" else None
        if share is None:
            return None
        price = self.game.market.location[share.corp].price
        where = "the company" if choice.endswith("_ipo") else "the market"
        return f"the tax haven buys a {share.percent}% share of {share.corp} from {where} for " \
               f"{self.game.format_money(price)}"

    # --- choices
    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose_ability":
            return [{**entity_action(entity, kind), "choice": c} for c in self.tax_haven_choices(as_company(entity))]
        if kind == "bid":
            bidder = as_player(entity)  # only the player in turn bids or starts a major (actions)
            out = []
            for comp in bidbox_companies(self.game):
                if self.can_bid(bidder, comp):
                    out.append({**entity_action(bidder, "bid"), "company": comp.sym,
                                "price": min_bid(self.game, comp)})
            return out
        if kind == "par":
            player = as_player(entity)
            return [{**entity_action(player, "par"), "corporation": corp.sym, "share_price": cell.text}
                    for corp in self.parable(player) for cell in self.major_pars()
                    if self.par_cost(player, corp, cell) <= self.available_cash(player)]
        if kind == "payoff_player_debt":
            return [entity_action(entity, kind)]
        if kind == "payoff_player_debt_partial":
            half = self.repayment(as_player(entity), None) // 2
            return [{**entity_action(entity, kind), "amount": half}] if half > 0 else []
        return super().choices(entity, kind)

    def can_bid(self, player: Player, comp: Company) -> bool:
        if self.certs_with_bids(player) >= self.game.cert_limit:
            return False
        best = highest_bid(self.game, comp)
        if best is not None and best[0] is player:
            return False
        if self.available_cash(player) < min_bid(self.game, comp):
            return False
        mine = any(who is player for who, _ in self.game.bids.get(comp.sym, ()))
        return mine or bids_placed(self.game, player) < self.game.bid_tokens

    def repayment(self, player: Player, amount: int | None) -> int:
        """What a repayment of ``amount`` (None: as much as possible) takes: never more than the player's cash or
        debt."""
        most = min(player.cash, player.debt)
        return most if amount is None else min(amount, most)

    # --- processing
    def process_payoff_player_debt(self, action: Action, entity: Player) -> None:
        self._repay(entity, None)

    def process_payoff_player_debt_partial(self, action: Action, entity: Player) -> None:
        try:
            amount = whole(action, "amount")
        except (TypeError, ValueError):
            raise malformed("a partial repayment names a whole amount") from None
        if amount <= 0:
            raise illegal("a repayment must be of a positive amount")
        self._repay(entity, amount)

    def _repay(self, player: Any, amount: int | None) -> None:
        if not isinstance(player, Player) or player.debt <= 0:
            raise illegal("only a player with a loan repays it")
        paid = self.repayment(player, amount)
        if paid <= 0:
            raise insufficient(f"{player.name} has no cash to repay the loan with")
        repay_debt(self.game.bank, player, paid)
        money = self.game.format_money
        self.game.log(f"{player.name} repays {money(paid)} of their loan"
                      + (f"; {money(player.debt)} is still owed" if player.debt else ""))
        # As on 18xx.games, a repayment is one of the turn's actions, not a turn of its own: the player acts on
        # while anything is listed (the round moves on otherwise, without passing them), and a pass after it is
        # no pass, since the turn had an action.
        self.current.append({"type": "payoff_player_debt"})
        self.round.last_to_act = player

    def process_bid(self, action: Action, entity: Player) -> None:
        game = self.game
        comp = game.company(text(action, "company"))
        if comp not in bidbox_companies(game):
            raise illegal(f"{comp.sym} is not in a bid box")
        price = whole(action, "price")
        least = min_bid(game, comp)
        money = game.format_money
        if price < least:
            raise illegal(f"the minimum bid for {comp.sym} is {money(least)}")
        if (price - least) % game.MIN_BID_INCREMENT:
            raise illegal(f"bids rise in steps of {money(game.MIN_BID_INCREMENT)}")
        if price > self.available_cash(entity):
            raise insufficient(f"{entity.name} can bid at most {money(self.available_cash(entity))}")
        bids = game.bids.setdefault(comp.sym, [])
        mine = any(who is entity for who, _ in bids)
        if not mine and bids_placed(game, entity) >= game.bid_tokens:
            raise illegal(f"{entity.name} has no bid tokens left; move a bid instead")
        game.nothing_sold = False
        entity.passed = False
        bids[:] = [b for b in bids if b[0] is not entity]
        bids.append((entity, price))
        self.bid_actions += 1
        per_turn = int(game.bidding["per_turn"])
        # The count tells a player how many more bids this turn allows (the turn ends at the last one).
        game.log(f"{entity.name} bids {money(price)} for {comp.name} (bid {self.bid_actions} of {per_turn} this turn)")
        self.current.append(action)
        self.round.last_to_act = entity
        if self.bid_actions >= per_turn:
            self.pass_()

    def process_choose_ability(self, action: Action, entity: Company) -> None:
        choice = text(action, "choice")
        if choice not in self.tax_haven_choices(entity):
            share = tax_haven_share(self.game, choice)
            what = f"a share of {share.corp}" if share is not None else repr(choice)
            raise illegal(f"the tax haven cannot buy {what} now")
        player = as_player(entity.owner)
        tax_haven_buy(self.game, choice)
        self.tax_haven_bought = True
        self.current.append(action)
        self.round.last_to_act = player
        self.pass_()

    def process_buy_shares(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        shares = [self.game.share_by_id(sid) for sid in share_ids(action)]
        if len(shares) != 1:
            raise malformed("buy one certificate at a time")
        if not self.can_buy(entity, shares[0]):
            raise illegal(f"{entity.name} cannot buy {shares[0].id} now")
        super().process_buy_shares(action, entity)
        self.pass_()

    def process_par(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        corp = self.game.corporation(text(action, "corporation"))
        if corp not in self.parable(entity):
            raise illegal(f"{entity.name} cannot start {corp.sym} now")
        cell = self.game.parse_price(action["share_price"], par=True)
        if cell not in self.major_pars():
            raise illegal(f"{self.game.format_money(cell.price)} is a par price for minors only")
        cost = self.par_cost(entity, corp, cell)
        if cost > self.available_cash(entity):
            raise insufficient(f"{entity.name} cannot afford to start {corp.sym} at "
                               f"{self.game.format_money(cell.price)}")
        start_major(self.game, entity, corp, cell, cost)
        self.current.append(action)
        self.round.last_to_act = entity
        self.pass_()


class ChoicesRound(Round):
    """Between the stock round and the operating rounds: P9's owner may double their cash for the new order."""

    kind = "choices"

    def select_entities(self) -> list[Any]:
        p9 = self.game.companies.get("P9")
        if p9 is not None and not p9.closed and isinstance(p9.owner, Player):
            return [p9.owner]
        return []

    def finished(self) -> bool:
        return self.active_step() is None

    def name(self) -> str:
        return "Choices"


class DoubleCash(Step[Game1822]):
    name = "Choose"

    def actions(self, entity: Entity) -> list[str]:
        if self.passed or entity is not self.round.entity():
            return []
        return ["choose", "pass"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose":
            return [{**entity_action(entity, "choose"), "choice": "double"}]
        return super().choices(entity, kind)

    def process_choose(self, action: Action, entity: Player) -> None:
        if text(action, "choice") != "double":
            raise illegal("P9's choice is double")
        self.game.double_cash_choice = entity
        self.game.log(f"{entity.name} chooses to double actual cash holding when determining player turn order")
        self.pass_()
