"""The declared hooks: every point where a title may change the rules, in one place.

A title is its data files, the hooks below and its own steps. It may implement (override) these members of the
core classes and nothing else; ``tests/engine/test_hooks.py`` fails when a title class overrides a core member
that no protocol here declares. Each protocol is a group of hooks: its members' docstrings are their contracts,
and the core classes hold the defaults (``Game`` satisfies :class:`GameHooks`, which mypy checks in
``engine/core/game.py``; its defaults are in ``engine/core/hook_defaults.py``). A new variation point is added here
first, with its default in the core.

Which core class each group belongs to is :data:`DECLARED`: a title subclass of that class (or of a subclass
of it) may override those names. Names matching one of :data:`PATTERNS` are hooks too: a step's handler of an
action type (``process_<type>``) and a game's handler of a train or phase event (``event_<name>``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from . import events as ev
    from .actions import Action
    from .autoroute import Pricing, RouteGraph, TrainSpec
    from .board import Hex
    from .entities import Company, Corporation, Entity, Holder, Player, Share, Train
    from .flow import RoundState
    from .game_end import EndCheck, EndTrigger
    from .market import Cell
    from .routes import Route
    from .sequence import Next, RoundPlan
    from .tiles import Tile


# ---------------------------------------------------------------------------------------------- the game


class TitleConstants(Protocol):
    """What a title names and switches with a class constant."""

    TITLE: ClassVar[str]  # the title's name as 18xx.games spells it
    DATA_PACKAGE: ClassVar[str]  # the package holding game.toml, map.toml and tiles.toml
    OPTIONAL_RULES: ClassVar[tuple[str, ...]]  # the optional rules a game of the title may name
    RULES_EDITION: ClassVar[int]  # raised when a ruling changes how a stored log replays (see DESIGN.md)
    CHECKPOINT_EVERY: ClassVar[int]  # actions between undo checkpoints (a title with slow actions keeps more)
    ROUND_PLAN: ClassVar[RoundPlan]  # which round follows which (engine/core/sequence.py)
    dynamic_operating_order: ClassVar[bool]  # companies operate in price order, re-sorted as prices move
    BIDS_IN_STEPS: ClassVar[bool]  # auction bids go up in MIN_BID_INCREMENT steps (False: any amount)
    MIN_BID_INCREMENT: ClassVar[int]
    SELL_AFTER_FIRST_SR: ClassVar[bool]  # False: no share is sold in the first stock round
    DIVIDEND_KINDS: ClassVar[tuple[str, ...]]  # the dividend kinds every company may choose


class SetupHooks(Protocol):
    def setup(self) -> None:
        """After the entities exist, before the first round: the title's own state and pieces."""

    def in_game(self, entry: dict[str, Any]) -> bool:
        """Whether a ``[[corporations]]`` or ``[[companies]]`` entry takes part in this game (1822+'s entities)."""


class RoundPlanHooks(Protocol):
    """The round plan: which rounds, with which steps, in which order, and who acts in them."""

    def initial_round(self) -> RoundState:
        """The first round (an auction of the privates, or the plan's first stock round)."""

    def stock_round(self) -> RoundState:
        """A stock round with the title's steps."""

    def operating_round(self, number: int) -> RoundState:
        """Operating round ``number`` of the set, with the title's steps."""

    def new_round(self, kind: str, number: int) -> RoundState:
        """The round of ``kind`` the plan calls for; a title with round kinds of its own builds them here."""

    def next_in_plan(self, finished: RoundState) -> Next:
        """The round that follows ``finished`` (the plan's answer by default)."""

    def finish_stock_round(self) -> None:
        """What the end of a stock round does (companies sold out rise one row)."""

    def reorder_players(self) -> None:
        """The priority deal, when the plan passes it on."""

    def operating_order(self) -> list[Corporation]:
        """The companies that operate this round, in order."""

    def start_operating(self, corp: Corporation) -> None:
        """A company starts its turn in an operating round."""

    def after_operating(self, corp: Corporation) -> None:
        """A company's turn in an operating round ended."""

    def operating_rounds_in_set(self) -> int:
        """How many operating rounds the set starting now has (the phase's number by default)."""

    def or_round_finished(self) -> None:
        """An operating round ended (before the next of its set, or the end of the set)."""

    def or_set_finished(self) -> None:
        """A set of operating rounds ended (before the next stock round)."""

    def action_processed(self, action: dict[str, Any]) -> None:
        """After every processed action (a title's pending obligations, for example)."""


