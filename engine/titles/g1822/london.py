"""London: one station per company in each of its cities, minor 14's reserved space, the approach hexes' first
tiles that must use their stubs, and routes that stop at one London station at most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.board import Hex
from ...core.entities import Corporation, Token
from ...core.game import Game
from ...core.tiles import TileDef
from .track import lay_rotations, map_extras

if TYPE_CHECKING:
    from .state import Game1822


def can_token_city(game: Game1822, corp: Corporation, hx: Hex, node: int, token: Token | None = None) -> bool:
    if hx.id != game.rules["london"]:
        return Game.can_token_city(game, corp, hx, node, token)
    # London's cities are stations of their own: one per company per city.
    if node not in hx.tile.tokens or corp.sym in hx.tile.tokens[node]:
        return False
    if game.rules_edition >= 3 and game.token_blocked_by_reservation(hx, corp.sym):
        return False
    return game.track.free_slot(hx, node, corp.sym) is not None


def token_blocked_by_reservation(game: Game1822, hx: Hex, corp: str) -> bool:
    """Edition 3, as 18xx.games: minor 14, not yet started, holds one of London's spaces that no city reserves
    for its own company, so the last such space is its."""
    if game.rules_edition < 3:
        return bool(Game.token_blocked_by_reservation(game, hx, corp))
    holders = game.track.tile_home_holders(hx, corp)
    if not holders:
        return False
    available = 0
    for node, slots in hx.tile.tokens.items():
        reserved = game.reserved_slots(hx, node)
        available += sum(1 for i, s in enumerate(slots) if s is None and i not in reserved)
    return available <= len(holders)


def autoroute_single_stop_hexes(game: Game1822) -> frozenset[str]:
    # A route may not run between London's stations: it stops at one of them at most.
    return frozenset({str(game.rules["london"])})


def tile_rotations(game: Game1822, corp: Corporation, hx: Hex, tdef: TileDef, edges: set[int] | None) -> list[int]:
    stubs = map_extras(game, hx.id)["stubs"]
    if hx.tile.colour == "white" and stubs:
        # The first lay on a London approach hex must use its stubs, whoever lays it: 18xx.games withdraws
        # every holder's rights to the hex before it checks the lay, so nobody lays there freely.
        return [r for r in lay_rotations(game, corp, hx, tdef, edges)
                if all(e in {(x + r) % 6 for x in tdef.edges()} for e in stubs)]
    return lay_rotations(game, corp, hx, tdef, edges)
