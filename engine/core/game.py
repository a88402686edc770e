"""BaseGame: the state of one game and the rules every title shares.

A game is a title, a seed, players and an append-only action log; the state is the replay of
the standing actions. Titles subclass :class:`Game`, load their data files and override hooks.
"""

from __future__ import annotations

import io
import math
import pickle
import tomllib
from importlib import resources
from typing import Any, ClassVar

from . import actions as act
from . import loans
from . import shares as units
from .abilities import Close, Exchange, ExchangeFrom, Shares, parse_abilities
from .board import Board, Hex
from .config import TitleConfig
from .entities import Bank, Company, Corporation, Holder, Player, Share, SharePool, Token, Train, TrainVariant
from .errors import DataError, ErrorCode, GameError, illegal, insufficient, malformed, not_your_turn
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
    met,
    stock_market_end_reached,
)
from .graph import Network, company_network
from .market import Cell, StockMarket
from .play import PlayRules
from .rng import Lcg
from .sequence import OPERATING, STANDARD_PLAN, STOCK, Next, RoundPlan, after_last_to_act, next_round
from .tiles import Tile, TileDef, parse_tile, shared_catalogue


def load_title_data(package: str) -> dict[str, Any]:
    base = resources.files(package)
    data: dict[str, Any] = {}
    for name in ("game", "map", "tiles"):
        data[name] = tomllib.loads(base.joinpath(f"{name}.toml").read_text("utf-8"))
    return data


