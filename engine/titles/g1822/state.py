"""The 1822 game as its rule modules and steps see it: the core game with the state 1822 adds.

G1822 (game.py) is this class with the title's hooks, which hand each rule to its module. The rules and steps type
their game as :class:`Game1822` so that none of them imports the game module (engine/ has no import circle).
"""

from __future__ import annotations

from typing import Any

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


class Game1822(Game):
    """What 1822 keeps besides the core's state (G1822.setup sets it)."""

    market: Market1822
    rules: dict[str, Any]  # the title's rule figures (game.toml [game.rules])
    bidding: dict[str, Any]  # the bid boxes' figures (game.toml [game.bidding])
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
