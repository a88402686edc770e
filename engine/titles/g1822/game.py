"""1822 The Railways of Great Britain: the title's hooks over the shared core (18xx.games' g_1822 is the
authority for every rule; /work/shared/rules/1822-reference.md gives the shape).

The bid boxes, the minors they float, the concessions that start majors and the privates are companies; a minor
is a corporation of kind ``minor`` whose one certificate is two shares. The stock round takes bids (steps.py) and
resolves them at its end (bidboxes.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core import events as ev
from ...core.board import Hex
from ...core.entities import Company, Corporation, Holder, Player, Share, Token, Train
from ...core.flow import RoundState
from ...core.game_end import EndTrigger
from ...core.sequence import OPERATING, STOCK, Next, RoundPlan
from ...core.tiles import Tile, TileDef, TokenKind
from . import (
    bidboxes,
    destinations,
    dividends,
    holdings,
    london,
    majors,
    optional_rules,
    privates,
    stations,
    steps,
    tax_haven,
    track,
    track_powers,
    trains,
    turn_order,
)
from . import routes as route_rules
from .market import Market1822
from .optional_rules import OPTIONAL_RULES
from .state import Game1822, TaxHaven
from .tax_haven import TAX_HAVEN
from .trains import PULLMAN

if TYPE_CHECKING:
    from ...core.autoroute import Pricing, RouteGraph, TrainSpec

CHOICES = "choices"


class G1822(Game1822):
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

    def in_game(self, entry: dict[str, Any]) -> bool:
        return not entry.get("plus") or optional_rules.plus(self)

    @property
    def phase(self) -> dict[str, Any]:
        return track_powers.laying_phase(self)

    def setup(self) -> None:
        g: dict[str, Any] = self.data()["game"]
        self.market = Market1822(g["market"])
        self.rules = g["rules"]
        self.bidding = g["bidding"]
        self.bid_tokens = int(self.bidding["tokens"][str(len(self.players))])
        self.nothing_sold = True
        self.double_cash_choice = None
        self.phase_revenue_cash = {sym: 0 for sym in ("P15", "P20") if sym in self.companies}
        self.tax_haven = TaxHaven()
        self.exchange_tokens = {sym: int(n) for sym, n in self.rules["exchange_tokens"].items()}
        self.bidbox_minor_cache = []
        self.bids = {}
        self.history = {}
        self.egr_choice = {}
        self.acquired_this_round = set()
        self.track_left = {}
        self.laying_private = None
        self.free_tokens_used = set()
        self.selling = set()
        self.fully_capitalised = set()
        bidboxes.setup_stacks(self)
        for corp in self.corporations.values():
            if corp.data.get("destination"):
                corp.tokens.append(Token(corp.sym, 0, kind=TokenKind.DESTINATION))

    def initial_round(self) -> RoundState:
        return self.stock_round()

    def new_round(self, kind: str, number: int) -> RoundState:
        if kind == CHOICES:
            return steps.choices_round(self)
        return super().new_round(kind, number)

    def stock_round(self) -> RoundState:
        return steps.stock_round(self)

    def operating_round(self, number: int) -> RoundState:
        return steps.operating_round(self, number)

    def bidbox_companies(self) -> list[Company]:
        return bidboxes.bidbox_companies(self)

    def standing_bids(self) -> dict[str, list[tuple[Any, int]]]:
        return dict(self.bids)

    def committed_cash(self, player: Player) -> int:
        return bidboxes.committed_cash(self, player)

    def on_new_train(self, corp: Corporation, train: Train) -> None:
        trains.on_new_train(self, corp, train)

    def finish_stock_round(self) -> None:
        bidboxes.finish_stock_round(self)

    def remembers_routes(self) -> bool:
        return True  # see Route1822

    def game_end_timing(self) -> EndTrigger | None:
        return turn_order.game_end_timing(self)

    def reorder_players(self) -> None:
        turn_order.reorder_players(self)

    def operating_order(self) -> list[Corporation]:
        return turn_order.operating_order(self)

    def train_limit(self, corp: Corporation) -> int:
        return trains.train_limit(self, corp)

    def num_certs(self, player: Player) -> float:
        return holdings.num_certs(self, player)

    def player_value(self, player: Player) -> int:
        return holdings.player_value(self, player)

    def private_worth(self, player: Player) -> int:
        return holdings.private_worth(self, player)

    def sell_shares(self, seller: Player, shares: list[Share], percent: int | None = None) -> int:
        return holdings.sell_shares(self, seller, shares, percent)

    def check_presidency(self, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
        holdings.check_presidency(self, corp, previous, seller)

    def extra_holders(self, corp: Corporation | None = None) -> list[Holder]:
        return [self.tax_haven]

    def cash_aside(self) -> dict[ev.Party, int]:
        return privates.cash_aside(self)

    def company_value(self, company: Company) -> int:
        return tax_haven.company_value(self, company)

    def payout_companies(self) -> None:
        privates.payout_companies(self)

    def can_par(self, corp: Corporation, player: Player) -> bool:
        return majors.can_par(self, corp, player)

    def share_payee(self, corp: Corporation, receiver: Holder | None) -> Holder | None:
        return majors.share_payee(self, corp, receiver)

    def float_corporation(self, corp: Corporation) -> None:
        majors.float_corporation(self, corp)

    def after_home_token(self, corp: Corporation) -> None:
        destinations.after_home_token(self, corp)

    def upgrade_cost(self, corp: Corporation, hx: Hex, tile: Tile) -> int:
        return track.upgrade_cost(self, corp, hx, tile)

    def lay_crossings(self, corp: Corporation, hx: Hex, tile: Tile) -> tuple[int, int]:
        return track.lay_crossings(self, corp, hx, tile)

    def crossing_estimate(self, corp: Corporation, hx: Hex, exits: frozenset[int]) -> int:
        return track.crossing_estimate(self, corp, hx, exits)

    def tile_rotations(self, corp: Corporation, hx: Hex, tdef: TileDef, edges: set[int] | None) -> list[int]:
        return london.tile_rotations(self, corp, hx, tdef, edges)

    def after_tile_laid(self, corp: Corporation, hx: Hex, tile: Tile, water_crossings: int) -> None:
        track.after_tile_laid(self, corp, hx, tile, water_crossings)

    def crowded_corporations(self) -> list[Corporation]:
        return trains.crowded_corporations(self)

    def discard_train(self, corp: Corporation, train: Train) -> None:
        trains.discard_train(self, corp, train)

    def can_place_token(self, corp: Corporation) -> bool:
        return stations.can_place_token(self, corp)

    def can_token_city(self, corp: Corporation, hx: Hex, node: int, token: Token | None = None) -> bool:
        return london.can_token_city(self, corp, hx, node, token)

    def token_blocked_by_reservation(self, hx: Hex, corp: str) -> bool:
        return london.token_blocked_by_reservation(self, hx, corp)

    def can_lay_track(self, corp: Corporation) -> bool:
        return any(t.used for t in corp.tokens)

    def route_trains(self, corp: Corporation) -> list[Train]:
        return [t for t in corp.trains if t.name != PULLMAN]

    def must_buy_train(self, corp: Corporation) -> bool:
        return trains.must_buy_train(self, corp)

    def president_may_contribute(self, corp: Corporation) -> bool:
        return self.must_buy_train(corp)

    def before_train_purchase(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None,
                              must_buy: bool) -> None:
        trains.before_train_purchase(self, corp, train, price, exchange=exchange, must_buy=must_buy)

    def other_train_price_range(self, corp: Corporation, train: Train,
                                last_sale_price: int | None = None) -> tuple[int, int]:
        # 18xx.games: the president never adds money for another company's train, so the treasury alone pays,
        # at any price from 1 up to all it has (above or below the face value).
        return 1, corp.cash

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> bool:
        return holdings.emergency_bundle_legal(self, player, corp, shares, percent)

    def pay_dividend(self, corp: Corporation, revenue: int, kind: str,
                     extra: tuple[int, str | None] | None = None, subsidy: int = 0) -> None:
        dividends.pay_dividend(self, corp, revenue, kind, extra, subsidy)

    def autoroute_train_spec(self, train: Train) -> TrainSpec | None:
        return route_rules.autoroute_train_spec(self, train)

    def autoroute_single_stop_hexes(self) -> frozenset[str]:
        return london.autoroute_single_stop_hexes(self)

    def autoroute_pricing(self, graph: RouteGraph) -> Pricing:
        return destinations.autoroute_pricing(self, graph)

    def run_revenue(self, corp: Corporation, routes: list[dict[str, Any]]) -> int:
        return route_rules.run_revenue(self, corp, routes)

    def run_event(self, event: str, corp: Corporation | None, train: Train | None) -> None:
        handler = EVENTS.get(event)
        if handler is None:
            super().run_event(event, corp, train)
        else:
            handler(self)


# The title's train events, by the name the trains give them.
EVENTS: dict[str, Callable[[G1822], None]] = {
    "close_concessions": majors.event_close_concessions,
    "full_capitalisation": majors.event_full_capitalisation,
    "phase_revenue": privates.event_phase_revenue,
}
