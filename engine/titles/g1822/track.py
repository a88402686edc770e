"""Track lays: how many, their cost after the privates' discounts, estuary crossings, the special tiles of
Swansea and the future-label hexes, P2's town removal, and stations kept in a new tile's printed spaces.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...core.board import Hex
from ...core.entities import Corporation, CorporationKind
from ...core.game import Game
from ...core.tiles import Tile, TileDef
from ...core.track import legal_rotations
from .state import Discount, MapExtras
from .stations import stations_in_city
from .track_powers import TRACK_PLAIN, TRACK_TOWN, track_power

if TYPE_CHECKING:
    from .state import Game1822




def tile_lays_for(game: Game1822, corp: Corporation) -> list[dict[str, Any]]:
    if corp.kind is CorporationKind.MAJOR and int(game.phase["name"]) >= 3:
        return [{"lay": True, "upgrade": True}, {"lay": True, "upgrade": False, "not_if_upgraded": True}]
    return [{"lay": True, "upgrade": True}]


def upgrade_cost(game: Game1822, corp: Corporation, hx: Hex, tile: Tile) -> int:
    cost: int = Game.upgrade_cost(game, corp, hx, tile)
    if not cost or hx.tile is not hx.original:
        return cost
    for comp in corp.companies:
        if comp.closed or game.egr_choice.get(comp.sym) == "token":
            continue
        discounts: list[Discount] = comp.data.get("discounts", ())
        for discount in discounts:
            if discount.get("terrain") == hx.terrain_kind or hx.id in discount.get("hexes", ()):
                cost -= int(discount["amount"])
    return max(cost, 0)


def lay_crossings(game: Game1822, corp: Corporation, hx: Hex, tile: Tile) -> tuple[int, int]:
    """An estuary crossing is paid by the tile that points across its own hex's crossing (18xx.games)."""
    exits = tile.exits()
    total = count = 0
    for edge, border in list(hx.borders.items()):
        if border.kind != "water" or edge not in exits:
            continue
        total += border.cost
        count += 1
        del hx.borders[edge]
        other_id = hx.neighbors.get(edge)
        if other_id is not None:
            other = game.board.hexes[other_id]
            if (edge + 3) % 6 in other.tile.exits():
                other.borders.pop((edge + 3) % 6, None)
    return total, count


def crossing_estimate(game: Game1822, corp: Corporation, hx: Hex, exits: frozenset[int]) -> int:
    return sum(b.cost for e, b in hx.borders.items() if b.kind == "water" and e in exits)


def lay_rotations(game: Game1822, corp: Corporation, hx: Hex, tdef: TileDef, edges: set[int] | None) -> list[int]:
    special = map_extras(game, hx.id)
    if special.get("swansea") and hx.tile is hx.original:
        # Swansea's first yellow tile drops its town: only the plain city tile, pointing one of two ways.
        return [2, 5] if tdef.name == "57" else []
    future = special.get("future_label")
    if future and tdef.colour == "green" and hx.tile.colour == "yellow":
        if tdef.label != future:
            return []
        return legal_rotations(game, hx, replace(tdef, label=hx.tile.tdef.label), edges)
    if future and tdef.colour == "yellow" and tdef.label is not None:
        return []
    if tdef.name in TRACK_PLAIN and (hx.tile.name in TRACK_TOWN or (
            hx.tile.colour == "white" and len(hx.tile.tdef.towns) == 1 and not hx.tile.tdef.cities)):
        # Only P2's lay removes a town, from a town tile or an undeveloped hex of one small station: the
        # company's own lays must keep the town's paths (18xx.games).
        remover = game.laying_private
        if remover is None or not track_power(game, remover).get("remove_town"):
            return []
        return _town_to_plain(game, hx, tdef, edges)
    return legal_rotations(game, hx, tdef, edges)


def _town_to_plain(game: Game1822, hx: Hex, tdef: TileDef, edges: set[int] | None) -> list[int]:
    """P2 replaces a town tile by plain track of the next colour that keeps its exits."""
    order = ("white", "yellow", "green", "brown", "gray")
    if order.index(tdef.colour) != order.index(hx.tile.colour) + 1:
        return []
    old = hx.tile.exits()
    out = []
    seen: set[frozenset[int]] = set()
    for rot in range(6):
        exits = frozenset((e + rot) % 6 for e in tdef.edges())
        if exits in seen or not old <= exits:
            continue
        if any(e not in hx.neighbors or e in hx.sealed for e in exits):
            continue
        if any(b.kind == "impassable" for e, b in hx.borders.items() if e in exits):
            continue
        if edges is not None and not exits & edges:
            continue
        seen.add(exits)
        out.append(rot)
    return out


def after_tile_laid(game: Game1822, corp: Corporation, hx: Hex, tile: Tile, water_crossings: int) -> None:
    Game.after_tile_laid(game, corp, hx, tile, water_crossings)
    if len(tile.tokens) != 1:
        return  # London's cities keep their own spaces
    # A station in a space added beside the printed ones (a destination in a full city) takes a free,
    # unreserved printed space of the new tile when it has one (18xx.games).
    node = next(iter(tile.tokens))
    slots, kinds = tile.tokens[node], tile.kinds[node]
    printed = tile.tdef.nodes[node].slots
    reserved = game.reserved_slots(hx, node)
    for k in range(len(slots) - 1, printed - 1, -1):
        if slots[k] is None:
            continue
        free = next((x for x in range(printed) if slots[x] is None and x not in reserved), None)
        if free is None:
            continue
        slots[free], kinds[free] = slots[k], kinds[k]
        slots[k] = None
        for token in stations_in_city(game, hx, node):
            if token.slot == k:
                token.slot = free
    while len(slots) > printed and slots[-1] is None:
        slots.pop()
        kinds.pop()


def map_extras(game: Game1822, hex_id: str) -> MapExtras:
    raw: dict[str, Any] = game.data()["map"]["hexes"].get(hex_id, {})
    future: str | None = raw.get("future_label")
    stubs: list[int] = raw.get("stubs", [])
    return {"future_label": future, "stubs": stubs, "swansea": hex_id == "D35"}