class EndHooks(Protocol):
    def end_checks(self) -> dict[str, EndCheck]:
        """The named checks the ``[game_end]`` reasons refer to; a title adds its own reasons here."""

    def game_end_timing(self) -> EndTrigger | None:
        """The met end condition that ends the game soonest: (reason, timing), or None."""

    def before_game_end(self, reason: str) -> None:
        """What happens as the game ends for ``reason``, before the scores (1862 repays debts)."""


class ShareHooks(Protocol):
    """Par, floating, presidency, certificates and what players are worth."""

    def can_par(self, corp: Corporation, player: Player) -> bool:
        """Whether ``player`` may start ``corp`` now."""

    def par_cost(self, corp: Corporation, price: int) -> int:
        """What starting ``corp`` at ``price`` costs its president."""

    def after_par(self, player: Player, corp: Corporation) -> None:
        """After ``player`` started ``corp`` (its certificate bought, an exchanged private closed)."""

    def extra_holders(self, corp: Corporation | None = None) -> list[Holder]:
        """Holders of certificates or money the core does not know (1822's tax haven, 1828's merger boxes)."""

    def share_payee(self, corp: Corporation, receiver: Holder | None) -> Holder | None:
        """Who is paid for certificates of ``corp`` bought with ``receiver`` named by the step (None: the
        company for its IPO shares when the capitalization says so, else the bank; 1822: the bank for a
        fully capitalised major)."""

    def float_corporation(self, corp: Corporation) -> None:
        """``corp`` floats: its capital reaches it (full, incremental, or the title's own way)."""

    def check_presidency(self, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
        """Hand the president's certificate to the largest holder if the president no longer is one."""

    def num_certs(self, player: Player) -> float:
        """The certificates ``player`` holds that count against the limit."""

    def parse_price(self, text: str, *, par: bool = False) -> Cell:
        """The market cell a player's price names (a par price when ``par``)."""

    def sell_shares(self, seller: Player, shares: list[Share], percent: int | None = None) -> int:
        """The sale rule: ``seller`` sells ``shares`` (``percent`` of them) to the pool; the proceeds, the
        presidency and the price drops; returns the proceeds."""

    def payout_companies(self) -> None:
        """The privates pay their owners (at the start of an operating round)."""

    def player_value(self, player: Player) -> int:
        """What ``player`` is worth for the score."""

    def private_worth(self, player: Player) -> int:
        """What ``player``'s privates add to his worth."""

    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        """After ``player`` bought ``company`` (a certificate that comes with it, for example)."""


class TrackHooks(Protocol):
    """Tile lays, their costs, and stations."""

    def tile_lays(self) -> list[dict[str, Any]]:
        """The lays a company makes in one turn (``{"lay": True, "upgrade": True, "cost": 0}`` each)."""

    def can_lay_track(self, corp: Corporation) -> bool:
        """Whether ``corp`` may lay track now."""

    def lay_crossings(self, corp: Corporation, hx: Hex, tile: Tile) -> tuple[int, int]:
        """The terrain ``corp`` pays for laying ``tile`` on ``hx``: (cost, water crossings)."""

    def crossing_estimate(self, corp: Corporation, hx: Hex, exits: frozenset[int]) -> int:
        """The least terrain cost of a lay on ``hx`` using ``exits`` (for choices before a tile is named)."""

    def tile_rotations(self, corp: Corporation, hx: Hex, tdef: Any, edges: set[int] | None) -> list[int]:
        """The legal rotations of tile definition ``tdef`` on ``hx``."""

    def upgrade_cost(self, corp: Corporation, hx: Hex, tile: Tile) -> int:
        """What ``corp`` pays for laying ``tile`` on ``hx``, terrain included."""

    def after_tile_laid(self, corp: Corporation, hx: Hex, tile: Tile, water_crossings: int) -> None:
        """After a tile is laid (tile income, a private's closing, for example)."""

    def board_refreshed(self) -> None:
        """After the board changed in a way that forgets every network."""

    def may_replace_neutral(self, corp: Corporation) -> bool:
        """Whether ``corp``'s station may replace a neutral one (1882's CN)."""

    def home_node(self, corp: Corporation, hx: Hex) -> int:
        """The city of ``hx`` that is ``corp``'s home."""

    def reserved_slots(self, hx: Hex, node: int) -> dict[int, str]:
        """The station spaces of a city held for companies: space -> company."""

    def token_blocked_by_reservation(self, hx: Hex, corp: str) -> bool:
        """Whether a reservation on ``hx`` keeps company ``corp`` from placing a station there."""

    def after_home_token(self, corp: Corporation) -> None:
        """After ``corp``'s home station was placed by the core (1822's LNWR: its destination station too)."""

    def can_place_token(self, corp: Corporation) -> bool:
        """Whether ``corp`` may place a station now."""

    def can_token_city(self, corp: Corporation, hx: Hex, node: int, token: Any = None) -> bool:
        """Whether ``corp`` may place ``token`` in city ``node`` of ``hx``."""

    def station_surcharge(self, corp: Corporation, token: Any, hx: Hex) -> int:
        """What ``corp`` pays beyond a station's price to place ``token`` on ``hx`` (1862: half again across the
        border), paid after it; raises GameError when ``corp`` cannot pay both."""

    def network_read(self, corp: Corporation, net: Any) -> None:
        """Each time a company's network is read (1828 remembers then that it once had a route)."""

    def remembers_routes(self) -> bool:
        """Whether the title follows 18xx.games' memory that a company once had a route (``routes_seen``)."""


class TrainHooks(Protocol):
    """Train limits, purchases, discards, rusting and the phases they bring."""

    @property
    def phase(self) -> dict[str, Any]:
        """The phase whose rules are in force now: tile colours, train limit, operating rounds. The phase the
        trains reached by default; 1822's P11 lays the next colour's tiles while its power is in use."""

    def train_limit(self, corp: Corporation) -> int:
        """How many trains ``corp`` may hold."""

    def must_buy_train(self, corp: Corporation) -> bool:
        """Whether ``corp`` must own a train by the end of its turn."""

    def president_may_contribute(self, corp: Corporation) -> bool:
        """Whether ``corp``'s president may add money to a forced train purchase."""

    def other_train_price_range(self, corp: Corporation, train: Train,
                                last_sale_price: int | None = None) -> tuple[int, int]:
        """The prices ``corp`` may pay for ``train`` bought from another company."""

    def trade_in(self, train: Train) -> None:
        """Where a train traded in for a new one goes."""

    def discard_train(self, corp: Corporation, train: Train) -> None:
        """Where a train over the limit goes."""

    def crowded_corporations(self) -> list[Corporation]:
        """The companies over their train limit, which must discard."""

    def on_new_train(self, corp: Corporation, train: Train) -> None:
        """After ``corp`` got a new train."""

    def train_left(self, corp: Corporation, train: Train) -> None:
        """After ``train`` left ``corp`` (sold to another company or rusted; 1828 empties a shell)."""

    def phase_changed(self) -> None:
        """After the phase changed."""

    def before_train_purchase(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None,
                              must_buy: bool) -> None:
        """Before a company's train purchase is checked (1822: the director borrows what a forced purchase
        needs when he has nothing left to sell)."""

    def close_on_train_bought(self, corp: Corporation) -> None:
        """Privates that close when ``corp`` buys a train."""

    def min_depot_price(self) -> int | None:
        """The least a forced purchase must be able to pay, when not the cheapest train's price."""

    def run_event(self, event: str, corp: Corporation | None, train: Train | None) -> None:
        """Carry out the train or phase event ``event`` (by default the game's ``event_<event>`` method; a title
        may keep its own table of events)."""

    def event_close_companies(self) -> None:
        """The ``close_companies`` event: the privates close."""


class RouteHooks(Protocol):
    """Which trains run, what a route earns, and how the route finder reads trains and bonuses."""

    def best_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        """The routes the engine suggests ``corp`` runs (the route finder's, as run_routes data)."""

    def route_trains(self, corp: Corporation) -> list[Train]:
        """The trains of ``corp`` that run."""

    def route_revenue(self, corp: Corporation, route: Route) -> int:
        """What ``route`` earns ``corp``, its bonuses included."""

    def route_anchors(self, corp: Corporation) -> list[tuple[str, int]] | None:
        """Where ``corp``'s routes must start when not at a station (1828's C&P: its tile); None: its stations."""

    def route_needs_station(self, corp: Corporation) -> bool:
        """Whether a route must include one of ``corp``'s stations."""

    def has_route_bonus(self) -> bool:
        """Whether ``route_bonus`` can add anything (the route finder prices routes without it otherwise)."""

    def route_bonus(self, route: Route) -> int:
        """What a route earns beyond its stops."""

    def autoroute_train_spec(self, train: Train) -> TrainSpec | None:
        """How the route finder reads ``train`` (express, unpaid stops, multipliers...); None: its distance."""

    def autoroute_pricing(self, graph: RouteGraph) -> Pricing | None:
        """The route finder's bonuses over ``graph`` (set bonuses such as 1822's destinations); None: the
        engine's ``route_bonus``."""

    def autoroute_tile_once(self) -> frozenset[str] | None:
        """The hexes exempt from a rule that a route uses each tile once (1862); None: no such rule."""

    def autoroute_single_stop_hexes(self) -> frozenset[str]:
        """The hexes where a route stops once whatever their cities (1822's London)."""

    def run_revenue(self, corp: Corporation, routes: list[dict[str, Any]]) -> int | None:
        """For a title that traces and prices runs itself (1822): the revenue of a run's routes, raising
        GameError for an illegal one; None: the core traces and prices them."""


class DividendHooks(Protocol):
    """The dividend policy."""

    def dividend_kinds(self, corp: Corporation) -> tuple[str, ...]:
        """The dividend kinds ``corp`` may choose (payout, withhold, half...)."""

    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        """Pay ``revenue`` as ``kind``: the holders' parts, what the company keeps, the price move."""

    def more_dividend_parts(self, corp: Corporation, revenue: int) -> list[ev.HolderPart]:
        """Payouts to holders the core does not know of (1828's ...), after the shareholders'."""


class MoneyHooks(Protocol):
    """Emergency money raising and bankruptcy."""

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """Whether a president may sell this bundle to raise money for ``corp``'s train."""

    def emergency_bundle_needed(self, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """Whether this sale is needed for the train (a sale beyond the need is refused)."""

    def emergency_liquidity(self, player: Player, corp: Corporation) -> int:
        """All the money ``player`` could raise for ``corp``'s train."""

    def can_go_bankrupt(self, corp: Corporation) -> bool:
        """Whether ``corp``'s president may declare bankruptcy now."""

    def go_bankrupt(self, corp: Corporation) -> None:
        """The bankruptcy of ``corp``'s president (or of ``corp``)."""


class PrivateHooks(Protocol):
    """Privates bought by companies and powers used in a company's turn."""

    def can_buy_company(self, corp: Corporation) -> bool:
        """Whether ``corp`` may buy privates now."""

    def company_price_range(self, corp: Corporation, company: Company) -> tuple[int, int]:
        """What ``corp`` may pay for ``company``."""

    def after_company_bought(self, corp: Corporation, company: Company, price: int) -> None:
        """After ``corp`` bought ``company`` from a player (what the private brings with it: 1828's C&P)."""

    def has_turn_ability(self, corp: Corporation) -> bool:
        """Whether a private of ``corp`` has a power usable in its turn (keeps the turn open for it)."""


class ViewHooks(Protocol):
    """What the views show of the title's own concepts (engine/core/viewbuild.py)."""

    def describe(self, entity: Any) -> str:
        """How the log names ``entity`` (a player, a company, or a title's own holder)."""

    @classmethod
    def edition_label(cls) -> str:
        """What the title says of its edition wherever a player meets it ("" for none; 1862: a reconstructed
        edition). The default reads ``edition_label`` of the title's game.toml."""

    def cash_aside(self) -> dict[ev.Party, int]:
        """Money the title holds outside any holder (1822's P15/P20 charters), by who holds it."""

    def hex_markers(self, hex_id: str) -> Sequence[str]:
        """Markers to show on a hex (1828's coal)."""

    def train_groups(self, corp: Corporation) -> list[tuple[str, tuple[str, ...]]]:
        """A company's trains in named groups, when it holds them so (1828's shells): (group, train names)."""

    def bidbox_companies(self) -> list[Company]:
        """The companies in bid boxes now (1822)."""

    def standing_bids(self) -> dict[str, list[tuple[Any, int]]]:
        """Bids the game keeps from one round to the next (1822's bid boxes): company -> (bidder, price)."""

    def committed_cash(self, player: Player) -> int:
        """Cash ``player`` has committed to standing bids."""

    def company_value(self, company: Company) -> int:
        """What a private is worth in the status (1822's P16: its tax haven)."""


class GameHooks(TitleConstants, SetupHooks, RoundPlanHooks, EndHooks, ShareHooks, TrackHooks, TrainHooks,
                RouteHooks, DividendHooks, MoneyHooks, PrivateHooks, ViewHooks, Protocol):
    """Every hook of :class:`engine.core.game.Game`."""


# ---------------------------------------------------------------------------------------------- rounds and steps


class RoundHooks(Protocol):
    kind: ClassVar[str]

    def name(self) -> str:
        """The round's name in the log and the status."""

    def select_entities(self) -> list[Any]:
        """Who takes turns in the round, in order."""

    def finished(self) -> bool:
        """Whether the round is over."""

    def start(self) -> None:
        """The round begins (its steps' ``round_setup``)."""


class StepHooks(Protocol):
    """The interface of every step (engine/core/round.py); a step's ``process_<type>`` takes an action."""

    name: ClassVar[str]
    blocks: ClassVar[bool]

    def actions(self, entity: Entity) -> list[str]:
        """The action types ``entity`` may take in this step now."""

    def offers(self, entity: Entity, kind: str) -> bool:
        """Whether ``actions(entity)`` lists ``kind``, answered without listing the rest where that is cheaper (the
        round asks it before each action); it must agree with ``actions``."""

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        """Every concrete action of type ``kind`` this step would take from ``entity`` now."""

    def active(self) -> bool:
        """Whether the step still takes part in the turn."""

    def blocking(self) -> bool:
        """Whether the step holds the turn until it is done."""

    def active_entities(self) -> list[Any]:
        """Who acts in this step."""

    def description(self) -> str:
        """What the step is about, for prompts."""

    def choice_label(self, entity: Entity, action: Action) -> str | None:
        """What a ``choose`` option means, in words."""

    def price_range(self, entity: Entity, action: Action) -> tuple[int, int] | None:
        """The prices the step accepts for ``action``; None: fixed."""

    def offered_by_reference(self, entity: Entity, action: Action) -> bool:
        """False for a choice oracle playouts leave out (listed in docs/conformance.md)."""

    def setup(self) -> None:
        """A new entity starts its turn."""

    def round_setup(self) -> None:
        """The round starts."""

    def skip(self) -> None:
        """The step has nothing to do for the entity."""

    def pass_(self) -> None:
        """The entity passes the step."""

    def next_lay(self) -> dict[str, Any] | None:
        """The tile lay this step makes next (one of ``tile_lays``, with its ``cost``), or None."""

    def lay_cost(self, entity: Entity, action: Action) -> tuple[int, int, int] | None:
        """(terrain, river, fee) of a ``lay_tile`` choice the step prices itself; None: the core prices it."""

    def token_price(self, entity: Entity, action: Action) -> int | None:
        """The price of a ``place_token`` choice the step sets itself; None: the station's price."""

    def company_bids(self) -> dict[str, list[tuple[Any, int]]]:
        """The standing bids this step holds, per company: (bidder, price)."""


class StockStepHooks(Protocol):
    """engine/core/steps/stock.py ``BuySellParShares``: what a player may buy, sell and start."""

    def can_buy(self, player: Player, share: Share | None) -> bool: ...
    def can_sell(self, player: Player, shares: list[Share], percent: int | None = None) -> bool: ...
    def can_gain(self, player: Player, shares: list[Share]) -> bool: ...
    def share_cost(self, share: Share) -> int: ...
    def must_sell(self, player: Player) -> bool: ...
    def holding_ok(self, player: Player, corp: Corporation, gained: list[Share]) -> bool: ...
    def can_buy_multiple(self, corp: Corporation) -> bool: ...
    def parable(self, player: Player) -> list[Corporation]: ...
    def has_any_action(self, player: Player) -> bool: ...
    def bought(self) -> bool: ...


class BuyTrainStepHooks(Protocol):
    """engine/core/steps/operating.py ``BuyTrain``: which trains a company may buy, and when it must sell."""

    def can_buy(self, corp: Corporation) -> bool: ...
    def room(self, corp: Corporation) -> bool: ...
    def other_trains(self, corp: Corporation) -> list[Train]: ...
    def needs_emergency_sale(self, corp: Corporation) -> bool: ...


class AuctionStepHooks(Protocol):
    """engine/core/steps/auction.py ``WaterfallAuction``."""

    def may_purchase(self, company: Company) -> bool:
        """Whether ``company`` may be bought outright now."""

    def add_bid(self, player: Player, company: Company, price: int) -> None:
        """``player`` bids ``price`` on ``company`` (checked against the minimum and his money)."""

    def resolve_bids(self) -> None:
        """Settle the bids on the cheapest companies left, as far as they can be settled now."""

    def award(self, player: Player, company: Company, price: int) -> None:
        """``player`` gets ``company`` for ``price`` (the certificate that comes with it included)."""

    def all_passed(self) -> None:
        """Every player passed in a row (the cheapest private's price drops, or it is given away)."""


# ---------------------------------------------------------------------------------------------- market and abilities


class MarketHooks(Protocol):
    """engine/core/market.py ``StockMarket``: how prices move."""

    def up(self, corp: str) -> None: ...
    def down(self, corp: str) -> None: ...
    def left(self, corp: str) -> None: ...
    def right(self, corp: str) -> None: ...
    def par_cells(self) -> list[Cell]: ...


class AbilityHooks(Protocol):
    """engine/core/abilities.py ``Ability``: a private power a title registers (``register_ability``)."""

    KEYS: ClassVar[tuple[str, ...]]
    TYPE: ClassVar[str]

    def hexes_named(self) -> tuple[str, ...]: ...
    def corporations_named(self) -> tuple[str, ...]: ...


# Core class name -> the hook groups its title subclasses may implement. A core class's hooks include its core
# bases' (a title's BuyTrain subclass may implement the StepHooks too).
DECLARED: dict[str, tuple[type[Any], ...]] = {
    "Game": (GameHooks,),
    "Round": (RoundHooks,),
    "Step": (StepHooks,),
    "BuySellParShares": (StockStepHooks,),
    "BuyTrain": (BuyTrainStepHooks,),
    "WaterfallAuction": (AuctionStepHooks,),
    "StockMarket": (MarketHooks,),
    "Ability": (AbilityHooks,),
}
# A classmethod hook the protocols cannot state without naming a private type: Ability.read(reader).
EXTRA: dict[str, frozenset[str]] = {"Ability": frozenset({"read"})}
PATTERNS: dict[str, tuple[str, ...]] = {"Step": ("process_",), "Game": ("event_",)}


def hook_names(group: type[Any]) -> frozenset[str]:
    """The members a hook group declares, its protocol bases' included."""
    names: set[str] = set()
    for cls in group.__mro__:
        if cls is object or cls is Protocol or getattr(cls, "_is_protocol", False) is False:
            continue
        names.update(n for n in vars(cls) if not n.startswith("_"))
        names.update(getattr(cls, "__annotations__", {}))
    return frozenset(names)


def declared_for(core_class: str) -> frozenset[str]:
    """The hooks declared for title subclasses of the core class named ``core_class`` (itself, not its bases)."""
    out: set[str] = set(EXTRA.get(core_class, ()))
    for group in DECLARED.get(core_class, ()):
        out |= hook_names(group)
    return frozenset(out)


def is_declared(core_classes: Sequence[str], name: str) -> bool:
    """Whether ``name`` is a hook of any of ``core_classes`` (a title class's core ancestors)."""
    return any(name in declared_for(c) or name.startswith(PATTERNS.get(c, ("\0",))) for c in core_classes)
