"""1862's certificates (§4.3, §8.3): a certificate's value from the price per 10% (a 5% one rounded up), and the
certificate limit by the players and companies left in the game."""

from __future__ import annotations

from ...core.entities import Corporation, Share
from . import rules
from .state import Game1862


def players_in_game(game: Game1862) -> int:
    return sum(1 for p in game.players if not p.bankrupt)


def companies_out(game: Game1862) -> int:
    return sum(1 for c in game.corporations.values() if c.closed)


def update_cert_limit(game: Game1862) -> None:
    table = game.data()["game"]["cert_limit_table"]
    game.cert_limit = rules.cert_limit(table, players_in_game(game), 13 - companies_out(game))


def cert_price(game: Game1862, corp: Corporation, share: Share) -> int:
    cell = game.market.location.get(corp.sym)
    return rules.cert_value(cell.price, share.percent) if cell is not None else 0
