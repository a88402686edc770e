"""The 1862 game as its rule modules and steps see it: the core game with the state 1862 adds.

G1862 (game.py) is this class with the title's hooks, which hand each rule to its module. The rules and steps type
their game as :class:`Game1862` so that none of them imports the game module (engine/ has no import circle).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.entities import Corporation, Player
from ...core.game import Game


@dataclass
class Auction:
    """An auction among a private's bidders (spec §8.2.4)."""

    company: str
    order: list[Player]  # bidders still in, clockwise from the one left of the highest bidder
    high: Player
    price: int
    turn: int = 0


@dataclass
class PrivateSale:
    """What the private sale keeps between actions and initial stock rounds."""

    bids: dict[str, list[tuple[Player, int]]] = field(default_factory=dict)
    decisions: list[tuple[Player, str]] = field(default_factory=list)  # outbid players to choose keep/withdraw
    auction: Auction | None = None


class Game1862(Game):
    """What 1862 keeps besides the core's state (G1862.setup sets it)."""

    RMC_DISCOUNT = 160  # terrain the Rocky Mountain Company's tile lays free (§6)
    private_sale: PrivateSale
    redeemed: set[str]  # companies that redeemed their shares (§9)
    fixed_scores: dict[int, int]  # bankrupt players' scores, fixed when they leave (§10.1)
    redemptions: int
    groups: dict[int, list[Corporation]]  # the company groups on sale in turn (§5.3)
    bankruptcies: int
    idle_stock_rounds: int  # stock rounds ended since the last action (D-22: a round nobody could act in)

    def switch(self, name: str) -> bool:
        """Whether the game was set up with this §14.2 switch in its alternative position."""
        return name in (self.options.get("optional_rules") or [])
