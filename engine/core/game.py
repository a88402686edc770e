"""The facade of one game: it builds the state, applies actions, drives the rounds, owns the parts that hold the
rules every title shares (``shares``, ``track``, ``trains``, ``runs``) and holds the default of every declared hook.

A game is a title, a seed, players and an append-only action log; the state is the replay of
the standing actions. Titles subclass :class:`Game`, load their data files and implement hooks (engine/core/hooks.py).
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from . import actions as act
from . import events as ev
from .abilities import Exchange, ExchangeFrom, Shares, parse_abilities
from .board import Board, Hex
from .config import TitleConfig
from .entities import Bank, Company, Corporation, Holder, Player, Share, SharePool, Token, Train
from .errors import DataError, ErrorCode, GameError, illegal, malformed, not_your_turn
from .flow import RoundState
from .game_end import (
    EndCheck,
    EndConditions,
    EndLatch,
    EndTiming,
    EndTrigger,
    any_player_bankrupt,
    bank_broken,
    end_now,
    end_reason_text,
    met,
    stock_market_end_reached,
)
from .market import Cell, StockMarket
from .play import RunPart
from .play_shares import SharePart
from .play_track import TrackPart
from .play_trains import TrainPart
from .rng import Lcg
from .sequence import OPERATING, STANDARD_PLAN, STOCK, Next, RoundPlan, after_last_to_act, next_round
from .state import GameState
from .tiles import Tile, parse_tile, shared_catalogue
from .track import border_cost, crossing_cost, legal_rotations

if TYPE_CHECKING:
    from .autoroute import Pricing, RouteGraph, TrainSpec
    from .graph import Network
    from .routes import Route


class Game(GameState):
    """One game. Use :meth:`process` for every move; it applies all of it or raises GameError."""

    dynamic_operating_order: ClassVar[bool] = True
    # The round cycle (engine/core/sequence.py); a title with other rounds supplies its own plan.
    ROUND_PLAN: ClassVar[RoundPlan] = STANDARD_PLAN

    def __init__(self, players: list[tuple[int, str]], seed: int = 0, options: dict[str, Any] | None = None,
                 *, actions: list[dict[str, Any]] | None = None, strict: bool = True) -> None:
        self.player_specs = list(players)
        self.seed = seed
        self.options = dict(options or {})
        self.strict = strict
        self.raw_actions = []
        # The rule areas the game owns (each typed against a protocol of what it reads of the game).
        self.shares = SharePart(self)
        self.track = TrackPart(self)
        self.trains = TrainPart(self)
        self.runs = RunPart(self)
        self._setup_state()
        if actions:
            self._replay(actions)

    # ------------------------------------------------------------------ setup

    def _setup_state(self) -> None:
        data = self.data()
        g = data["game"]
        n = len(self.player_specs)
        if not g.get("min_players", 1) <= n <= g.get("max_players", 99):
            raise illegal(f"{self.TITLE} is for {g['min_players']} to {g['max_players']} players, not {n}")
        self.end_conditions = EndConditions.from_data(g.get("game_end", {}), self.end_checks(),
                                                      where=f"{self.DATA_PACKAGE.replace('.', '/')}/game.toml")
        self.end_latch = EndLatch()
        self.config = TitleConfig.from_data(g)
        self.rules_edition = self._rules_edition()
        self.rng = Lcg(self.seed)
        self._log = []
        self.finished = False
        self.game_end_reason = None
        self.turn = 1
        self.bank = Bank(int(g["bank"]))
        cash = int(g["starting_cash"][str(n)])
        self.players = [Player(pid, name, 0) for pid, name in self.player_specs]
        for p in self.players:
            self.bank.spend(cash, p, ev.Why.STARTING_CASH)
        self.cert_limit = int(g["cert_limit"][str(n)])
        self.pool = SharePool()
        self.market = StockMarket(g["market"])
        self.board = Board.from_data(data["map"])
        self._init_tiles(data["tiles"])
        self.corporations = {}
        for cdata in g["corporations"]:
            if not self.in_game(cdata):
                continue
            corp = Corporation(dict(cdata))
            self.corporations[corp.sym] = corp
            self._init_shares(corp)
        self.companies = {}
        where = f"{self.DATA_PACKAGE.replace('.', '/')}/game.toml"
        for cdata in g["companies"]:
            if not self.in_game(cdata):
                continue
            comp = Company(cdata["sym"], cdata["name"], int(cdata["value"]), int(cdata.get("revenue", 0)),
                           cdata.get("desc", ""), data={k: v for k, v in cdata.items() if k != "abilities"},
                           abilities=parse_abilities(cdata["sym"], cdata.get("abilities"), where=where))
            self.companies[comp.sym] = comp
            self._check_ability_names(comp, where)
        # The private whose exchange starts each corporation (SC in 1882): fixed title data, asked very often.
        self.par_exchanges = {}
        for comp in self.companies.values():
            for exchange in comp.abilities_of(Exchange):
                if exchange.source is ExchangeFrom.PAR:
                    for sym in exchange.corporations:
                        self.par_exchanges.setdefault(sym, comp)
        self.phases = g["phases"]
        self.phase_index = 0
        self.depot = []
        self.pool_trains = []
        self.all_trains = {}
        self._init_trains(g["trains"])
        self.operating_rounds = int(self.phases[0]["operating_rounds"])
        self.last_tile_hex = None
        self.last_routes = []
        self.networks = {}
        self.board_cache = {}
        self.pending_tokens = []
        self.routes_seen = set()
        self.setup()
        # After the title's setup, whose own draws (1882's NWR train) come first, as they always have.
        for comp in self.companies.values():
            for ability in comp.abilities_of(Shares):
                ability.draw(self.rng.next, lambda sym: next(s.id for s in self.corporations[sym].shares
                                                             if not s.president))
        # What setup said (1882's draw of the NWR train) is told once, when the game starts, not in digests.
        self.setup_log_length = len(self._log)
        self.round = self.initial_round()
        self.round.start()

    def _rules_edition(self) -> int:
        edition = self.options.get("rules_edition", self.RULES_EDITION)
        if isinstance(edition, bool) or not isinstance(edition, int) or not 1 <= edition <= self.RULES_EDITION:
            raise malformed(f"rules edition {edition!r} is not one of {self.TITLE}'s editions: "
                            f"1 to {self.RULES_EDITION}")
        return edition

    def in_game(self, entry: dict[str, Any]) -> bool:
        """Title hook: whether a ``[[corporations]]`` or ``[[companies]]`` entry takes part in this game (1822's
        optional rules add some)."""
        return True

    def _check_ability_names(self, comp: Company, where: str) -> None:
        """Every hex, corporation and certificate a private's abilities name exists (a typo is a DataError)."""
        for ability in comp.abilities:
            missing = ([f"hex {h}" for h in ability.hexes_named() if h not in self.board.hexes]
                       + [f"corporation {c}" for c in ability.corporations_named() if c not in self.corporations]
                       + [f"certificate {c}" for c in ability.certificates_named()
                          if not any(s.id == c for corp in self.corporations.values() for s in corp.shares)])
            if missing:
                raise DataError(f"{where}: company {comp.sym}: its {ability.TYPE} ability names no such "
                                f"{', '.join(missing)}")

    def _init_tiles(self, tdata: dict[str, Any]) -> None:
        catalogue = shared_catalogue()
        self.tile_defs = {}
        for name, text in tdata.get("special", {}).items():
            self.tile_defs[name] = parse_tile(name, text)
        self.tile_supply = {}
        self.unlimited_tiles = set()
        for name, count in tdata["manifest"].items():
            tdef = self.tile_defs.get(name) or catalogue.get(name)
            if tdef is None:
                raise malformed(f"tile {name} is in the manifest but has no geometry")
            self.tile_defs[name] = tdef
            if count == "unlimited":
                self.unlimited_tiles.add(name)
                count = 1
            for i in range(int(count)):
                self.tile_supply[f"{name}-{i}"] = Tile(f"{name}-{i}", tdef)
        self.tile_counts = {name: (None if count == "unlimited" else int(count))
                            for name, count in tdata["manifest"].items()}

    def _init_shares(self, corp: Corporation) -> None:
        if not corp.issues_shares:
            return
        pres, share = corp.president_percent, corp.share_percent
        corp.shares.append(Share(f"{corp.sym}_0", corp.sym, pres, True, corp))
        for i in range(1, (100 - pres) // share + 1):
            corp.shares.append(Share(f"{corp.sym}_{i}", corp.sym, share, False, corp))

    def _init_trains(self, tdata: list[dict[str, Any]]) -> None:
        for spec in tdata:
            count = spec["count"]
            n = 1 if count == "unlimited" else int(count)
            for i in range(n):
                self.trains.new_train(spec, i)


    def setup(self) -> None:
        """Title hook: after entities exist, before the first round."""

    def initial_round(self) -> RoundState:
        raise NotImplementedError

    # ------------------------------------------------------------------ processing
    def process(self, action: dict[str, Any]) -> ev.Outcome:
        """Apply one action (18xx.games JSON form) and say what it did, or raise GameError with the state
        unchanged."""
        act.validate_shape(action)
        if self.finished and action["type"] not in ("undo", "redo", "message"):
            raise GameError(ErrorCode.GAME_OVER, "the game is over")
        action = dict(action)
        action.setdefault("id", (int(self.raw_actions[-1].get("id", 0)) + 1) if self.raw_actions else 1)
        kind = action["type"]
        if kind in ("undo", "redo"):
            candidate = [*self.raw_actions, action]
            before = act.filter_undo(self.raw_actions)
            after = act.filter_undo(candidate)
            if before == after:
                if kind == "undo" and action.get("action_id") is not None:
                    # Back to an action that is already the last standing one: 18xx.games records it as is.
                    self.raw_actions.append(action)
                    return ev.Outcome(rebuilt=True)
                raise GameError(ErrorCode.NOTHING_TO_UNDO, f"there is nothing to {kind}")
            with ev.silenced():
                self._rebuild(candidate)
            return ev.Outcome(rebuilt=True)
        self._ensure_checkpoint()
        try:
            with ev.recording() as events:
                self._apply(action)
        except GameError:
            with ev.silenced():
                self._restore_checkpoint()
            raise
        except Exception as exc:  # a bug must not leave a half-applied state behind
            with ev.silenced():
                self._restore_checkpoint()
            raise GameError(ErrorCode.INTERNAL, f"internal error while applying {kind}: {exc!r}") from exc
        self.raw_actions.append(action)
        return ev.Outcome(tuple(events))

    def _rebuild(self, raw: list[dict[str, Any]]) -> None:
        self._checkpoint = None
        self._setup_state()
        self.raw_actions = []
        self._replay(raw)

    # A refused action must leave the state exactly as it was. Rather than replaying the whole log, keep a
    # pickled snapshot at most CHECKPOINT_EVERY actions old and re-apply the few actions since it.
    CHECKPOINT_EVERY: ClassVar[int] = 25
    _checkpoint: tuple[int, bytes] | None = None

    def _snapshot(self) -> bytes:
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.persistent_id = lambda obj: "game" if obj is self else None  # type: ignore[method-assign]
        pickler.dump(self.__getstate__())
        return buffer.getvalue()

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_checkpoint"}

    def _ensure_checkpoint(self) -> None:
        if self._checkpoint is None or len(self.raw_actions) - self._checkpoint[0] >= self.CHECKPOINT_EVERY:
            self._checkpoint = (len(self.raw_actions), self._snapshot())

    def _restore_checkpoint(self) -> None:
        checkpoint = self._checkpoint
        if checkpoint is None or checkpoint[0] > len(self.raw_actions):
            self._rebuild(self.raw_actions)
            return
        count, data = checkpoint
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = lambda pid: self  # type: ignore[method-assign]
        state = unpickler.load()
        raw = self.raw_actions
        self.__dict__.clear()
        self.__dict__.update(state)
        self._checkpoint = checkpoint
        # Actions since the snapshot were all accepted, and undo/redo drop the snapshot, so none is undone.
        try:
            for action in raw[count:]:
                self._apply(action)
        except GameError:
            self._rebuild(raw)
            return
        self.raw_actions = raw

    def _replay(self, raw: list[dict[str, Any]]) -> None:
        for action in act.filter_undo(raw):
            self._apply(action)
        self.raw_actions = list(raw)

    def _apply(self, action: dict[str, Any]) -> None:
        self._apply_one(action)
        for auto in action.get("auto_actions") or ():
            self._apply_one(auto)

    def _apply_one(self, action: dict[str, Any]) -> None:
        kind = action["type"]
        if act.is_log_only(kind):
            return
        if kind == "end_game":
            self.end_game("manually_ended")
            return
        if self.finished:
            raise GameError(ErrorCode.GAME_OVER, "the game is over")
        act.validate_shape(action)
        entity = self.resolve_entity(action)
        self.round.process(action, entity)
        self.action_processed(action)
        if self.round.kind == OPERATING and self.remembers_routes():
            # 18xx.games walks the acting company's track after each of its actions (to list its lays,
            # stations or runs), and its graph keeps for good that the track joined two stops.
            corp = entity.owner if isinstance(entity, Company) else entity
            if isinstance(corp, Corporation):
                self.track.remember_route(corp)
        self._check_game_end_and_advance()

    def action_processed(self, action: dict[str, Any]) -> None:
        """Title hook after every processed action."""

    # ------------------------------------------------------------------ round flow
    def _check_game_end_and_advance(self) -> None:
        timing = self._end_trigger()
        if timing:
            self.round.forget()  # the end latch records it (the steps' answers are remembered: round.Memory)
        if timing and timing.timing is EndTiming.IMMEDIATE:
            self.end_game(timing.reason)
            return
        while not self.finished and self.round.finished():
            self.round.forget()
            for p in self.players:
                p.passed = False
            if timing and end_now(timing.timing, self.round, self.operating_rounds, self.turn, self.end_latch):
                self.end_game(timing.reason)
                return
            self.next_round()
            timing = self._end_trigger()

    def _end_trigger(self) -> EndTrigger | None:
        trigger = self.game_end_timing()
        self.end_latch.record(trigger, self.turn)
        return trigger

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

    def end_game(self, reason: str) -> None:
        self.before_game_end(reason)
        self.finished = True
        self.game_end_reason = reason
        self.log(f"-- Game over: {reason} --")
        if ev.recording_now():
            scores = tuple(self.shares.player_score(p) for p in self.players)
            ev.emit(ev.GameEnded(reason, end_reason_text(reason), scores))

    def before_game_end(self, reason: str) -> None:
        """Title hook: what happens as the game ends for ``reason``, before the scores (1862 repays debts)."""

    def next_round(self) -> None:
        next_round(self)

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
        return not corp.trains and (corp.sym in self.routes_seen or self.track.network(corp).route_possible)

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

    def standing_bids(self) -> dict[str, list[tuple[Any, int]]]:
        return {}

    def committed_cash(self, player: Player) -> int:
        return 0

    def company_value(self, company: Company) -> int:
        return int(company.value)

    # ------------------------------------------------------------------ queries
    def result(self) -> dict[str, int]:
        """Each player's value (``player_value``), by player id."""
        return {str(p.id): self.player_value(p) for p in self.players}

    def acting(self) -> list[Any]:
        if self.finished:
            return []
        return list(self.round.active_entities())

    def acting_players(self) -> list[Player]:
        out: list[Player] = []
        for ent in self.acting():
            p = self.acting_player(ent)
            if isinstance(p, Player) and p not in out:
                out.append(p)
        return out

    def actions_for(self, entity: Any) -> list[str]:
        if self.finished:
            return []
        return self.round.actions_for(entity)


    def check_turn(self, entity: Any) -> None:
        if entity not in self.acting():
            names = ", ".join(self.describe(e) for e in self.acting())
            raise not_your_turn(f"it is not {self.describe(entity)}'s turn: waiting for {names}")


if TYPE_CHECKING:
    from .hooks import GameHooks

    # Game holds the default of every declared hook, with the declared signature.
    def _defaults(game: Game) -> GameHooks:
        return game

