"""The 1822 game as its rule modules and steps see it: the core game with the state 1822 adds.

G1822 (game.py) is this class with the title's hooks, which hand each rule to its module. The rules and steps type
their game as :class:`Game1822` so that none of them imports the game module (engine/ has no import circle).
"""

from __future__ import annotations

from typing import TypedDict

from ...core.entities import Company, Holder, Player, Share, Train
from ...core.game import Game
from .market import Market1822


class TaxHaven(Holder):
    """P16's off-shore charter: the shares its owner bought through it and the dividends they earned. Its
    certificates are nobody's holding, so they count for no directorship, holding limit or certificate limit,
    but they are sold (a company can be sold out with one there) and float a company."""

    def __init__(self) -> None:
        self.name = "the tax haven"
        self.cash = 0
        self.shares: list[Share] = []


class Rules1822(TypedDict):
    """The title's rule figures (game.toml ``[rules]``)."""

    token_price: int
    minor_14_station_price: int  # the London station a major gets for minor 14 bought from a bid box
    l_to_2_upgrade: int
    exchange_tokens: dict[str, int]
    double_cash_revenue: list[int]  # P9's revenue by phase
    london: str
    english_channel: str
    france: str
    double_hexes: list[str]
    merthyr_pontypool: str
    track_rights: dict[str, list[str]]


class Bidding1822(TypedDict):
    """The bid boxes' figures (game.toml ``[bidding]``)."""

    tokens: dict[str, int]  # bid tokens by player count
    per_turn: int
    minor_boxes: int
    concession_boxes: int
    private_boxes: int
    start_minor: str
    start_concession: str
    start_private: str
    minor_box_price: int
    minor_start_par: int
    plus_boxes: list[list[str]]


class TrackPower(TypedDict, total=False):
    """A private's track power (its ``track`` table in game.toml)."""

    count: int
    lay_count: int
    upgrade_count: int
    tiles: list[str]
    hexes: list[str]
    remove_town: bool  # P2
    teleport: bool  # P5's English Channel upgrade
    free: bool
    estuary: bool  # P10
    advanced: bool  # P11
    must_lay_together: bool
    extra: bool  # P12's lays besides the company's own
    consume_tile_lay: bool
    station_in_hexes: bool
    before_own_lay: bool
    crossing_required: bool  # P21


class Discount(TypedDict, total=False):
    """A private's discount on terrain or on named hexes (its ``discounts`` in game.toml)."""

    terrain: str
    hexes: list[str]
    amount: int


class MapExtras(TypedDict):
    """What 1822's map adds to a hex (map.toml): a label its green tile must carry, the stubs a first tile on a
    London approach hex must use, and whether it is Swansea."""

    future_label: str | None
    stubs: list[int]
    swansea: bool


def phase_status(game: Game) -> list[str]:
    """The current phase's status flags (``can_par``, ``full_capitalisation``, ...)."""
    status: list[str] = game.phase.get("status", [])
    return status


def newest_colour(game: Game) -> str:
    """The newest tile colour of the phase as printed (P11's lays do not change it)."""
    colour: str = game.phases[game.phase_index]["tiles"][-1]
    return colour


class Game1822(Game):
    """What 1822 keeps besides the core's state (G1822.setup sets it)."""

    market: Market1822
    rules: Rules1822
    bidding: Bidding1822
    bid_tokens: int
    nothing_sold: bool  # nothing bought or bid on yet: a first stock round so ends the game
    double_cash_choice: Player | None  # P9's owner, when they chose to double their cash for the player order
    phase_revenue_cash: dict[str, int]  # what P15's and P20's charters hold
    tax_haven: TaxHaven
    exchange_tokens: dict[str, int]
    bidbox_minor_cache: list[str]  # the minors in the bid boxes, fixed until the boxes are refilled
    bids: dict[str, list[tuple[Player, int]]]
    history: dict[str, int]  # operating turns each company has completed
    egr_choice: dict[str, str]  # P8's choice: "token" (a free lay) or "discount"
    acquired_this_round: set[str]
    track_left: dict[str, dict[str, int]]  # uses left of the privates' track powers
    laying_private: Company | None  # the private whose track power is laying, while it lays
    free_tokens_used: set[str]  # majors that have placed their free station (SECR's Channel)
    selling: set[str]  # certificates being sold, while their sale settles the presidency
    company_trains: dict[str, Train]  # the trains of privates not yet acquired
    fully_capitalised: set[str]  # majors that will receive ten times their par when they float
