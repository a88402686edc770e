"""Rules for revenue and money raising: routes and dividends, emergency money, companies buying privates,
and bankruptcy. :class:`PlayRules` is the whole rule set the facade (:class:`engine.core.game.Game`) stands on;
titles override its named hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from . import events as ev
from . import shares as units
from .abilities import (
    TURN_ABILITIES,
    NoBuy,
)
from .entities import Company, Corporation, Holder, Player, Share, Train, pay
from .errors import GameError, illegal, insufficient
from .play_trains import TrainRules
from .routes import Route

if TYPE_CHECKING:
    from .autoroute import Pricing, RouteGraph, TrainSpec


class PlayRules(TrainRules):
    def recorded_run(self, action: dict[str, Any]) -> bool:
        """Whether ``action`` is a run as 18xx.games records it, with a revenue for every route, in a game that
        came from 18xx.games (option ``recorded_runs``). 18xx.games loads such a run with its recorded revenue,
        unchecked, so a route its checks of the day allowed still loads there (1822's E trains ran past their
        last station until October 2025): we take it as recorded too. Runs typed in chat carry no revenue (the
        engine prices them; ``run auto`` may carry the engine's own) and are checked in full, as is any run of a
        game begun here: there a claimed revenue that differs from the engine's is refused, so a mistyped route
        never pays."""
        if self.options.get("recorded_runs") is not True:
            return False
        routes = action.get("routes") or []
        return bool(routes) and all(isinstance(r, dict) and isinstance(r.get("revenue"), int) for r in routes)

    def recorded_route(self, train: Train, data: dict[str, Any]) -> Route:
        """A route of a recorded run (``recorded_run``) that our checks refuse, along its legs as recorded (no
        stops when even they no longer follow the track, as 18xx.games needs none); its revenue is the recorded
        one."""
        from .autoroute import trace_route
        try:
            stops = list(trace_route(self, train, data).stops)
        except GameError:
            stops = []
        hexes = [h for h, _ in stops] or [str(h) for h in data.get("hexes") or []]
        return Route(train, stops=stops, hexes=hexes, revenue=int(data.get("revenue") or 0))

    def route_trains(self, corp: Corporation) -> list[Train]:
        return list(corp.trains)

    def route_revenue(self, corp: Corporation, route: Route) -> int:
        # The same pricing as the route finder's, so that `run auto` and hand-typed routes always agree.
        from .autoroute import route_price, train_spec
        return route_price(self, route, train_spec(self, route.train))

    def best_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        """Routes (as run_routes data) with the highest revenue for the company's trains."""
        try:
            from .autoroute import best_routes_for
        except ImportError:
            return []
        return best_routes_for(self, corp)

    def route_anchors(self, corp: Corporation) -> list[tuple[str, int]] | None:
        """Title hook: the stops a route of ``corp`` must include one of, when not its stations (None)."""
        return None

    def route_needs_station(self, corp: Corporation) -> bool:
        """Title hook: whether each route must include one of the company's stations (1828's C&P need not)."""
        return True

    def has_route_bonus(self) -> bool:
        """Title hook: True when ``route_bonus`` can be more than 0 (the route finder then prices every candidate)."""
        return False

    def route_bonus(self, route: Route) -> int:
        return 0

    # The route finder's readings of a title (hooks.RouteHooks); the defaults read trains by their distance and
    # price routes with ``route_bonus``.
    def autoroute_train_spec(self, train: Train) -> TrainSpec | None:
        return None

    def autoroute_pricing(self, graph: RouteGraph) -> Pricing | None:
        return None

    def autoroute_tile_once(self) -> frozenset[str] | None:
        return None

    def autoroute_single_stop_hexes(self) -> frozenset[str]:
        return frozenset()

    def run_revenue(self, corp: Corporation, routes: list[dict[str, Any]]) -> int | None:
        """Title hook: for a title whose run step traces and prices runs itself (1822), the revenue of these
        run_routes routes, raising GameError for an illegal one; None: the core traces and prices them."""
        return None

    # Titles with half pay (1822) or other splits extend this and ``pay_dividend``.
    DIVIDEND_KINDS: ClassVar[tuple[str, ...]] = ("payout", "withhold")

    def dividend_kinds(self, corp: Corporation) -> tuple[str, ...]:
        return self.DIVIDEND_KINDS

    @staticmethod
    def holder_payout(revenue: int, percent: int) -> int:
        """A holder's part of a payout, rounded up as 18xx.games does; works for 10% and 5% shares alike."""
        return -(-revenue * percent // 100)

    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        corp.last_revenue = revenue
        parts: list[ev.HolderPart] = []
        if kind == "payout" and revenue > 0:
            for p in self.players:
                percent = p.percent_of(corp.sym)
                if percent:
                    parts.append(self.pay_holder(p, self.holder_payout(revenue, percent)))
            # Pool shares pay the company itself; IPO shares pay nobody (1882 rules, dividends).
            pool = self.pool.percent_of(corp.sym)
            if pool:
                parts.append(self.pay_holder(corp, self.holder_payout(revenue, pool)))
            parts += self.more_dividend_parts(corp, revenue)
            self.log(f"{corp.sym} pays out {self.format_money(revenue)}")
            self.dividend_paid(corp, ev.DividendKind.FULL, revenue, parts, 0)
            self.market.right(corp.sym)
        else:
            if revenue:
                self.bank.spend(revenue, corp, ev.Why.REVENUE)
            self.log(f"{corp.sym} withholds {self.format_money(revenue)}")
            self.dividend_paid(corp, ev.DividendKind.WITHHELD, revenue, parts, revenue)
            self.market.left(corp.sym)

    def routes_run(self, corp: Corporation, routes: list[Route]) -> None:
        """Say what each train ran: its stops with their values now, and its revenue."""
        colour = self.phase_colour()
        for route in routes:
            stops = tuple(ev.Stop(hex_id, self.board.node_revenue(self.board.hexes[hex_id], node, colour))
                          for hex_id, node in route.stops)
            ev.emit(ev.RouteRun(corp.sym, route.train.name, stops, route.revenue))

    def more_dividend_parts(self, corp: Corporation, revenue: int) -> list[ev.HolderPart]:
        """Title hook: pay the holders a payout pays besides players and the pool (1828's treasury share)."""
        return []

    def pay_holder(self, holder: Holder, amount: int) -> ev.HolderPart:
        """The bank pays one holder's part of a dividend."""
        self.bank.spend(amount, holder, ev.Why.DIVIDEND)
        return ev.HolderPart(holder.party, amount)

    def dividend_paid(self, corp: Corporation, kind: ev.DividendKind, revenue: int, parts: list[ev.HolderPart],
                      kept: int) -> None:
        """Say how a run's revenue was shared out (the payments are made)."""
        per_share = self.holder_payout(revenue, corp.share_percent) if kind is ev.DividendKind.FULL else 0
        if kind is ev.DividendKind.HALF:
            per_share = self.holder_payout(revenue - kept, corp.share_percent)
        ev.emit(ev.DividendPaid(corp.sym, kind, revenue, per_share, corp.share_percent, tuple(parts), kept))

    def min_depot_price(self) -> int | None:
        """What a forced purchase must raise: the cheapest train of the depot and the pool, as 18xx.games' depot
        counts its discarded trains (titles whose discards leave the game keep the pool empty)."""
        prices = [t.price for t in [*self.available_depot_trains(), *self.pool_trains]]
        return min(prices) if prices else None

    def emergency_need(self, corp: Corporation) -> int:
        """What the company and its president together lack for the cheapest new train (0 or less: nothing)."""
        player = corp.owner
        cheapest = self.min_depot_price()
        if not isinstance(player, Player) or cheapest is None:
            return 0
        return cheapest - corp.cash - player.cash

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """A sale the president may make to raise money for ``corp``'s train, leaving aside how much is needed.

        It must fit in the pool and may dump another company's presidency on a player who holds enough, but
        never that of ``corp`` itself, whose train is being bought.
        """
        sym = shares[0].corp
        if sym not in self.market.location or any(s.owner is not player or s.corp != sym for s in shares):
            return False
        target = self.corporations[sym]
        if not units.pool_accepts(self.config.shares, target, self.pool.shares_of(sym), shares, percent):
            return False
        others = max((p.percent_of(sym) for p in self.players if p is not player), default=0)
        if sym == corp.sym and player.percent_of(sym) - percent < others:
            return False
        pres = next((s for s in shares if s.president), None)
        return pres is None or others >= pres.percent

    def emergency_bundle_needed(self, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """18xx.games forbids selling more than needed: without its smallest certificate the sale must fall short."""
        price = self.market.location[shares[0].corp].price
        smallest = min(price * s.percent // 10 for s in shares)
        return price * percent // 10 - smallest < self.emergency_need(corp)

    def emergency_bundles(self, player: Player, corp: Corporation) -> list[tuple[list[Share], int]]:
        """The sales the president may make now to raise money for ``corp``'s train."""
        return [(shares, percent)
                for sym in sorted({s.corp for s in player.shares})
                for shares, percent in self.sell_bundles(player, self.corporations[sym])
                if self.emergency_bundle_legal(player, corp, shares, percent)
                and self.emergency_bundle_needed(corp, shares, percent)]

    def emergency_sell(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> int:
        """Sell for ``corp``'s train; returns the price per 10% share the sale was made at."""
        if not self.emergency_bundle_legal(player, corp, shares, percent):
            raise illegal(f"{player.name} cannot sell {percent}% of {shares[0].corp} now")
        if not self.emergency_bundle_needed(corp, shares, percent):
            raise illegal(f"{player.name} may not sell more than is needed for {corp.sym}'s train")
        price = self.market.location[shares[0].corp].price
        self.sell_shares(player, shares, percent)
        return price

    def can_buy_company(self, corp: Corporation) -> bool:
        if not self.phase.get("can_buy_companies"):
            return False
        prices = [self.company_price_range(corp, c)[0] for c in self.companies.values() if self.company_for_sale(c)]
        return bool(prices) and min(prices) <= corp.cash

    def company_price_range(self, corp: Corporation, company: Company) -> tuple[int, int]:
        """Title hook: what a company may pay a player for ``company``; half to twice its face value by default."""
        return (company.value + 1) // 2, company.value * 2

    def company_for_sale(self, company: Company) -> bool:
        """Whether corporations may buy ``company`` now that companies may buy privates: an open private a
        player owns, without a no_buy ability."""
        return not company.closed and isinstance(company.owner, Player) and not company.abilities_of(NoBuy)

    def has_turn_ability(self, corp: Corporation) -> bool:
        """The company owns a private with a power it may still use during its turn (a token or tile lay)."""
        return any(comp.owner is corp and comp.active(kind) for comp in self.companies.values()
                   for kind in TURN_ABILITIES)

    def corporation_buys_company(self, corp: Corporation, company: Company, price: int) -> None:
        if not self.phase.get("can_buy_companies"):
            raise illegal(f"companies cannot buy privates in phase {self.phase['name']}")
        if company.closed or not isinstance(company.owner, Player):
            raise illegal(f"{company.sym} is not owned by a player")
        if company.abilities_of(NoBuy):
            raise illegal(f"{company.sym} cannot be bought by a company")
        low, high = self.company_price_range(corp, company)
        if not low <= price <= high:
            raise illegal(f"{company.sym} may be bought for {self.format_money(low)} to {self.format_money(high)}")
        if price > corp.cash:
            raise insufficient(f"{corp.sym} cannot pay {self.format_money(price)}: "
                               f"treasury {self.format_money(corp.cash)}")
        seller = company.owner
        pay(corp, seller, price, ev.Why.PRIVATE)
        seller.companies.remove(company)
        company.owner = corp
        corp.companies.append(company)
        ev.emit(ev.PrivateMoved(company.sym, seller.party, corp.party, price))
        self.log(f"{corp.sym} buys {company.sym} from {seller.name} for {self.format_money(price)}")
        self.after_company_bought(corp, company, price)

    def after_company_bought(self, corp: Corporation, company: Company, price: int) -> None:
        """Title hook: after ``corp`` bought ``company`` from a player (what the private brings with it)."""

    def can_go_bankrupt(self, corp: Corporation) -> bool:
        """Bankruptcy is declared when even selling every sellable share cannot pay for a train."""
        if not self.must_buy_train(corp):
            return False
        player = corp.owner
        cheapest = self.min_depot_price()
        if not isinstance(player, Player) or cheapest is None:
            return False
        return corp.cash + player.cash + self.emergency_liquidity(player, corp) < cheapest

    def emergency_liquidity(self, player: Player, corp: Corporation) -> int:
        """What the president could raise: the largest sale the emergency rules allow in each company."""
        total = 0
        for sym in {s.corp for s in player.shares}:
            cell = self.market.location.get(sym)
            if cell is None:
                continue
            bundles = self.sell_bundles(player, self.corporations[sym])
            total += max((units.value(self.corporations[sym], cell.price, percent) for shares, percent in bundles
                          if self.emergency_bundle_legal(player, corp, shares, percent)), default=0)
        return total

    def go_bankrupt(self, corp: Corporation) -> None:
        """The president sells what the emergency rules allow, largest sale first in each company, and their
        cash goes to the bank; the company keeps its treasury (as on 18xx.games)."""
        player = corp.owner
        assert isinstance(player, Player)
        self.log(f"{player.name} goes bankrupt and sells remaining shares")
        # Companies in operating order as it stands before the sales, as on 18xx.games.
        order = sorted({s.corp for s in player.shares if s.corp in self.market.location}, key=self.market.order_key)
        for sym in order:
            while True:
                sales = [(shares, percent) for shares, percent in self.sell_bundles(player, self.corporations[sym])
                         if self.emergency_bundle_legal(player, corp, shares, percent)
                         and self.emergency_bundle_needed(corp, shares, percent)]
                if not sales:
                    break
                shares, percent = max(sales, key=lambda sale: sale[1])
                self.sell_shares(player, shares, percent)
        pay(player, self.bank, player.cash, ev.Why.BANKRUPTCY)
        player.bankrupt = True
