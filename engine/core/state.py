"""The state of one game: what a game holds, and how to look its parts up. No rules live here.

The facade (``game``) stands on it: it builds the state, drives the rounds and owns the parts that hold the rules
(``play_shares``, ``play_track``, ``play_trains``, ``play``), which read the state through the game.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any, ClassVar

from . import events as ev
from .board import Board
from .config import TitleConfig
from .entities import Bank, Company, Corporation, Holder, Player, Share, SharePool, Token, Train
from .errors import malformed
from .flow import RoundState
from .game_end import (
    EndConditions,
    EndLatch,
)
from .graph import Network
from .market import Cell, StockMarket
from .rng import Lcg
from .tiles import Tile, TileDef


def load_title_data(package: str) -> dict[str, Any]:
    base = resources.files(package)
    data: dict[str, Any] = {}
    for name in ("game", "map", "tiles"):
        data[name] = tomllib.loads(base.joinpath(f"{name}.toml").read_text("utf-8"))
    return data



class GameState:
    """Players, corporations, privates, bank, pool, depot, market, board, phase and the current round."""

    # The state, set when the game is built (``game_setup.build_state``) and changed only by the rules and the round.
    player_specs: list[tuple[int, str]]
    seed: int
    options: dict[str, Any]
    strict: bool
    raw_actions: list[dict[str, Any]]
    end_conditions: EndConditions
    end_latch: EndLatch
    config: TitleConfig
    rng: Lcg
    _log: list[str]
    setup_log_length: int  # the log lines written by the setup, before the first round
    finished: bool
    game_end_reason: str | None
    turn: int
    bank: Bank
    players: list[Player]
    cert_limit: int
    pool: SharePool
    market: StockMarket
    board: Board
    tile_defs: dict[str, TileDef]
    tile_supply: dict[str, Tile]
    unlimited_tiles: set[str]
    tile_counts: dict[str, int | None]
    corporations: dict[str, Corporation]
    companies: dict[str, Company]
    # The private whose exchange starts each corporation (SC in 1882): fixed title data, asked very often.
    par_exchanges: dict[str, Company]
    phases: list[dict[str, Any]]
    phase_index: int
    depot: list[Train]
    pool_trains: list[Train]
    all_trains: dict[str, Train]
    operating_rounds: int
    last_tile_hex: str | None
    last_routes: list[dict[str, Any]]
    networks: dict[str, Network]
    board_cache: dict[str, Any]
    pending_tokens: list[tuple[Corporation, list[str], Token]]
    # Companies whose track has joined two stops, for titles that remember it (see TrainPart.route_available).
    routes_seen: set[str]
    rules_edition: int
    round: RoundState

    TITLE: ClassVar[str] = ""

    DATA_PACKAGE: ClassVar[str] = ""

    # The optional rules 18xx.games offers for the title that this engine plays (``settings.optional_rules``).
    OPTIONAL_RULES: ClassVar[tuple[str, ...]] = ()

    # When a ruling changes, a game keeps the edition it began under (the bot stores it with the game, option
    # ``rules_edition``), so that a stored game still replays; a game that names none is played by the newest.
    RULES_EDITION: ClassVar[int] = 1

    _data_cache: ClassVar[dict[str, dict[str, Any]]] = {}

    @classmethod
    def data(cls) -> dict[str, Any]:
        if cls.DATA_PACKAGE not in cls._data_cache:
            cls._data_cache[cls.DATA_PACKAGE] = load_title_data(cls.DATA_PACKAGE)
        return cls._data_cache[cls.DATA_PACKAGE]

    def format_money(self, amount: int) -> str:
        """An amount in the title's currency: ``$76`` in 1882, ``£76`` in 1822."""
        return self.config.format_money(amount)

    def log(self, line: str) -> None:
        self._log.append(line)
        if ev.recording_now():  # a replay records nothing: it would make and drop hundreds of events
            ev.emit(ev.Logged(line))

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

    def cash_aside(self) -> dict[ev.Party, int]:
        """Title hook: money the bank paid out that no holder has yet (1822's P15 and P20 keep it on their
        charters); ``engine.reconcile`` counts it."""
        return {}

    def _holders(self, corp: Corporation | None = None) -> list[Holder]:
        out: list[Holder] = [*self.players, *self.corporations.values(), self.pool]
        out += [c.treasury for c in self.corporations.values() if c.treasury.shares]
        return out + self.extra_holders(corp)

    def extra_holders(self, corp: Corporation | None = None) -> list[Holder]:
        """Title hook: holders of certificates or money the core does not know (1822's tax haven, the boxes of
        1828's merger); ``corp``: the company whose certificates are looked for, None for all."""
        return []

    @property
    def phase(self) -> dict[str, Any]:
        return self.phases[self.phase_index]

    def phase_colour(self) -> str:
        return str(self.phase["tiles"][-1])

    def phase_reached(self, name: str) -> bool:
        names = [p["name"] for p in self.phases]
        return name in names and names.index(name) <= self.phase_index

    def acting_player(self, entity: Any) -> Any:
        """Who decides for ``entity``: a corporation's president; a private's owner, or the president of the
        company owning it (a private's power used for a company is its president's move)."""
        for _ in range(3):
            if not isinstance(entity, Corporation | Company) or entity.owner is None:
                break
            entity = entity.owner
        if isinstance(entity, Corporation) and entity.owner is None:
            # A company with no president yet (1828: a new system removing a station in its merger) acts in the
            # turn of the player whose move made it, so someone can always make its move.
            current = self.round.entity()
            if isinstance(current, Player):
                return current
        return entity

    def share_price(self, corp: Corporation) -> Cell | None:
        return self.market.location.get(corp.sym)

    def total_cash(self) -> int:
        """All money in the game: the bank's, every holder's, and what the title holds aside (``cash_aside``)."""
        return (self.bank.cash + sum(p.cash for p in self.players)
                + sum(c.cash for c in self.corporations.values()) + self.pool.cash
                + sum(h.cash for h in self.extra_holders()) + sum(self.cash_aside().values()))
