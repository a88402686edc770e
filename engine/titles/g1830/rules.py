"""1830's rules that its steps ask of the game: its optional rules and the M&H's exchange (the steps import this
module, and the game class in game.py builds on it)."""

from __future__ import annotations

from ...core.entities import Company, Player, Share
from ...core.game import Game

# Optional rules of 18xx.games' 1830: several brown-zone shares may come from the IPO too, and a third 6 train.
MULTIPLE_BROWN_FROM_IPO = "multiple_brown_from_ipo"
OPTIONAL_6_TRAIN = "optional_6_train"


class Rules1830(Game):
    # The D&H after its lay in Scranton: the private and the hex where its corporation may now place a station.
    teleported: tuple[Company, str] | None = None

    def optional_rule(self, name: str) -> bool:
        return name in (self.options.get("optional_rules") or [])

    def brown_from_ipo(self) -> bool:
        """Whether several brown-zone shares in one turn may come from the IPO as well as the market."""
        return self.optional_rule(MULTIPLE_BROWN_FROM_IPO)

    # ------------------------------------------------------------------ privates
    # Blocked hexes, the C&A's PRR share, the B&O's president's certificate, its no-buy and its closing are data
    # (abilities in game.toml); the C&StL's, D&H's and M&H's powers are the title's ability types (abilities.py)
    # carried out by powers.py.
    def exchange_allowed(self, player: Player, share: Share) -> bool:
        """The M&H's exchange needs the player to stay within 60% of the company (unless its price is in the
        orange or brown zone); the certificate limit does not apply (18xx.games)."""
        cell = self.market.location.get(share.corp)
        if cell is not None and cell.zone in ("orange", "brown"):
            return True
        return player.percent_of(share.corp) + share.percent <= self.config.shares.hold_limit

    def exchange_company(self, company: Company, share: Share) -> None:
        _, corp, previous = self.shares.exchange_private(company, share)
        if corp.ipoed:
            self.shares.check_float(corp)
            self.check_presidency(corp, previous=previous)
