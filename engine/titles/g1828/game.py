"""1828.Games: the title's hooks over the shared core (rules: /work/shared/rules/1828-rules.md).

Where the rules are silent, 18xx.games' implementation (title ``1828.Games``) decides; departures are listed in
docs/conformance.md. The rules live in modules named for them: ``auction``, ``market``, ``minor`` (the C&P),
``privates``, ``coal``, ``track`` and ``special_track``, ``stations``, ``routes``, ``shells``, ``systems``,
``merger_rules``, ``merger`` and ``merger_exchange``, and the rounds' steps in ``stock`` and ``operating``. This
class holds the title's state and answers the core's hooks, each by a call into those modules.
"""

from __future__ import annotations

from typing import Any

from ...core import events as ev
from ...core.actions import Action
from ...core.autoroute import TrainSpec
from ...core.board import Hex
from ...core.entities import Company, Corporation, CorporationKind, Holder, Player, Train
from ...core.errors import illegal
from ...core.game_end import EndCheck
from ...core.graph import Network
from ...core.market import Cell
from ...core.round import Round
from ...core.rounds import AuctionRound
from ...core.routes import Route
from ...core.sequence import STANDARD_PLAN
from . import coal, merger, merger_rules, minor, privates, routes, shells, stations, systems
from .auction import CompanyPendingPar1828, TieredAuction
from .market import Market1828, share_price_of
from .operating_round import OperatingRound1828
from .state import Coal1828, Game1828, Shell

CP = minor.CP