class Game(PlayRules):
    """One game. Use :meth:`process` for every move; it applies all of it or raises GameError."""

    TITLE: ClassVar[str] = ""
    DATA_PACKAGE: ClassVar[str] = ""
    dynamic_operating_order = True
    MIN_BID_INCREMENT = 5
    SELL_AFTER_FIRST_SR = True
    # A claimed route revenue that differs from the engine's is refused, so a mistyped route never pays.
    trust_claimed_revenue = False
    # The round cycle (engine/core/sequence.py); a title with other rounds supplies its own plan.
    ROUND_PLAN: ClassVar[RoundPlan] = STANDARD_PLAN
    # The optional rules 18xx.games offers for the title that this engine plays (``settings.optional_rules``).
    OPTIONAL_RULES: ClassVar[tuple[str, ...]] = ()
    _data_cache: ClassVar[dict[str, dict[str, Any]]] = {}

    def __init__(self, players: list[tuple[int, str]], seed: int = 0, options: dict[str, Any] | None = None,
                 *, actions: list[dict[str, Any]] | None = None, strict: bool = True) -> None:
        self.player_specs = list(players)
        self.seed = seed
        self.options = dict(options or {})
        self.strict = strict
        self.raw_actions: list[dict[str, Any]] = []
        self._setup_state()
        if actions:
            self._replay(actions)

    # ------------------------------------------------------------------ setup
    @classmethod
    def data(cls) -> dict[str, Any]:
        if cls.DATA_PACKAGE not in cls._data_cache:
            cls._data_cache[cls.DATA_PACKAGE] = load_title_data(cls.DATA_PACKAGE)
        return cls._data_cache[cls.DATA_PACKAGE]

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
        self.rng = Lcg(self.seed)
        self._log: list[str] = []
        self.finished = False
        self.game_end_reason: str | None = None
        self.turn = 1
        self.bank = Bank(int(g["bank"]))
        cash = int(g["starting_cash"][str(n)])
        self.players = [Player(pid, name, 0) for pid, name in self.player_specs]
        for p in self.players:
            self.bank.spend(cash, p)
        self.cert_limit = int(g["cert_limit"][str(n)])
        self.pool = SharePool()
        self.market = StockMarket(g["market"])
        self.board = Board.from_data(data["map"])
        self._init_tiles(data["tiles"])
        self.corporations: dict[str, Corporation] = {}
        for cdata in g["corporations"]:
            if not self.in_game(cdata):
                continue
            corp = Corporation(dict(cdata))
            self.corporations[corp.sym] = corp
            self._init_shares(corp)
        self.companies: dict[str, Company] = {}
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
        self.par_exchanges: dict[str, Company] = {}
        for comp in self.companies.values():
            for exchange in comp.abilities_of(Exchange):
                if exchange.source is ExchangeFrom.PAR:
                    for sym in exchange.corporations:
                        self.par_exchanges.setdefault(sym, comp)
        self.phases: list[dict[str, Any]] = g["phases"]
        self.phase_index = 0
        self.depot: list[Train] = []
        self.pool_trains: list[Train] = []
        self.all_trains: dict[str, Train] = {}
        self._init_trains(g["trains"])
        self.operating_rounds = int(self.phases[0]["operating_rounds"])
        self.last_tile_hex: str | None = None
        self.last_routes: list[dict[str, Any]] = []
        self.networks: dict[str, Network] = {}
        self.board_cache: dict[str, Any] = {}
        self.pending_tokens: list[tuple[Corporation, list[str], Token]] = []
        self.setup()
        # After the title's setup, whose own draws (1882's NWR train) come first, as they always have.
        for comp in self.companies.values():
            for ability in comp.abilities_of(Shares):
                ability.draw(self.rng.next, lambda sym: next(s.id for s in self.corporations[sym].shares
                                                             if not s.president))
        self.round: RoundState = self.initial_round()
        self.round.start()

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
        self.tile_defs: dict[str, TileDef] = {}
        for name, text in tdata.get("special", {}).items():
            self.tile_defs[name] = parse_tile(name, text)
        self.tile_supply: dict[str, Tile] = {}
        self.unlimited_tiles: set[str] = set()
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
                self._new_train(spec, i)

    def _new_train(self, spec: dict[str, Any], index: int) -> Train:
        train = Train(f"{spec['name']}-{index}", spec["name"], int(spec["distance"]), int(spec["price"]),
                      rusts_on=spec.get("rusts_on"), discount=dict(spec.get("discount", {})),
                      available_on=spec.get("available_on"), variants=train_variants(spec),
                      counts_for_limit=bool(spec.get("counts_for_limit", True)),
                      events=[str(e) for e in spec.get("events", ())])
        self.depot.append(train)
        self.all_trains[train.id] = train
        return train

    def setup(self) -> None:
        """Title hook: after entities exist, before the first round."""

    def initial_round(self) -> RoundState:
        raise NotImplementedError

    # ------------------------------------------------------------------ logging and lookups
    def format_money(self, amount: int) -> str:
        """An amount in the title's currency: ``$76`` in 1882, ``£76`` in 1822."""
        return self.config.format_money(amount)

    def log(self, line: str) -> None:
        self._log.append(line)

    @property
    def log_lines(self) -> list[str]:
        return self._log

    def describe(self, entity: Any) -> str:
        if isinstance(entity, Player):
            return entity.name
        if isinstance(entity, Corporation):
            return entity.sym
        if isinstance(entity, Company):
            return entity.sym
        return str(entity)

    def player_by_id(self, pid: Any) -> Player:
        for p in self.players:
            if str(p.id) == str(pid):
                return p
        raise malformed(f"there is no player {pid} in this game")

    def corporation(self, sym: Any) -> Corporation:
        corp = self.corporations.get(str(sym))
        if corp is None:
            raise malformed(f"there is no company {sym}; companies: {', '.join(self.corporations)}")
        return corp

    def company(self, sym: Any) -> Company:
        comp = self.companies.get(str(sym))
        if comp is None:
            raise malformed(f"there is no private company {sym}; privates: {', '.join(self.companies)}")
        return comp

    def resolve_entity(self, action: dict[str, Any]) -> Any:
        ent = action["entity"]
        kind = action.get("entity_type")
        if kind == "player" or (kind is None and isinstance(ent, int)):
            return self.player_by_id(ent)
        if kind == "company" or (kind is None and str(ent) in self.companies):
            return self.company(ent)
        return self.corporation(ent)

    def share_by_id(self, share_id: str) -> Share:
        corp_sym = share_id.rsplit("_", 1)[0]
        corp = self.corporation(corp_sym)
        for holder in self._holders(corp):
            for s in holder.shares:
                if s.id == share_id:
                    return s
        raise malformed(f"there is no share {share_id}")

    def _holders(self, corp: Corporation | None = None) -> list[Holder]:
        out: list[Holder] = [*self.players, *self.corporations.values(), self.pool]
        out += [c.treasury for c in self.corporations.values() if c.treasury.shares]
        return out

    @property
    def phase(self) -> dict[str, Any]:
        return self.phases[self.phase_index]

    def phase_colour(self) -> str:
        return str(self.phase["tiles"][-1])

    # ------------------------------------------------------------------ processing
    def process(self, action: dict[str, Any]) -> None:
        """Apply one action (18xx.games JSON form) or raise GameError with the state unchanged."""
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
                    return
                raise GameError(ErrorCode.NOTHING_TO_UNDO, f"there is nothing to {kind}")
            self._rebuild(candidate)
            return
        self._ensure_checkpoint()
        try:
            self._apply(action)
        except GameError:
            self._restore_checkpoint()
            raise
        except Exception as exc:  # a bug must not leave a half-applied state behind
            self._restore_checkpoint()
            raise GameError(ErrorCode.INTERNAL, f"internal error while applying {kind}: {exc!r}") from exc
        self.raw_actions.append(action)

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
        self._check_game_end_and_advance()

    def action_processed(self, action: dict[str, Any]) -> None:
        """Title hook after every processed action."""

    # ------------------------------------------------------------------ round flow
    def _check_game_end_and_advance(self) -> None:
        timing = self._end_trigger()
        if timing and timing.timing is EndTiming.IMMEDIATE:
            self.end_game(timing.reason)
            return
        while not self.finished and self.round.finished():
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
        self.finished = True
        self.game_end_reason = reason
        self.log(f"-- Game over: {reason} --")

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
        self.place_home_token(corp)

    def after_operating(self, corp: Corporation) -> None:
        pass

    def acting_player(self, entity: Any) -> Any:
        """Who decides for ``entity``: a corporation's president; a private's owner, or the president of the
        company owning it (a private's power used for a company is its president's move)."""
        for _ in range(3):
            if not isinstance(entity, Corporation | Company) or entity.owner is None:
                break
            entity = entity.owner
        return entity

    # ------------------------------------------------------------------ companies
    def payout_companies(self) -> None:
        for comp in self.companies.values():
            if comp.closed or comp.owner is None or comp.revenue <= 0:
                continue
            self.bank.spend(comp.revenue, comp.owner)
            self.log(f"{comp.owner.name} collects {self.format_money(comp.revenue)} from {comp.sym}")

    def close_company(self, comp: Company) -> None:
        if comp.closed:
            return
        comp.closed = True
        owner = comp.owner
        if isinstance(owner, Player | Corporation) and comp in owner.companies:
            owner.companies.remove(comp)
        self.log(f"{comp.sym} closes")

    # ------------------------------------------------------------------ shares
    def share_price(self, corp: Corporation) -> Cell | None:
        return self.market.location.get(corp.sym)

    def set_par(self, corp: Corporation, cell: Cell) -> None:
        corp.par_price = cell.price
        corp.ipoed = True
        self.market.place(corp.sym, cell)

    def num_certs(self, player: Player) -> float:
        total = 0.0
        for s in player.shares:
            cell = self.market.location.get(s.corp)
            if cell is not None and cell.zone in ("yellow", "orange", "brown"):
                continue
            total += 1
        return total + len(player.companies)

    def transfer_share(self, share: Share, to: Holder) -> None:
        share.owner.shares.remove(share)
        to.shares.append(share)
        share.owner = to

    def buy_shares(self, buyer: Player, shares: list[Share], price: int, *, receiver: Holder | None = None) -> None:
        corp = self.corporation(shares[0].corp)
        if receiver is None and units.ipo_pays_company(self.config.shares) and all(s.owner is corp for s in shares):
            receiver = corp
        if price:
            buyer.cash -= price
            (receiver or self.bank).cash += price
        for s in shares:
            self.transfer_share(s, buyer)
        self._check_float(corp)
        self.check_presidency(corp, previous=corp.owner)

    def _check_float(self, corp: Corporation) -> None:
        if corp.floated or not corp.ipoed:
            return
        if corp.sold_percent() >= corp.float_percent:
            self.float_corporation(corp)

    def float_corporation(self, corp: Corporation) -> None:
        corp.floated = True
        capital = units.float_capital(self.config.shares, corp)
        if capital:
            self.bank.spend(capital, corp)
            self.log(f"{corp.sym} floats and receives {self.format_money(capital)}")
        else:
            self.log(f"{corp.sym} floats")

    def check_presidency(self, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
        """Hand the president's certificate to the largest holder if the president no longer is one.

        Ties keep the president; otherwise the first in seat order after the seller (or president). The new
        president hands back ordinary certificates worth the president's certificate's percent, whatever their
        size (two 5% shares for a 10% president's certificate).
        """
        holdings = {p: p.percent_of(corp.sym) for p in self.players}
        top = max(holdings.values(), default=0)
        if top == 0 or (previous is not None and holdings.get(previous, 0) == top):
            return
        anchor = seller or previous
        start = self.players.index(anchor) + 1 if anchor in self.players else 0
        order = self.players[start:] + self.players[:start]
        new = next(p for p in order if holdings[p] == top)
        pres = next((s for h in self._holders() for s in h.shares if s.corp == corp.sym and s.president), None)
        corp.owner = new
        if pres is None or pres.owner is new:
            return
        self.log(f"{new.name} becomes the president of {corp.sym}")
        if pres.owner is self.pool and seller is not None:
            swap_to: Holder = seller if seller.percent_of(corp.sym) >= pres.percent else self.pool
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
        corp = self.corporation(shares[0].corp)
        cell = self.market.location[corp.sym]
        total = sum(s.percent for s in shares)
        sold = total if percent is None else int(percent)
        price = units.value(corp, cell.price, sold)
        previous = corp.owner
        for s in shares:
            self.transfer_share(s, self.pool)
        self.bank.spend(price, seller)
        self.check_presidency(corp, previous, seller)
        for back in units.certificates_worth(self.pool.shares_of(corp.sym), total - sold):
            self.transfer_share(back, seller)
        for _ in range(units.price_drops(self.config.shares, corp, sold)):
            self.market.down(corp.sym)
        self.log(f"{seller.name} sells {sold}% of {corp.sym} for {self.format_money(price)}")
        return price

    # ------------------------------------------------------------------ trains and phases
    def available_depot_trains(self) -> list[Train]:
        """New trains on sale: the next in line, plus types that are available early."""
        out: list[Train] = []
        seen: set[str] = set()
        for t in self.depot:
            if t.reserved:
                continue
            if not out or (t.name not in seen and t.available_on and self.phase_reached(t.available_on)):
                out.append(t)
                seen.add(t.name)
        return out

    def phase_reached(self, name: str) -> bool:
        names = [p["name"] for p in self.phases]
        return name in names and names.index(name) <= self.phase_index

    def train_limit(self, corp: Corporation) -> int:
        return int(self.phase["train_limit"])

    def buy_train(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None = None) -> None:
        source = train.owner
        if source is None:
            self.depot.remove(train)
            self._replenish_unlimited(train)
            corp.cash -= price
            self.bank.cash += price
        elif source is self.pool:
            self.pool_trains.remove(train)
            corp.cash -= price
            self.bank.cash += price
        else:
            assert isinstance(source, Corporation)
            source.trains.remove(train)
            corp.cash -= price
            source.cash += price
        if exchange is not None:
            corp.trains.remove(exchange)
            self.trade_in(exchange)
        train.owner = corp
        corp.trains.append(train)
        self.log(f"{corp.sym} buys a {train.name} train for {self.format_money(price)}")
        if source is None:
            self.on_new_train(corp, train)

    def trade_in(self, train: Train) -> None:
        train.owner = None
        self.log(f"{train.name} train is traded in")

    def _replenish_unlimited(self, train: Train) -> None:
        # By type (``sym``): a copy bought as a variant (1822's 7 as an E) is still one of its type.
        same = [t for t in self.all_trains.values() if t.sym == train.sym]
        spec = next((s for s in self.data()["game"]["trains"] if s["name"] == train.sym), None)
        if spec is not None and spec["count"] == "unlimited" and not any(t.owner is None and t in self.depot
                                                                        for t in same if t is not train):
            new = self._new_train(spec, len(same))
            self.depot.remove(new)
            self.depot.append(new)

    def on_new_train(self, corp: Corporation, train: Train) -> None:
        names = [p["name"] for p in self.phases]
        # The latest phase the train starts (a 3 bought in 1822's phase 1 starts phase 3, not 2).
        for i in range(len(self.phases) - 1, self.phase_index, -1):
            on = self.phases[i].get("on")
            if train.name == on or (isinstance(on, list) and train.name in on):
                while self.phase_index < i:
                    self.phase_index += 1
                    self.phase_changed()
                break
        self._rust(train)
        for event in list(train.events):
            self.run_event(event, corp, train)
        train.events.clear()
        _ = names

    def _rust(self, bought: Train) -> None:
        first = not any(t.name == bought.name and t is not bought and t.owner is not None
                        and t not in self.depot for t in self.all_trains.values())
        if not first:
            return
        for t in list(self.all_trains.values()):
            if t.rusts_on == bought.name and not t.rusted and t.owner is not None:
                self.rust_train(t)

    def rust_train(self, train: Train) -> None:
        owner = train.owner
        train.rusted = True
        if isinstance(owner, Corporation):
            owner.trains.remove(train)
        elif owner is self.pool:
            self.pool_trains.remove(train)
        train.owner = None
        self.log(f"{train.id} rusts")

    def phase_changed(self) -> None:
        self.log(f"-- Phase {self.phase['name']} --")
        for event in self.phase.get("events", ()):
            self.run_event(event, None, None)
        for comp in self.companies.values():
            if self.closing_phase(comp) == self.phase["name"]:
                self.close_company(comp)

    def closing_phase(self, comp: Company) -> str | None:
        """The phase whose start closes ``comp`` (its close ability), if any."""
        return next((a.on_phase for a in comp.abilities_of(Close) if a.on_phase is not None), None)

    def run_event(self, event: str, corp: Corporation | None, train: Train | None) -> None:
        handler = getattr(self, f"event_{event}", None)
        if handler is not None:
            handler()

    def event_close_companies(self) -> None:
        for comp in self.companies.values():
            later = self.closing_phase(comp)
            if later and later != self.phase["name"] and not self.phase_reached(later):
                continue
            self.close_company(comp)

    def crowded_corporations(self) -> list[Corporation]:
        # len(trains) bounds the trains that count, and is cheap: this is asked after almost every action.
        return [c for c in self.corporations.values()
                if len(c.trains) > self.train_limit(c) and c.trains_in_limit() > self.train_limit(c)]

    def discard_train(self, corp: Corporation, train: Train) -> None:
        corp.trains.remove(train)
        train.owner = None
        self.log(f"{corp.sym} discards a {train.name} train")

    # ------------------------------------------------------------------ map
    def board_changed(self) -> None:
        """Forget everything derived from tiles and tokens."""
        self.networks.clear()
        self.board_cache.clear()

    def network(self, corp: Corporation) -> Network:
        net = self.networks.get(corp.sym)
        if net is None:
            net = company_network(self.board, corp.sym, optional_stops=self.optional_stops())
            self.networks[corp.sym] = net
        return net

    def optional_stops(self) -> frozenset[tuple[str, int]]:
        return frozenset((h.id, 0) for h in self.board.hexes.values() if h.optional_node)

    def place_home_token(self, corp: Corporation) -> None:
        if not corp.tokens or corp.tokens[0].used or corp.home is None:
            return
        hx = self.board[corp.home]
        cities = hx.tile.tdef.cities
        if self.home_reserved_on_tile(corp, hx) and hx.tile.tdef.paths:
            # The president chooses the city, whatever tile lies there now: the home-token step asks for it.
            # (On a trackless printed tile the first city is taken, and track arriving later asks again.)
            if all(p[0] is not corp for p in self.pending_tokens):
                self.pending_tokens.append((corp, [hx.id], corp.tokens[0]))
            return
        node = cities[corp.home_city or 0] if corp.home_city is not None else cities[0]
        self.place_token(corp, corp.tokens[0], hx, node, free=True)

    def place_token(self, corp: Corporation, token: Token, hx: Hex, node: int, *, free: bool = False,
                    slot: int | None = None) -> None:
        slots = hx.tile.tokens[node]
        if slot is None or slots[slot] is not None:
            slot = self.free_slot(hx, node, corp.sym)
        if slot is None:
            raise illegal(f"no free token space in {hx.id}")
        if not free and token.price:
            if corp.cash < token.price:
                raise insufficient(f"{corp.sym} cannot afford a token: treasury {self.format_money(corp.cash)}, "
                                   f"price {self.format_money(token.price)}")
            corp.cash -= token.price
            self.bank.cash += token.price
        slots[slot] = token.corp
        hx.tile.kinds[node][slot] = token.kind
        token.used = True
        token.hex, token.node, token.slot = hx.id, node, slot
        self.reservations_release(corp.sym, hx)
        self.board_changed()
        self.log(f"{corp.sym} places a token on {hx.id}")

    def free_slot(self, hx: Hex, node: int, corp: str) -> int | None:
        slots = hx.tile.tokens[node]
        reserved = self.reserved_slots(hx, node)
        for i, s in enumerate(slots):
            if s is None and (reserved.get(i) in (None, corp)):
                return i
        return None

    @staticmethod
    def home_reserved_on_tile(corp: Corporation, hx: Hex) -> bool:
        """A home given as a hex whose printed tile has several cities holds a space somewhere in the hex, not in
        one city, until the company places it (18xx.games keeps that reservation through upgrades)."""
        return corp.home == hx.id and corp.home_city is None and len(hx.original.tdef.cities) > 1

    # Reservations: (hex, node) -> {slot: corp}
    def reserved_slots(self, hx: Hex, node: int) -> dict[int, str]:
        out: dict[int, str] = {}
        for corp in self.corporations.values():
            if corp.home != hx.id or not corp.tokens or corp.tokens[0].used or corp.closed:
                continue
            cities = hx.tile.tdef.cities
            if self.home_reserved_on_tile(corp, hx):
                continue
            home_node = cities[corp.home_city or 0] if corp.home_city is not None else cities[0]
            if home_node != node:
                continue
            slots = hx.tile.tokens[node]
            for i, s in enumerate(slots):
                if s is None and i not in out:
                    out[i] = corp.sym
                    break
        return out

    def reservations_release(self, corp: str, hx: Hex) -> None:
        pass

    def token_blocked_by_reservation(self, hx: Hex, corp: str) -> bool:
        """Multi-city homes (no city given) keep one free slot in the hex for their company."""
        holders = [c for c in self.corporations.values()
                   if c.home == hx.id and c.sym != corp and c.tokens and not c.tokens[0].used
                   and not c.closed and self.home_reserved_on_tile(c, hx)]
        if not holders:
            return False
        free = sum(1 for slots in hx.tile.tokens.values() for s in slots if s is None)
        return free <= len(holders)

    def can_token_city(self, corp: Corporation, hx: Hex, node: int, token: Token | None = None) -> bool:
        """A city takes a token with a free slot when the token's owner has none in the hex yet (rules 11.4: one
        station per company per hex; a neutral token belongs to CN, so it may join its placer's hex, once)."""
        if node not in hx.tile.tokens:
            return False
        owner = token.corp if token is not None else corp.sym
        if any(owner in slots for slots in hx.tile.tokens.values()):
            return False
        if self.free_slot(hx, node, owner) is None:
            return False
        return not self.token_blocked_by_reservation(hx, owner)

    # ------------------------------------------------------------------ scoring
    def player_value(self, player: Player) -> int:
        """Cash, shares at their price and privates at face value, less what the player owes the bank."""
        value = player.cash - player.debt
        for s in player.shares:
            cell = self.market.location.get(s.corp)
            if cell is not None:
                value += units.value(self.corporations[s.corp], cell.price, s.percent)
        value += sum(c.value for c in player.companies if not c.closed)
        return value

    def liabilities(self, corp: Corporation) -> int:
        """What ``corp`` owes the bank (its loans at the title's loan size and its debts)."""
        return loans.liabilities(corp, self.config.loans)

    def corporation_value(self, corp: Corporation) -> int:
        """Title hook: what a company's treasury is worth to its holders, its cash less what it owes (titles whose
        scoring counts companies, or whose share price falls with debt, read this; 1882's does not)."""
        return corp.cash - self.liabilities(corp)

    def result(self) -> dict[str, int]:
        return {str(p.id): self.player_value(p) for p in self.players}

    # ------------------------------------------------------------------ queries
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

    def total_cash(self) -> int:
        return (self.bank.cash + sum(p.cash for p in self.players)
                + sum(c.cash for c in self.corporations.values()) + self.pool.cash)

    def check_turn(self, entity: Any) -> None:
        if entity not in self.acting():
            names = ", ".join(self.describe(e) for e in self.acting())
            raise not_your_turn(f"it is not {self.describe(entity)}'s turn: waiting for {names}")


def train_variants(spec: dict[str, Any]) -> list[TrainVariant]:
    """A ``[[trains]]`` entry's ways of being bought: its own, then each of ``variants`` (none when it has none).

    Raises:
        GameError: (malformed) a variant without a name, distance or price, or two variants of one name.
    """
    extra = spec.get("variants", [])
    if not extra:
        return []
    out = [TrainVariant(str(spec["name"]), int(spec["distance"]), int(spec["price"]), spec.get("rusts_on"))]
    for v in extra:
        missing = [k for k in ("name", "distance", "price") if k not in v]
        if missing:
            raise malformed(f"a variant of the {spec['name']} train has no {', '.join(missing)}")
        out.append(TrainVariant(str(v["name"]), int(v["distance"]), int(v["price"]),
                                v.get("rusts_on", spec.get("rusts_on"))))
    names = [v.name for v in out]
    if len(set(names)) != len(names):
        raise malformed(f"the {spec['name']} train's variants repeat a name: {', '.join(names)}")
    return out


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


_ = math
