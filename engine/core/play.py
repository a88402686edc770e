"""Revenue and money raising, a part the game owns (``game.runs``): runs as recorded, dividends shared out,
emergency sales for a forced train purchase, and companies buying privates from players.

The hooks of these rules (``hooks.RouteHooks``, ``DividendHooks``, ``MoneyHooks``, ``PrivateHooks``) stay on
:class:`engine.core.game.Game`, where titles implement them; the longer defaults are here (the ``Game`` default
hands over to the method of the same name), and every hook this part asks goes through the game, so a title's
implementation is the one that answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from . import events as ev
from . import shares as units
from .abilities import TURN_ABILITIES, NoBuy
from .autoroute.trains import RouteRules
from .entities import Company, Corporation, Holder, Player, Share, Train, pay
from .errors import GameError, illegal, insufficient
from .hooks import MoneyHooks, PrivateHooks, TrainHooks
from .play_shares import HoldersState
from .routes import Route

if TYPE_CHECKING:
    from .play_shares import SharePart


class RunHost(HoldersState, RouteRules, MoneyHooks, PrivateHooks, TrainHooks, Protocol):
    """What the part reads of its game: the state below, and the hooks it asks (the route finder's readings
    included, for a recorded route)."""

    options: dict[str, Any]
    companies: dict[str, Company]

    @property
    def phase(self) -> dict[str, Any]: ...

    def phase_colour(self) -> str: ...

    def log(self, line: str) -> None: ...

    def format_money(self, amount: int) -> str: ...

    def sell_shares(self, seller: Player, shares: list[Share], percent: int | None = None) -> int: ...

    @property
    def shares(self) -> SharePart: ...

    def more_dividend_parts(self, corp: Corporation, revenue: int) -> list[ev.HolderPart]: ...


class RunPart:
    """Runs, dividends, emergency money and privates bought by companies, for one game."""

    def __init__(self, game: RunHost) -> None:
        self.game = game

    # ------------------------------------------------------------------ runs
    def recorded_run(self, action: dict[str, Any]) -> bool:
        """Whether ``action`` is a run as 18xx.games records it, with a revenue for every route, in a game that
        came from 18xx.games (option ``recorded_runs``). 18xx.games loads such a run with its recorded revenue,
        unchecked, so a route its checks of the day allowed still loads there (1822's E trains ran past their
        last station until October 2025): we take it as recorded too. Runs typed in chat carry no revenue (the
        engine prices them; ``run auto`` may carry the engine's own) and are checked in full, as is any run of a
        game begun here: there a claimed revenue that differs from the engine's is refused, so a mistyped route
        never pays."""
        if self.game.options.get("recorded_runs") is not True:
            return False
        routes = action.get("routes") or []
        return bool(routes) and all(isinstance(r, dict) and isinstance(r.get("revenue"), int) for r in routes)

    def recorded_route(self, train: Train, data: dict[str, Any]) -> Route:
        """A route of a recorded run (``recorded_run``) that our checks refuse, along its legs as recorded (no
        stops when even they no longer follow the track, as 18xx.games needs none); its revenue is the recorded
        one."""
        from .autoroute import trace_route
        try:
            stops = list(trace_route(self.game, train, data).stops)
        except GameError:
            stops = []
        hexes = [h for h, _ in stops] or [str(h) for h in data.get("hexes") or []]
        return Route(train, stops=stops, hexes=hexes, revenue=int(data.get("revenue") or 0))

    def routes_run(self, corp: Corporation, routes: list[Route]) -> None:
        """Say what each train ran: its stops with their values now, and its revenue."""
        if not ev.recording_now():
            return  # a replay says nothing: no need to price the stops again
        game = self.game
        colour = game.phase_colour()
        for route in routes:
            stops = tuple(ev.Stop(hex_id, game.board.node_revenue(game.board.hexes[hex_id], node, colour))
                          for hex_id, node in route.stops)
            ev.emit(ev.RouteRun(corp.sym, route.train.name, stops, route.revenue))

    # ------------------------------------------------------------------ dividends
    @staticmethod
    def holder_payout(revenue: int, percent: int) -> int:
        """A holder's part of a payout, rounded up as 18xx.games does; works for 10% and 5% shares alike."""
        return -(-revenue * percent // 100)

    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        """The default of the ``pay_dividend`` hook: a full payout to the players and the pool, or withheld."""
        game = self.game
        corp.last_revenue = revenue
        parts: list[ev.HolderPart] = []
        if kind == "payout" and revenue > 0:
            for p in game.players:
                percent = p.percent_of(corp.sym)
                if percent:
                    parts.append(self.pay_holder(p, self.holder_payout(revenue, percent)))
            # Pool shares pay the company itself; IPO shares pay nobody (1882 rules, dividends).
            pool = game.pool.percent_of(corp.sym)
            if pool:
                parts.append(self.pay_holder(corp, self.holder_payout(revenue, pool)))
            parts += game.more_dividend_parts(corp, revenue)
            game.log(f"{corp.sym} pays out {game.format_money(revenue)}")
            self.dividend_paid(corp, ev.DividendKind.FULL, revenue, parts, 0)
            game.market.right(corp.sym)
        else:
            if revenue:
                game.bank.spend(revenue, corp, ev.Why.REVENUE)
            game.log(f"{corp.sym} withholds {game.format_money(revenue)}")
            self.dividend_paid(corp, ev.DividendKind.WITHHELD, revenue, parts, revenue)
            game.market.left(corp.sym)

    def pay_holder(self, holder: Holder, amount: int) -> ev.HolderPart:
        """The bank pays one holder's part of a dividend."""
        self.game.bank.spend(amount, holder, ev.Why.DIVIDEND)
        return ev.HolderPart(holder.party, amount)

    def dividend_paid(self, corp: Corporation, kind: ev.DividendKind, revenue: int, parts: list[ev.HolderPart],
                      kept: int) -> None:
        """Say how a run's revenue was shared out (the payments are made)."""
        if not ev.recording_now():
            return
        per_share = self.holder_payout(revenue, corp.share_percent) if kind is ev.DividendKind.FULL else 0
        if kind is ev.DividendKind.HALF:
            per_share = self.holder_payout(revenue - kept, corp.share_percent)
        ev.emit(ev.DividendPaid(corp.sym, kind, revenue, per_share, corp.share_percent, tuple(parts), kept))

    # ------------------------------------------------------------------ emergency money
    def emergency_need(self, corp: Corporation) -> int:
        """What the company and its president together lack for the cheapest new train (0 or less: nothing)."""
        player = corp.owner
        cheapest = self.game.min_depot_price()
        if not isinstance(player, Player) or cheapest is None:
            return 0
        return cheapest - corp.cash - player.cash

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """The default of the ``emergency_bundle_legal`` hook: it must fit in the pool and may dump another
        company's presidency on a player who holds enough, but never that of ``corp`` itself, whose train is
        being bought."""
        game = self.game
        sym = shares[0].corp
        if sym not in game.market.location or any(s.owner is not player or s.corp != sym for s in shares):
            return False
        target = game.corporations[sym]
        if not units.pool_accepts(game.config.shares, target, game.pool.shares_of(sym), shares, percent):
            return False
        others = max((p.percent_of(sym) for p in game.players if p is not player), default=0)
        if sym == corp.sym and player.percent_of(sym) - percent < others:
            return False
        pres = next((s for s in shares if s.president), None)
        return pres is None or others >= pres.percent

    def emergency_bundle_needed(self, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """The default of the ``emergency_bundle_needed`` hook: 18xx.games forbids selling more than needed, so
        without its smallest certificate the sale must fall short."""
        price = self.game.market.location[shares[0].corp].price
        smallest = min(price * s.percent // 10 for s in shares)
        return price * percent // 10 - smallest < self.emergency_need(corp)

    def emergency_bundles(self, player: Player, corp: Corporation) -> list[tuple[list[Share], int]]:
        """The sales the president may make now to raise money for ``corp``'s train."""
        game = self.game
        return [(shares, percent)
                for sym in sorted({s.corp for s in player.shares})
                for shares, percent in game.shares.sell_bundles(player, game.corporations[sym])
                if game.emergency_bundle_legal(player, corp, shares, percent)
                and game.emergency_bundle_needed(corp, shares, percent)]

    def emergency_sell(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> int:
        """Sell for ``corp``'s train; returns the price per 10% share the sale was made at."""
        game = self.game
        if not game.emergency_bundle_legal(player, corp, shares, percent):
            raise illegal(f"{player.name} cannot sell {percent}% of {shares[0].corp} now")
        if not game.emergency_bundle_needed(corp, shares, percent):
            raise illegal(f"{player.name} may not sell more than is needed for {corp.sym}'s train")
        price = game.market.location[shares[0].corp].price
        game.sell_shares(player, shares, percent)
        return price

    def can_go_bankrupt(self, corp: Corporation) -> bool:
        """The default of the ``can_go_bankrupt`` hook: even selling every sellable share cannot pay for a
        train."""
        game = self.game
        if not game.must_buy_train(corp):
            return False
        player = corp.owner
        cheapest = game.min_depot_price()
        if not isinstance(player, Player) or cheapest is None:
            return False
        return corp.cash + player.cash + game.emergency_liquidity(player, corp) < cheapest

    def emergency_liquidity(self, player: Player, corp: Corporation) -> int:
        """The default of the ``emergency_liquidity`` hook: the largest sale the emergency rules allow in each
        company."""
        game = self.game
        total = 0
        for sym in {s.corp for s in player.shares}:
            cell = game.market.location.get(sym)
            if cell is None:
                continue
            bundles = game.shares.sell_bundles(player, game.corporations[sym])
            total += max((units.value(game.corporations[sym], cell.price, percent) for shares, percent in bundles
                          if game.emergency_bundle_legal(player, corp, shares, percent)), default=0)
        return total

    def go_bankrupt(self, corp: Corporation) -> None:
        """The default of the ``go_bankrupt`` hook: the president sells what the emergency rules allow, largest
        sale first in each company, and their cash goes to the bank; the company keeps its treasury (as on
        18xx.games)."""
        game = self.game
        player = corp.owner
        assert isinstance(player, Player)
        game.log(f"{player.name} goes bankrupt and sells remaining shares")
        # Companies in operating order as it stands before the sales, as on 18xx.games.
        order = sorted({s.corp for s in player.shares if s.corp in game.market.location}, key=game.market.order_key)
        for sym in order:
            while True:
                bundles = game.shares.sell_bundles(player, game.corporations[sym])
                sales = [(shares, percent) for shares, percent in bundles
                         if game.emergency_bundle_legal(player, corp, shares, percent)
                         and game.emergency_bundle_needed(corp, shares, percent)]
                if not sales:
                    break
                shares, percent = max(sales, key=lambda sale: sale[1])
                game.sell_shares(player, shares, percent)
        pay(player, game.bank, player.cash, ev.Why.BANKRUPTCY)
        player.bankrupt = True

    # ------------------------------------------------------------------ privates bought by companies
    def can_buy_company(self, corp: Corporation) -> bool:
        """The default of the ``can_buy_company`` hook: the phase allows it and ``corp`` can pay the least price
        of a private for sale."""
        game = self.game
        if not game.phase.get("can_buy_companies"):
            return False
        prices = [game.company_price_range(corp, c)[0] for c in game.companies.values() if self.company_for_sale(c)]
        return bool(prices) and min(prices) <= corp.cash

    def company_for_sale(self, company: Company) -> bool:
        """Whether corporations may buy ``company`` now that companies may buy privates: an open private a
        player owns, without a no_buy ability."""
        return not company.closed and isinstance(company.owner, Player) and not company.abilities_of(NoBuy)

    def has_turn_ability(self, corp: Corporation) -> bool:
        """The default of the ``has_turn_ability`` hook: ``corp`` owns a private with a power it may still use
        during its turn (a token or tile lay)."""
        return any(comp.owner is corp and comp.active(kind) for comp in self.game.companies.values()
                   for kind in TURN_ABILITIES)

    def corporation_buys_company(self, corp: Corporation, company: Company, price: int) -> None:
        game = self.game
        if not game.phase.get("can_buy_companies"):
            raise illegal(f"companies cannot buy privates in phase {game.phase['name']}")
        if company.closed or not isinstance(company.owner, Player):
            raise illegal(f"{company.sym} is not owned by a player")
        if company.abilities_of(NoBuy):
            raise illegal(f"{company.sym} cannot be bought by a company")
        low, high = game.company_price_range(corp, company)
        if not low <= price <= high:
            raise illegal(f"{company.sym} may be bought for {game.format_money(low)} to {game.format_money(high)}")
        if price > corp.cash:
            raise insufficient(f"{corp.sym} cannot pay {game.format_money(price)}: "
                               f"treasury {game.format_money(corp.cash)}")
        seller = company.owner
        pay(corp, seller, price, ev.Why.PRIVATE)
        seller.companies.remove(company)
        company.owner = corp
        corp.companies.append(company)
        ev.emit(ev.PrivateMoved(company.sym, seller.party, corp.party, price))
        game.log(f"{corp.sym} buys {company.sym} from {seller.name} for {game.format_money(price)}")
        game.after_company_bought(corp, company, price)
