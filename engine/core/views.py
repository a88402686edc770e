"""Read-only snapshots of a game for renderers and chat replies.

The engine builds these from its live state (``viewbuild.board_view(game)``, ``market_view``,
``status_view``); consumers never touch the live objects, so drawing can happen on
another thread while the game moves on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

NodeKind = Literal["city", "town", "offboard", "junction"]


@dataclass(frozen=True, slots=True)
class NodeView:
    """A revenue centre or junction on a hex, numbered as in the tile language (n0, n1, ...)."""

    index: int
    kind: NodeKind
    revenue: int  # current value (phase applied for off-boards)
    slots: int = 0  # token slots (cities only)
    tokens: tuple[str | None, ...] = ()  # per slot: corporation symbol, "CN" for neutral tokens, or None
    reserved: tuple[str | None, ...] = ()  # per slot: corporation whose home it is, or None
    token_kinds: tuple[str, ...] = ()  # per slot: "normal", "neutral", "blocking" (1828), "destination" (1822)
    revenues_by_colour: tuple[tuple[str, int], ...] = ()  # off-boards: ("yellow", 30), ("brown", 60)
    name: str = ""


@dataclass(frozen=True, slots=True)
class PathView:
    """One track segment; ends are "e<edge>" (absolute edge after rotation) or "n<node index>"."""

    a: str
    b: str


@dataclass(frozen=True, slots=True)
class HexView:
    id: str  # as printed on the board, e.g. "J10"
    row: int  # letter index (A=0) when letters are rows, else the number
    col: int
    colour: str  # colour of what is visible: white, yellow, green, brown, gray, red, blue
    name: str = ""
    tile: str | None = None  # tile name when a tile has been laid ("57"), None for the printed hex
    rotation: int = 0
    label: str | None = None
    nodes: tuple[NodeView, ...] = ()
    paths: tuple[PathView, ...] = ()
    terrain_cost: int = 0
    terrain_kind: str = ""
    tags: tuple[str, ...] = ()  # title markers: "nwr", "fishing", "hudson-bay", ...
    blocked_by: str | None = None  # private company symbol that blocks building here
    home_reserved: tuple[str, ...] = ()  # companies whose home is here but in no one city yet (home_city choice)
    markers: tuple[str, ...] = ()  # markers lying on the hex, e.g. 1828's coal markers on the Coalfields
    passable_only_by: tuple[str, ...] | None = None  # a hex closed but to these companies (1828's coalfields)
    destinations: tuple[str, ...] = ()  # companies whose destination station still waits for them here (1822)
    bonus: tuple[tuple[str, int], ...] = ()  # (tile colour, extra revenue) of a bonus hex (1862), phase order


@dataclass(frozen=True, slots=True)
class HexsideView:
    a: str
    b: str
    kind: str  # "water" or "impassable"
    cost: int = 0


@dataclass(frozen=True, slots=True)
class RouteView:
    train: str
    hexes: tuple[str, ...]  # hexes visited in order
    revenue: int


@dataclass(frozen=True, slots=True)
class BoardView:
    title: str
    layout: Literal["flat", "pointy"]
    letters: Literal["rows", "columns"]
    hexes: tuple[HexView, ...]
    hexsides: tuple[HexsideView, ...] = ()
    phase_colours: tuple[str, ...] = ("yellow",)  # tile colours available in the current phase
    current_offboard_colour: str = "yellow"  # which off-board value is in force
    last_tile_hex: str | None = None
    last_routes: tuple[RouteView, ...] = ()
    corporation_colours: dict[str, str] = field(default_factory=dict)  # symbol -> "#rrggbb"
    corporation_text_colours: dict[str, str] = field(default_factory=dict)
    highlight_hexes: tuple[str, ...] = ()  # hexes to mark, e.g. where the acting company may lay track
    highlight_note: str = ""  # what the marked hexes mean, for the legend
    currency: str = "$%d"  # the title's money format from its data ("$%d", "£%d", "%d ¥")


@dataclass(frozen=True, slots=True)
class MarketView:
    title: str
    rows: tuple[tuple[int | None, ...], ...]  # price per cell, None where no cell
    zones: dict[tuple[int, int], str]  # cell -> zone name (yellow, orange, brown, ...)
    par_cells: tuple[tuple[int, int], ...]
    end_cells: tuple[tuple[int, int], ...]
    stacks: dict[tuple[int, int], tuple[str, ...]]  # cell -> corporations, operating order first
    corporation_colours: dict[str, str]
    corporation_text_colours: dict[str, str]
    round_name: str  # "Stock Round 3", "Operating Round 4.1"
    phase: str
    operating_rounds_in_set: int
    finished: bool = False
    game_end_reason: str | None = None
    ranking: tuple[tuple[str, int], ...] = ()  # once finished: (player name, final value), best first
    kinds: dict[str, str] = field(default_factory=dict)  # symbol -> "minor" or "system" (majors are left out)
    currency: str = "$%d"  # the title's money format from its data ("$%d", "£%d", "%d ¥")


@dataclass(frozen=True, slots=True)
class PlayerStatus:
    id: str
    name: str
    cash: int
    shares: tuple[tuple[str, int], ...]  # (corporation, percent)
    privates: tuple[str, ...]
    certificates: int
    certificate_limit: int
    value: int
    in_bids: int = 0  # cash held back by the player's standing bids (1822), still part of ``cash``
    priority: bool = False
    acting: bool = False
    debt: int = 0  # owed to the bank (1822's loans, 1862's unpaid rest)


@dataclass(frozen=True, slots=True)
class CorporationStatus:
    sym: str
    name: str
    president: str | None  # player name
    treasury: int
    trains: tuple[str, ...]
    tokens_left: int
    tokens_total: int
    share_price: int | None
    ipo_percent: int
    pool_percent: int
    floated: bool
    last_revenue: int | None
    colour: str
    text_colour: str
    privates: tuple[str, ...] = ()
    operated: bool = False
    token_hexes: tuple[str, ...] = ()  # where its stations stand, home first
    token_prices: tuple[int, ...] = ()  # price of each station not yet placed
    kind: str = "major"  # major, minor or system
    shells: tuple[tuple[str, tuple[str, ...]], ...] = ()  # 1828 system: each shell's company and its trains
    loans: int = 0
    markers: tuple[str, ...] = ()  # e.g. 1828's coal marker
    debt: int = 0  # face value of its debt certificates (1862)


@dataclass(frozen=True, slots=True)
class CompanyStatus:
    """A private company: what it is worth and earns, what it does, who holds it or bids on it."""

    sym: str
    name: str
    value: int
    revenue: int
    description: str
    owner: str | None  # player name or corporation symbol; None while the bank holds it
    high_bid: int | None = None  # during an auction: the highest bid and who made it
    high_bidder: str | None = None
    closed: bool = False
    bid_box: bool = False  # 1822: in a bid box now, open for bids
    in_stack: bool = False  # 1822: still in the bank's stack, waiting for a bid box


@dataclass(frozen=True, slots=True)
class TrainStock:
    name: str
    price: int
    remaining: int | None  # None = unlimited


@dataclass(frozen=True, slots=True)
class StatusView:
    title: str
    round_name: str
    phase: str
    phase_notes: tuple[str, ...]  # "train limit 4", "yellow and green tiles", ...
    bank_cash: int
    players: tuple[PlayerStatus, ...]
    corporations: tuple[CorporationStatus, ...]
    trains_available: tuple[TrainStock, ...]
    pool_trains: tuple[str, ...]
    acting: tuple[str, ...]  # who must act now, as readable names
    finished: bool = False
    bank_unlimited: bool = False  # a bank that never breaks and ends nothing (1828)
    game_end_reason: str | None = None
    companies: tuple[CompanyStatus, ...] = ()
    currency: str = "$%d"  # the title's money format from its data ("$%d", "£%d", "%d ¥")
