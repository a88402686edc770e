"""Coal (rules 16): the Virginia Coalfields, open only to companies with a coal marker, which they buy there or
take with the Virginia Tunnel's tile (#4 only); the map shows the markers left."""

from __future__ import annotations

from ...core import events as ev
from ...core.entities import Corporation, pay
from ...core.errors import illegal
from ...core.graph import reaches
from .state import Game1828


def has_coal(corp: Corporation) -> bool:
    return "coal" in corp.markers


def can_buy_marker(game: Game1828, corp: Corporation) -> bool:
    return (game.coal_on_fields > 0 and not has_coal(corp) and corp.cash >= int(game.coal["price"])
            and game.track.shows(corp, lambda net: reaches(net, game.coal["coalfields"])))


def buy_marker(game: Game1828, corp: Corporation) -> None:
    price = int(game.coal["price"])
    pay(corp, game.bank, price, ev.Why.OTHER)
    corp.markers.append("coal")
    game.coal_on_fields -= 1
    game.log(f"{corp.sym} buys a coal marker for {game.format_money(price)}")
    game.track.board_changed()


def hex_markers(game: Game1828, hex_id: str) -> tuple[str, ...]:
    """Markers lying on a hex, for the map: the coal markers left on the Coalfields and the tunnel's."""
    if hex_id == game.coal["coalfields"]:
        return ("coal",) * game.coal_on_fields
    if hex_id == game.coal["tunnel"] and game.tunnel_coal:
        return ("coal",)
    return ()


def lay_allowed(game: Game1828, hex_id: str, tile_id: str) -> bool:
    # The Virginia Tunnel takes only tile #4 (rules 16).
    return hex_id != game.coal["tunnel"] or tile_id.rsplit("-", 1)[0] == str(game.coal["tunnel_tile"])


def check_lay_allowed(game: Game1828, hex_id: str, tile_id: str) -> None:
    if not lay_allowed(game, hex_id, tile_id):
        raise illegal(f"the Virginia Tunnel ({hex_id}) takes only tile #{game.coal['tunnel_tile']}")


def tunnel_laid(game: Game1828, corp: Corporation, hex_id: str) -> None:
    """Whoever lays the tunnel tile takes its coal marker, or puts it on the Coalfields (rules 16)."""
    if hex_id != game.coal["tunnel"] or not game.tunnel_coal:
        return
    game.tunnel_coal = False
    game.log(f"{corp.sym} acquires a coal marker")
    if has_coal(corp):
        game.log(f"{corp.sym} already owns a coal marker, placing coal marker on Virginia Coalfields")
        game.coal_on_fields += 1
    else:
        corp.markers.append("coal")
        game.track.board_changed()


def close_coalfields(game: Game1828) -> None:
    """The Coalfields hex lets through only companies with a coal marker."""
    coalfields = game.board.hexes.get(str(game.data()["game"]["coal"]["coalfields"]))
    if coalfields is not None:
        coalfields.passable_only_by = frozenset(c.sym for c in game.corporations.values() if "coal" in c.markers)


def check_route(game: Game1828, corp: Corporation, hexes: set[str]) -> None:
    if game.coal["coalfields"] in hexes and not has_coal(corp):
        raise illegal("a route to the Virginia Coalfields needs a coal marker")
