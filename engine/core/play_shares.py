"""Certificates and money between players and companies, a part the game owns (``game.shares``): par, buying
and selling, presidency, floating, privates' closing, and what players are worth.

The hooks of these rules (``hooks.ShareHooks``) stay on :class:`engine.core.game.Game`, where titles implement
them; the longer defaults are here (the ``Game`` default hands over to the method of the same name), and every
hook this part asks goes through the game, so a title's implementation is the one that answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from . import events as ev
from . import loans
from . import shares as units
from .abilities import (
    Exchange,
    Shares,
)
from .entities import Company, Corporation, Holder, Player, Share, pay
from .errors import illegal, insufficient, malformed
from .hooks import ShareHooks
from .market import Cell, parse_price_text

if TYPE_CHECKING:
    from .config import TitleConfig
    from .entities import Bank, SharePool
    from .flow import RoundState
    from .market import StockMarket


class HoldersState(Protocol):
    """The holders of money and certificates, and the market and rules they move by: what the share and run
    parts both read of their game."""

    bank: Bank
    pool: SharePool
    market: StockMarket
    config: TitleConfig
    players: list[Player]
    corporations: dict[str, Corporation]


class ShareHost(HoldersState, ShareHooks, Protocol):
    """What the part reads of its game: the state below, and the hooks it asks."""

    par_exchanges: dict[str, Company]

    @property
    def round(self) -> RoundState: ...

    def log(self, line: str) -> None: ...

    def format_money(self, amount: int) -> str: ...

    def corporation(self, sym: Any) -> Corporation: ...

    def share_by_id(self, share_id: str) -> Share: ...

    def _holders(self, corp: Corporation | None = None) -> list[Holder]: ...


class SharePart:
    """Par, buying and selling, presidency, floating, privates' closing and what players are worth, for one
    game."""

    def __init__(self, game: ShareHost) -> None:
        self.game = game

    def close_company(self, comp: Company) -> None:
        if comp.closed:
            return
        comp.closed = True
        owner = comp.owner
        if isinstance(owner, Player | Corporation) and comp in owner.companies:
            owner.companies.remove(comp)
        self.game.log(f"{comp.sym} closes")
        ev.emit(ev.PrivateClosed(comp.sym, comp.name))

    def set_par(self, corp: Corporation, cell: Cell) -> None:
        corp.par_price = cell.price
        corp.ipoed = True
        self.game.market.place(corp.sym, cell)

    def num_certs(self, player: Player) -> float:
        total = 0.0
        for s in player.shares:
            cell = self.game.market.location.get(s.corp)
            if cell is not None and cell.zone in ("yellow", "orange", "brown"):
                continue
            total += 1
        return total + len(player.companies)

    def transfer_share(self, share: Share, to: Holder) -> None:
        giver = share.owner
        giver.shares.remove(share)
        to.shares.append(share)
        share.owner = to
        if ev.recording_now():  # a replay records no events: the move is not described
            ev.emit(ev.ShareMoved(share.id, share.corp, share.percent, share.president, giver.party, to.party))

    def buy_shares(self, buyer: Player, shares: list[Share], price: int, *, receiver: Holder | None = None) -> None:
        game = self.game
        corp = game.corporation(shares[0].corp)
        receiver = game.share_payee(corp, receiver)
        if receiver is None and units.ipo_pays_company(game.config.shares) and all(s.owner is corp for s in shares):
            receiver = corp
        if price:
            pay(buyer, receiver or game.bank, price, ev.Why.SHARES)
        for s in shares:
            self.transfer_share(s, buyer)
        self.check_float(corp)
        game.check_presidency(corp, previous=corp.owner)

    def exchange_private(self, company: Company, share: Share) -> tuple[Player, Corporation, Player | None]:
        """A private its owner exchanges for ``share``: the share goes to the owner and the private closes. Says
        who the owner is, the share's company and that company's president before, for the title's own rules on
        floating and presidency that follow (1828's unparred directorship, 1830's M&H)."""
        owner = company.owner
        assert isinstance(owner, Player)
        corp = self.game.corporations[share.corp]
        previous = corp.owner
        self.transfer_share(share, owner)
        self.game.log(f"{owner.name} exchanges {company.sym} for a {share.percent}% share of {corp.sym}")
        self.close_company(company)
        return owner, corp, previous

    def check_float(self, corp: Corporation) -> None:
        if corp.floated or not corp.ipoed:
            return
        if corp.sold_percent() >= corp.float_percent:
            self.game.float_corporation(corp)

    def float_corporation(self, corp: Corporation) -> None:
        game = self.game
        corp.floated = True
        ev.emit(ev.CompanyFloated(corp.sym))
        capital = units.float_capital(game.config.shares, corp)
        if capital:
            game.bank.spend(capital, corp, ev.Why.CAPITAL)
            game.log(f"{corp.sym} floats and receives {game.format_money(capital)}")
        else:
            game.log(f"{corp.sym} floats")

    def check_presidency(self, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
        """Hand the president's certificate to the largest holder if the president no longer is one.

        Ties keep the president; otherwise the first in seat order after the seller (or president). The new
        president hands back ordinary certificates worth the president's certificate's percent, whatever their
        size (two 5% shares for a 10% president's certificate).
        """
        game = self.game
        holdings = {p: p.percent_of(corp.sym) for p in game.players}
        top = max(holdings.values(), default=0)
        if top == 0 or (previous is not None and holdings.get(previous, 0) == top):
            return
        anchor = seller or previous
        start = game.players.index(anchor) + 1 if anchor in game.players else 0
        order = game.players[start:] + game.players[:start]
        new = next(p for p in order if holdings[p] == top)
        pres = next((s for h in game._holders() for s in h.shares if s.corp == corp.sym and s.president), None)
        if corp.owner is not new:
            ev.emit(ev.PresidentChanged(corp.sym, corp.owner.party if corp.owner else None, new.party))
        corp.owner = new
        if pres is None or pres.owner is new:
            return
        game.log(f"{new.name} becomes the president of {corp.sym}")
        if pres.owner is game.pool and seller is not None:
            swap_to: Holder = seller if seller.percent_of(corp.sym) >= pres.percent else game.pool
        else:
            swap_to = pres.owner
        for share in units.certificates_worth(new.shares_of(corp.sym), pres.percent):
            self.transfer_share(share, swap_to)
        self.transfer_share(pres, new)

    def sell_shares(self, seller: Player, shares: list[Share], percent: int | None = None) -> int:
        """Sell certificates to the pool at the current price, then drop the price (a row per share, or a row
        per sale, as the title says).

        ``percent`` below the certificates' total means part of the president's certificate is sold;
        the seller gets ordinary certificates back for the rest.
        """
        game = self.game
        corp = game.corporation(shares[0].corp)
        cell = game.market.location[corp.sym]
        total = sum(s.percent for s in shares)
        sold = total if percent is None else int(percent)
        price = units.value(corp, cell.price, sold)
        previous = corp.owner
        for s in shares:
            self.transfer_share(s, game.pool)
        game.bank.spend(price, seller, ev.Why.SHARE_SALE)
        game.check_presidency(corp, previous, seller)
        for back in units.certificates_worth(game.pool.shares_of(corp.sym), total - sold):
            self.transfer_share(back, seller)
        for _ in range(units.price_drops(game.config.shares, corp, sold)):
            game.market.down(corp.sym)
        game.log(f"{seller.name} sells {sold}% of {corp.sym} for {game.format_money(price)}")
        return price

    def parse_price(self, text: str, *, par: bool = False) -> Cell:
        game = self.game
        price, row, col = parse_price_text(text)
        cell = game.market.at(row, col)
        if cell is None or cell.price != price:
            raise malformed(f"there is no share price {game.format_money(price)} at row {row}, column {col}")
        if par and not cell.par:
            pars = ", ".join(game.format_money(c.price) for c in game.market.par_cells())
            raise illegal(f"{game.format_money(price)} is not a par price; par prices: {pars}")
        return cell

    def can_par(self, corp: Corporation, player: Player) -> bool:
        if corp.ipoed or corp.closed:
            return False
        # A corporation a private converts into starts only by that exchange, by the private's owner.
        source = self.par_exchange(corp)
        return source is None or (bool(source.active(Exchange)) and source.owner is player)

    def par_exchange(self, corp: Corporation) -> Company | None:
        """The private whose exchange ability starts ``corp`` (``from = "par"``), open or not."""
        return self.game.par_exchanges.get(corp.sym)

    def par_cost(self, corp: Corporation, price: int) -> int:
        percent = corp.shares[0].percent
        if self.par_exchange(corp) is not None:
            percent -= corp.share_percent  # the private counts as one share of the president's certificate
        return units.value(corp, price, percent)

    def par_corporation(self, player: Player, corp: Corporation, cell: Cell) -> None:
        game = self.game
        cost = game.par_cost(corp, cell.price)
        if cost > player.cash:
            raise insufficient(f"{player.name} cannot afford to start {corp.sym} at {game.format_money(cell.price)}: "
                               f"cash {game.format_money(player.cash)}, cost {game.format_money(cost)}")
        self.set_par(corp, cell)
        self.buy_shares(player, [corp.shares[0]], cost)
        game.log(f"{player.name} pars {corp.sym} at {game.format_money(cell.price)}")
        source = self.par_exchange(corp)
        if source is not None:
            self.close_company(source)  # exchanged for the president's certificate
        game.after_par(player, corp)

    def can_dump(self, player: Player, shares: list[Share]) -> bool:
        """A sale that includes the president's certificate needs another player able to take it."""
        pres = next((s for s in shares if s.president), None)
        if pres is None:
            return True
        others = max((p.percent_of(pres.corp) for p in self.game.players if p is not player), default=0)
        return others >= pres.percent

    def sell_bundles(self, player: Player, corp: Corporation) -> list[tuple[list[Share], int]]:
        """What a player may offer for sale of one company, as (certificates, percent), smallest first.

        One, two, ... ordinary certificates; then all of them with the president's certificate; and,
        as 18xx.games offers, all of them with only part of the president's certificate sold: the new
        president hands back ordinary certificates, and the seller keeps the unsold part as those.
        """
        mine = player.shares_of(corp.sym)
        plain = [s for s in mine if not s.president]
        out = [(plain[:n], sum(s.percent for s in plain[:n])) for n in range(1, len(plain) + 1)]
        pres = next((s for s in mine if s.president), None)
        if pres is not None:
            total = sum(s.percent for s in mine)
            unit = self.share_unit(corp)
            out += [([*plain, pres], total - unit * k) for k in range(pres.percent // unit)]
        return sorted(out, key=lambda bundle: bundle[1])

    def share_unit(self, corp: Corporation) -> int:
        return corp.share_percent

    def valid_bundle(self, player: Player, shares: list[Share], percent: int) -> bool:
        """A bundle the sale rules know: ordinary certificates sold whole, or every certificate the
        seller holds with part of the president's certificate kept (in whole ordinary shares)."""
        if not shares or len({s.id for s in shares}) != len(shares) or any(s.owner is not player for s in shares):
            return False
        total = sum(s.percent for s in shares)
        pres = next((s for s in shares if s.president), None)
        if pres is None:
            return percent == total
        unit = self.share_unit(self.game.corporations[pres.corp])
        kept = total - percent
        return (set(shares) == set(player.shares_of(pres.corp)) and 0 <= kept < pres.percent
                and kept % unit == 0)

    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        """A private bought in the auction brings its certificates: a president's certificate makes the buyer set
        the par at once (the auction's CompanyPendingPar step), another one is handed over."""
        game = self.game
        for ability in company.abilities_of(Shares):
            for share_id in ability.certificates:
                share = game.share_by_id(share_id)
                if share.president:
                    game.round.pending_par.append((company, share.corp))
                    continue
                self.transfer_share(share, player)
                game.log(f"{player.name} receives a {share.percent}% share of {share.corp} with {company.sym}")

    def player_value(self, player: Player) -> int:
        """Cash, shares at their price and privates at face value, less what the player owes the bank."""
        value = player.cash - player.debt
        for s in player.shares:
            cell = self.game.market.location.get(s.corp)
            if cell is not None:
                value += units.value(self.game.corporations[s.corp], cell.price, s.percent)
        value += sum(c.value for c in player.companies if not c.closed)
        return value

    def player_score(self, player: Player) -> ev.Score:
        """``player_value`` in its parts: cash, shares, privates and what he owes the bank."""
        total = self.game.player_value(player)
        privates = self.game.private_worth(player)
        return ev.Score(player.party, player.cash, total - player.cash + player.debt - privates, privates,
                        player.debt)

    def liabilities(self, corp: Corporation) -> int:
        """What ``corp`` owes the bank (its loans at the title's loan size and its debts)."""
        return loans.liabilities(corp, self.game.config.loans)