class G1828(Game1828):
    TITLE = "1828"
    EXPORT_TITLE = "1828.Games"
    DATA_PACKAGE = "engine.titles.g1828"
    # The private auction, then stock rounds and sets of operating rounds in turn (rules 5).
    ROUND_PLAN = STANDARD_PLAN

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        g = self.data()["game"]
        self.market: Market1828 = Market1828(g["market"])
        c = g["coal"]
        self.coal = Coal1828(coalfields=str(c["coalfields"]), tunnel=str(c["tunnel"]),
                             tunnel_tile=str(c["tunnel_tile"]), markers=int(c["markers"]), price=int(c["price"]))
        self.coal_on_fields = int(self.coal["markers"])
        self.shells: dict[str, list[Shell]] = {}  # a system's two shells, each with its own trains
        self.merger_of = (None, None)
        self.merge_trials = {}
        self.operated_once: set[str] = set()
        self.last_action_id = 0
        self.special_lays_used: set[tuple[str, int]] = set()
        self.tunnel_coal = True
        self.cp_token_owed: set[str] = set()
        self.lay_station_owed: dict[str, str] = {}  # a private whose lay lets its company station there: hex
        self.tokened_this_round: set[str] = set()
        self.pass_order: list[Player] = []
        self.purple_cleanup_done = False
        minor.setup_minor(self)
        privates.remove_extra_privates(self)
        if len(self.players) < 5:
            six = [t for t in self.depot if t.name == "6"][-1]
            self.depot.remove(six)
            del self.all_trains[six.id]
            self.log("Removing 6 train")
        self.track.board_changed()  # closes the coalfields to every company without a coal marker

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("merge_trials", None)  # a cache (finishable_merges): snapshots and trial copies start without it
        return state

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Round:
        return AuctionRound(self, [CompanyPendingPar1828, TieredAuction])

    def stock_round(self) -> Round:
        from .rounds import stock_round
        rnd = stock_round(self)
        if self.phase["name"] == "Purple":
            stations.remove_unparred_corporations(self)
        return rnd

    def operating_round(self, number: int) -> Round:
        from .rounds import operating_steps
        self.tokened_this_round = set()
        return OperatingRound1828(self, operating_steps(), number)

    def start_operating(self, corp: Corporation) -> None:
        if corp.kind is CorporationKind.SYSTEM:
            stations.place_system_homes(self, corp)
            return
        super().start_operating(corp)

    def reorder_players(self) -> None:
        finished = self.round
        if finished.kind == "auction":
            minor.end_auction_revenue(self)
        if finished.kind == "stock":
            order = getattr(finished, "pass_order", [])
            if order:
                self.players = [*order, *[p for p in self.players if p not in order]]
                self.log(f"{self.players[0].name} has priority deal")
            return
        super().reorder_players()

    def operating_order(self) -> list[Corporation]:
        minors = [c for c in self.corporations.values()
                  if c.kind is CorporationKind.MINOR and c.floated and not c.closed]
        majors = [c for c in self.corporations.values()
                  if c.kind is not CorporationKind.MINOR and c.floated and not c.closed]
        return minors + sorted(majors, key=lambda c: self.market.order_key(c.sym))

    def finish_stock_round(self) -> None:
        from .market import sold_out_rise
        sold_out_rise(self)

    def action_processed(self, action: Action) -> None:
        systems.check_system_floats(self)
        merger.check_merging_floats(self)
        if action.get("type") != "message":
            self.last_action_id = int(action.get("id") or 0)

    def end_checks(self) -> dict[str, EndCheck]:
        return {**super().end_checks(), "final_phase": lambda: self.phase["name"] == "Purple"}

    # ------------------------------------------------------------------ stations
    def reserved_slots(self, hx: Hex, node: int) -> dict[int, str]:
        return stations.reserved_slots(self, hx, node)

    def token_blocked_by_reservation(self, hx: Hex, corp: str) -> bool:
        return stations.blocked_by_reservation(self, hx, corp)

    # ------------------------------------------------------------------ shares and par
    def parse_price(self, text: str, *, par: bool = False) -> Cell:
        cell = super().parse_price(text, par=par)
        if par and cell not in self.market.par_cells():
            pars = ", ".join(self.format_money(c.price) for c in self.market.par_cells())
            raise illegal(f"{self.format_money(cell.price)} is not an open par price; par prices: {pars}")
        return cell

    def can_par(self, corp: Corporation, player: Player) -> bool:
        if corp.kind is not CorporationKind.MAJOR:
            return False
        return super().can_par(corp, player)

    def float_corporation(self, corp: Corporation) -> None:
        if corp.kind is CorporationKind.SYSTEM:
            corp.par_price = share_price_of(self, corp)  # a system's "par" is always its market price
        super().float_corporation(corp)

    def check_presidency(self, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
        # Nobody presides a system until someone holds its president's share's worth (18xx.games).
        if max((p.percent_of(corp.sym) for p in self.players), default=0) < corp.president_percent:
            return
        super().check_presidency(corp, previous, seller)

    def extra_holders(self, corp: Corporation | None = None) -> list[Holder]:
        # During a merger old certificates wait in the merger's boxes (discarded, exchanged, the joint IPO).
        return merger.merger_boxes(self)

    def describe(self, entity: object) -> str:
        name = getattr(entity, "name", None)
        if not isinstance(entity, (Player, Corporation, Company)) and isinstance(name, str):
            return name  # the market, the IPO, the discard in a merger
        return super().describe(entity)

    def merge_candidates(self, player: Player, corp: Corporation) -> list[Corporation]:
        """The companies ``corp`` may merge with in ``player``'s stock turn (the chat's merge command asks)."""
        return merger_rules.merge_candidates(self, player, corp)

    # ------------------------------------------------------------------ phases and events
    def event_close_companies(self) -> None:
        super().event_close_companies()
        minor.close_with_privates(self)

    def event_remove_corporations(self) -> None:
        self.log("-- Event: Unparred corporations removed at the beginning of the next stock round --")

    def phase_changed(self) -> None:
        super().phase_changed()
        colour = self.phase.get("par_colour")
        if colour and colour not in self.market.open_colours:
            self.market.open_colours.append(colour)

    # ------------------------------------------------------------------ privates
    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        super().after_buy_company(player, company, price)
        privates.bought_by_player(self, player, company)

    def can_buy_company(self, corp: Corporation) -> bool:
        return privates.can_buy_company(self, corp)

    def company_price_range(self, corp: Corporation, company: Company) -> tuple[int, int]:
        return 1, company.value * 2  # rules 13.2: from $1 to twice face value

    def after_company_bought(self, corp: Corporation, company: Company, price: int) -> None:
        privates.after_bought_by_company(self, corp, company)

    # ------------------------------------------------------------------ trains (rules 7.5.4)
    def train_limit(self, corp: Corporation) -> int:
        return shells.train_limit(self, corp)

    def crowded_corporations(self) -> list[Corporation]:
        return shells.crowded_corporations(self)

    def train_left(self, corp: Corporation, train: Train) -> None:
        shells.prune(self, corp)

    def discard_train(self, corp: Corporation, train: Train) -> None:
        super().discard_train(corp, train)
        shells.prune(self, corp)

    def other_train_price_range(self, corp: Corporation, train: Train,
                                last_sale_price: int | None = None) -> tuple[int, int]:
        """18xx.games' 1828 bounds a train bought from another company by its face value once the president has
        sold shares this turn, even when the treasury alone could pay more, and the price must still make the last
        sale necessary (so the range can be empty). Without a sale: up to the treasury, or with the president's
        help up to face value."""
        player = corp.owner
        if player is None:
            return 1, corp.cash
        most = corp.cash + player.cash
        if last_sale_price:
            return most - last_sale_price + 1, min(train.price, most)
        if corp.cash > train.price:
            return 1, corp.cash
        return 1, min(train.price, most)

    def president_may_contribute(self, corp: Corporation) -> bool:
        # A system with an empty shell may use its president's money for that shell's train (18xx.games).
        if shells.has_empty_shell(self, corp):
            return True
        return super().president_may_contribute(corp)

    def close_on_train_bought(self, corp: Corporation) -> None:
        # A system's train counts for each member: the $250 privates close when their company buys one.
        super().close_on_train_bought(corp)
        if corp.kind is CorporationKind.SYSTEM:
            for shell in self.shells.get(corp.sym, []):
                super().close_on_train_bought(self.corporations[shell.name])

    # ------------------------------------------------------------------ track and coal (rules 8, 16)
    def after_tile_laid(self, corp: Corporation, hx: Hex, tile: Any, water_crossings: int) -> None:
        coal.tunnel_laid(self, corp, hx.id)

    def board_refreshed(self) -> None:
        coal.close_coalfields(self)

    def train_groups(self, corp: Corporation) -> list[tuple[str, tuple[str, ...]]]:
        """A system's trains by shell, for the status."""
        return [(str(sh.name), tuple(t.name for t in sh.trains)) for sh in self.shells.get(corp.sym, [])]

    def hex_markers(self, hex_id: str) -> tuple[str, ...]:
        return coal.hex_markers(self, hex_id)

    def buy_coal_marker(self, corp: Corporation) -> None:
        """A coal marker bought from the Coalfields (the chat's coal command asks whether the title has one)."""
        coal.buy_marker(self, corp)

    # ------------------------------------------------------------------ dividends
    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        super().pay_dividend(corp, revenue, kind)
        self.operated_once.add(corp.sym)

    def more_dividend_parts(self, corp: Corporation, revenue: int) -> list[ev.HolderPart]:
        treasury = corp.treasury.percent_of(corp.sym)
        if not treasury:
            return []
        # A system's treasury share pays the system (rules 7.5.5).
        return [self.runs.pay_holder(corp, self.runs.holder_payout(revenue, treasury))]

    # ------------------------------------------------------------------ routes
    def network_read(self, corp: Corporation, net: Network) -> None:
        # 18xx.games remembers that a company once had a route and keeps asking it to run even after track or
        # stations cut it off (an upgrade in Dunkirk & Buffalo, a blocking marker); the rules are silent, so we
        # follow it (TrainPart.route_available), recording whenever it walks the company's track.
        if corp.sym not in self.routes_seen and net.route_possible:
            self.round.forget()  # recorded as a query reads the track: answers given before may change
            self.routes_seen.add(corp.sym)

    def remembers_routes(self) -> bool:
        return True  # see network_read()

    def route_trains(self, corp: Corporation) -> list[Train]:
        return list(corp.trains)

    def route_bonus(self, route: Route) -> int:
        return 0

    def autoroute_train_spec(self, train: Train) -> TrainSpec:
        return routes.train_spec(train)

    def best_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        return routes.with_revenue(self, corp, super().best_routes(corp))

    def route_needs_station(self, corp: Corporation) -> bool:
        # The C&P's run starts from the track it laid this turn, not from a station (rules 13.2).
        return corp.kind is not CorporationKind.MINOR

    def route_anchors(self, corp: Corporation) -> list[tuple[str, int]] | None:
        return routes.minor_anchors(self, corp)
