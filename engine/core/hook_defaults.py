"""The default of every declared hook (engine/core/hooks.py): what a title that changes nothing gets.

Most defaults hand the question to the part that holds the rule (``shares``, ``track``, ``trains``, ``runs``);
a title implements a hook by defining it again on its game class, and nothing else of the core.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from . import events as ev
from .board import Hex
from .entities import Company, Corporation, Holder, Player, Share, Token, Train
from .flow import RoundState
from .game_end import EndCheck, EndTrigger, any_player_bankrupt, bank_broken, met, stock_market_end_reached
from .market import Cell
from .play import RunPart
from .play_shares import SharePart
from .play_track import TrackPart
from .play_trains import TrainPart
from .sequence import OPERATING, STANDARD_PLAN, STOCK, Next, RoundPlan, after_last_to_act
from .state import GameState
from .tiles import Tile
from .track import border_cost, crossing_cost, legal_rotations

if TYPE_CHECKING:
    from .autoroute import Pricing, RouteGraph, TrainSpec
    from .graph import Network
    from .routes import Route


class HookDefaults(GameState):
    """The defaults of the game's hooks. :class:`engine.core.game.Game` stands on this and adds the machinery
    (building the state, applying actions, driving the rounds)."""

    # The rule areas the game owns (each typed against a protocol of what it reads of the game), made by the game.
    shares: SharePart
    track: TrackPart
    trains: TrainPart
    runs: RunPart

    dynamic_operating_order: ClassVar[bool] = True
    # The round cycle (engine/core/sequence.py); a title with other rounds supplies its own plan.
    ROUND_PLAN: ClassVar[RoundPlan] = STANDARD_PLAN
    CHECKPOINT_EVERY: ClassVar[int] = 25  # actions between undo checkpoints (engine/core/game.py)

    # ------------------------------------------------------------------ setup, round plan and end
    def in_game(self, entry: dict[str, Any]) -> bool:
        """Title hook: whether a ``[[corporations]]`` or ``[[companies]]`` entry takes part in this game (1822's
        optional rules add some)."""
        return True

    def setup(self) -> None:
        """Title hook: after entities exist, before the first round."""

    def initial_round(self) -> RoundState:
        raise NotImplementedError

    def action_processed(self, action: dict[str, Any]) -> None:
        """Title hook after every processed action."""

    def game_end_timing(self) -> EndTrigger | None:
        """The met end condition that ends the game soonest: (reason, timing), or None."""
        return met(self.end_conditions, self.end_checks(), self.end_latch)

    def end_checks(self) -> dict[str, EndCheck]:
        """Title hook: the named checks the ``[game_end]`` reasons refer to. A title adds its own reasons
        (``{**super().end_checks(), "final_phase": ...}``); a check must stay true once it is."""
        return {
            "bankrupt": lambda: any_player_bankrupt(self.players),
            "bank": lambda: bank_broken(self.bank),
            "stock_market": lambda: stock_market_end_reached(self.market),
        }

    def before_game_end(self, reason: str) -> None:
        """Title hook: what happens as the game ends for ``reason``, before the scores (1862 repays debts)."""

    def next_in_plan(self, finished: RoundState) -> Next:
        """Title hook: the round that follows ``finished`` (at the end of a set of operating rounds, what
        follows the set). The plan answers; a title whose next round depends on the state overrides this."""
        return self.ROUND_PLAN.next_after(finished.kind)

    def new_round(self, kind: str, number: int) -> RoundState:
        """Title hook: build the round of ``kind`` the plan calls for. The core knows the stock and operating
        rounds and the plan's initial one; a title with rounds of other kinds builds those itself."""
        if kind == STOCK:
            return self.stock_round()
        if kind == OPERATING:
            return self.operating_round(number)
        if kind == self.ROUND_PLAN.initial:
            return self.initial_round()
        raise NotImplementedError(f"{self.TITLE} has no {kind} round")

    def operating_rounds_in_set(self) -> int:
        """Title hook: how many operating rounds the set starting now has."""
        return int(self.phase["operating_rounds"])

    def finish_stock_round(self) -> None:
        """Companies wholly held by players rise one row (rules §10.5), in operating order."""
        for corp in self.operating_order():
            if sum(p.percent_of(corp.sym) for p in self.players) == 100:
                self.market.up(corp.sym)
                price = self.market.location[corp.sym].price
                self.log(f"{corp.sym} is sold out and rises to {self.format_money(price)}")

    def reorder_players(self) -> None:
        """Title hook: the priority deal, when the plan passes it on; by default to the player after the
        last to act in the round just finished."""
        order = after_last_to_act(self.players, self.round.entity_index)
        if order is None:
            return
        self.players = order
        self.log(f"{order[0].name} has priority deal")

    def stock_round(self) -> RoundState:
        raise NotImplementedError

    def operating_round(self, number: int) -> RoundState:
        raise NotImplementedError

    def or_round_finished(self) -> None:
        pass

    def or_set_finished(self) -> None:
        pass

    def operating_order(self) -> list[Corporation]:
        floated = [c for c in self.corporations.values() if c.floated and not c.closed]
        return sorted(floated, key=lambda c: self.market.order_key(c.sym))

    def start_operating(self, corp: Corporation) -> None:
        self.track.place_home_token(corp)

    def after_operating(self, corp: Corporation) -> None:
        pass

    # ------------------------------------------------------------------ shares and privates
    # The hooks of hooks.ShareHooks; their machinery is ``self.shares`` (engine/core/play_shares.py), which holds the
    # longer defaults.
    MIN_BID_INCREMENT: ClassVar[int] = 5
    # Whether a bid must rise by whole multiples of MIN_BID_INCREMENT (1882), or may be any amount at least that
    # much above the last (1830, as 18xx.games' MUST_BID_INCREMENT_MULTIPLE).
    BIDS_IN_STEPS: ClassVar[bool] = True
    SELL_AFTER_FIRST_SR: ClassVar[bool] = True

    def can_par(self, corp: Corporation, player: Player) -> bool:
        return self.shares.can_par(corp, player)

    def par_cost(self, corp: Corporation, price: int) -> int:
        return self.shares.par_cost(corp, price)

    def after_par(self, player: Player, corp: Corporation) -> None:
        pass

    def share_payee(self, corp: Corporation, receiver: Holder | None) -> Holder | None:
        return receiver

    def float_corporation(self, corp: Corporation) -> None:
        self.shares.float_corporation(corp)

    def check_presidency(self, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
        self.shares.check_presidency(corp, previous, seller)

    def num_certs(self, player: Player) -> float:
        return self.shares.num_certs(player)

    def parse_price(self, text: str, *, par: bool = False) -> Cell:
        return self.shares.parse_price(text, par=par)

    def sell_shares(self, seller: Player, shares: list[Share], percent: int | None = None) -> int:
        return self.shares.sell_shares(seller, shares, percent)

    def payout_companies(self) -> None:
        for comp in self.companies.values():
            if comp.closed or comp.owner is None or comp.revenue <= 0:
                continue
            self.bank.spend(comp.revenue, comp.owner)
            self.log(f"{comp.owner.name} collects {self.format_money(comp.revenue)} from {comp.sym}")

    def player_value(self, player: Player) -> int:
        return self.shares.player_value(player)

    def private_worth(self, player: Player) -> int:
        """Face values."""
        return sum(c.value for c in player.companies if not c.closed)

    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        self.shares.after_buy_company(player, company, price)

    # ------------------------------------------------------------------ track and stations
    # The hooks of hooks.TrackHooks; their machinery is ``self.track`` (engine/core/play_track.py), which holds the
    # longer defaults.
    def tile_lays(self) -> list[dict[str, Any]]:
        return [{"lay": True, "upgrade": True}]

    def can_lay_track(self, corp: Corporation) -> bool:
        return any(t.used for t in corp.tokens)

    def lay_crossings(self, corp: Corporation, hx: Hex, tile: Tile) -> tuple[int, int]:
        """A crossing is paid when it completes track on both sides."""
        return border_cost(self, hx, tile)

    def crossing_estimate(self, corp: Corporation, hx: Hex, exits: frozenset[int]) -> int:
        return crossing_cost(self, hx, exits)

    def tile_rotations(self, corp: Corporation, hx: Hex, tdef: Any, edges: set[int] | None) -> list[int]:
        return legal_rotations(self, hx, tdef, edges)

    def upgrade_cost(self, corp: Corporation, hx: Hex, tile: Tile) -> int:
        """The printed hex's terrain on its first lay, later the printed upgrade cost of the tile being replaced."""
        return hx.terrain_cost if hx.tile is hx.original else hx.tile.tdef.upgrade_cost

    def after_tile_laid(self, corp: Corporation, hx: Hex, tile: Tile, water_crossings: int) -> None:
        pass

    def board_refreshed(self) -> None:
        pass

    def network_read(self, corp: Corporation, net: Network) -> None:
        pass

    def remembers_routes(self) -> bool:
        return False

    def can_place_token(self, corp: Corporation) -> bool:
        return self.track.can_place_token(corp)

    def may_replace_neutral(self, corp: Corporation) -> bool:
        return False

    def after_home_token(self, corp: Corporation) -> None:
        pass

    def station_surcharge(self, corp: Corporation, token: Token, hx: Hex) -> int:
        return 0

    def home_node(self, corp: Corporation, hx: Hex) -> int:
        """The city its ``home_city`` names, or the first."""
        cities = hx.tile.tdef.cities
        return cities[corp.home_city or 0] if corp.home_city is not None else cities[0]

    def reserved_slots(self, hx: Hex, node: int) -> dict[int, str]:
        return self.track.reserved_slots(hx, node)

    def token_blocked_by_reservation(self, hx: Hex, corp: str) -> bool:
        return self.track.token_blocked_by_reservation(hx, corp)

    def can_token_city(self, corp: Corporation, hx: Hex, node: int, token: Token | None = None) -> bool:
        return self.track.can_token_city(corp, hx, node, token)

    # ------------------------------------------------------------------ trains and phases
    # The hooks of hooks.TrainHooks; their machinery is ``self.trains`` (engine/core/play_trains.py), which holds
    # the longer defaults.
    def train_limit(self, corp: Corporation) -> int:
        return int(self.phase["train_limit"])

    def must_buy_train(self, corp: Corporation) -> bool:
        return not corp.trains and (corp.sym in self.routes_seen or self.track.reach(corp).route_possible)

    def president_may_contribute(self, corp: Corporation) -> bool:
        return self.must_buy_train(corp)

    def other_train_price_range(self, corp: Corporation, train: Train,
                                last_sale_price: int | None = None) -> tuple[int, int]:
        return self.trains.other_train_price_range(corp, train, last_sale_price)

    def trade_in(self, train: Train) -> None:
        train.owner = None
        self.log(f"{train.name} train is traded in")

    def discard_train(self, corp: Corporation, train: Train) -> None:
        self.trains.discard_train(corp, train)

    def crowded_corporations(self) -> list[Corporation]:
        # len(trains) bounds the trains that count, and is cheap: this is asked after almost every action (a company
        # without trains is passed over before its limit is looked up).
        if type(self).train_limit is HookDefaults.train_limit:  # one limit for every company: read it once
            out: list[Corporation] = []
            limit: int | None = None
            for c in self.corporations.values():
                if c.trains:
                    if limit is None:
                        limit = self.train_limit(c)
                    if len(c.trains) > limit and c.trains_in_limit() > limit:
                        out.append(c)
            return out
        return [c for c in self.corporations.values()
                if c.trains and len(c.trains) > self.train_limit(c) and c.trains_in_limit() > self.train_limit(c)]

    def before_train_purchase(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None,
                              must_buy: bool) -> None:
        pass

    def on_new_train(self, corp: Corporation, train: Train) -> None:
        self.trains.on_new_train(corp, train)

    def train_left(self, corp: Corporation, train: Train) -> None:
        pass

    def phase_changed(self) -> None:
        self.trains.phase_changed()

    def close_on_train_bought(self, corp: Corporation) -> None:
        self.trains.close_on_train_bought(corp)

    def run_event(self, event: str, corp: Corporation | None, train: Train | None) -> None:
        handler = getattr(self, f"event_{event}", None)
        if handler is not None:
            handler()

    def event_close_companies(self) -> None:
        self.trains.close_companies()

    # ------------------------------------------------------------------ runs, dividends, money and privates
    # The hooks of hooks.RouteHooks, DividendHooks, MoneyHooks and PrivateHooks; their machinery is ``self.runs``
    # (engine/core/play.py), which holds the longer defaults.
    def route_trains(self, corp: Corporation) -> list[Train]:
        return list(corp.trains)

    def route_revenue(self, corp: Corporation, route: Route) -> int:
        # The same pricing as the route finder's, so that `run auto` and hand-typed routes always agree.
        from .autoroute import route_price, train_spec
        return route_price(self, route, train_spec(self, route.train))

    def best_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        """Routes (as run_routes data) with the highest revenue for the company's trains."""
        from .autoroute import best_routes_for
        return best_routes_for(self, corp)

    def route_anchors(self, corp: Corporation) -> list[tuple[str, int]] | None:
        return None

    def route_needs_station(self, corp: Corporation) -> bool:
        return True

    def has_route_bonus(self) -> bool:
        return False

    def route_bonus(self, route: Route) -> int:
        return 0

    # The route finder's readings of a title; the defaults read trains by their distance and price routes with
    # ``route_bonus``.
    def autoroute_train_spec(self, train: Train) -> TrainSpec | None:
        return None

    def autoroute_pricing(self, graph: RouteGraph) -> Pricing | None:
        return None

    def autoroute_tile_once(self) -> frozenset[str] | None:
        return None

    def autoroute_single_stop_hexes(self) -> frozenset[str]:
        return frozenset()

    def run_revenue(self, corp: Corporation, routes: list[dict[str, Any]]) -> int | None:
        return None

    # Titles with half pay (1822) or other splits extend this and ``pay_dividend``.
    DIVIDEND_KINDS: ClassVar[tuple[str, ...]] = ("payout", "withhold")

    def dividend_kinds(self, corp: Corporation) -> tuple[str, ...]:
        return self.DIVIDEND_KINDS

    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        self.runs.pay_dividend(corp, revenue, kind)

    def more_dividend_parts(self, corp: Corporation, revenue: int) -> list[ev.HolderPart]:
        return []

    def min_depot_price(self) -> int | None:
        """The cheapest train of the depot and the pool, as 18xx.games' depot counts its discarded trains
        (titles whose discards leave the game keep the pool empty)."""
        prices = [t.price for t in [*self.trains.available_depot_trains(), *self.pool_trains]]
        return min(prices) if prices else None

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> bool:
        return self.runs.emergency_bundle_legal(player, corp, shares, percent)

    def emergency_bundle_needed(self, corp: Corporation, shares: list[Share], percent: int) -> bool:
        return self.runs.emergency_bundle_needed(corp, shares, percent)

    def emergency_liquidity(self, player: Player, corp: Corporation) -> int:
        return self.runs.emergency_liquidity(player, corp)

    def can_go_bankrupt(self, corp: Corporation) -> bool:
        return self.runs.can_go_bankrupt(corp)

    def go_bankrupt(self, corp: Corporation) -> None:
        self.runs.go_bankrupt(corp)

    def can_buy_company(self, corp: Corporation) -> bool:
        return self.runs.can_buy_company(corp)

    def company_price_range(self, corp: Corporation, company: Company) -> tuple[int, int]:
        """Half to twice the private's face value."""
        return (company.value + 1) // 2, company.value * 2

    def has_turn_ability(self, corp: Corporation) -> bool:
        return self.runs.has_turn_ability(corp)

    def after_company_bought(self, corp: Corporation, company: Company, price: int) -> None:
        pass

    # ------------------------------------------------------------------ the title's concepts in views
    # (hooks.ViewHooks; engine/core/viewbuild.py reads them, and titles without such concepts keep these.)
    def hex_markers(self, hex_id: str) -> Sequence[str]:
        return ()

    def train_groups(self, corp: Corporation) -> list[tuple[str, tuple[str, ...]]]:
        return []

    def bidbox_companies(self) -> list[Company]:
        return []

    @classmethod
    def edition_label(cls) -> str:
        return str(cls.data()["game"].get("edition_label", ""))

    def standing_bids(self) -> dict[str, list[tuple[Any, int]]]:
        return {}

    def committed_cash(self, player: Player) -> int:
        return 0

    def company_value(self, company: Company) -> int:
        return int(company.value)
