"""1862's stations (§5.5, §3.4.6): a station across the US/Canada border from the company's home costs half as
much again; brown New York puts both its companies' homes in its one city."""

from __future__ import annotations

from ...core.board import Hex
from ...core.entities import Corporation, Token
from ...core.errors import insufficient
from ...core.tiles import Tile
from .routes import NEW_YORK
from .state import Game1862


def country(hx: Hex) -> str:
    return "CA" if "ca" in hx.tags else "MX" if "mx" in hx.tags else "US"


def marker_cost(game: Game1862, corp: Corporation, token: Token, hx: Hex) -> int:
    """A station marker's price, 1.5 times across the US/Canada border from the company's home (§5.5)."""
    home = game.board[corp.home] if corp.home else hx
    return token.price * 3 // 2 if country(hx) != country(home) else token.price


def border_surcharge(game: Game1862, corp: Corporation, token: Token, hx: Hex) -> int:
    """What a station across the border costs over its printed price; refused when the treasury cannot pay."""
    extra = marker_cost(game, corp, token, hx) - token.price
    if extra and corp.cash < token.price + extra:
        raise insufficient(f"{corp.sym} cannot afford a station across the border: treasury "
                           f"{game.format_money(corp.cash)}, price {game.format_money(token.price + extra)}")
    return extra


def new_york_merged(game: Game1862, hx: Hex, tile: Tile) -> None:
    if hx.id == NEW_YORK and len(tile.tdef.cities) == 1:
        # Brown New York merges the two stations (§3.4.6): both homes are in its one city.
        for c in game.corporations.values():
            if c.home == NEW_YORK:
                c.home_city = 0
