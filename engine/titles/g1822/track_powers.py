"""The privates' track powers: free or extra lays (P1-P4, P8, P10-P12, P21), their uses left, where they may
lay, P11's advanced tiles and P5's English Channel upgrade.
"""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, opt_text
from ...core.entities import Company, Corporation, CorporationKind
from .state import Game1822, TrackPower, newest_colour

TRACK_PLAIN = ("7", "8", "9", "80", "81", "82", "83", "544", "545", "546", "60", "169")
TRACK_TOWN = ("3", "4", "58", "141", "142", "143", "144", "767", "768", "769", "X17")


def laying_phase(game: Game1822) -> dict[str, Any]:
    current: dict[str, Any] = game.phases[game.phase_index]
    remover = game.laying_private if hasattr(game, "laying_private") else None
    if remover is not None and track_power(game, remover).get("advanced"):
        # P11 lays only track of the colour that comes next, before its phase.
        order = ("yellow", "green", "brown", "gray")
        at = order.index(current["tiles"][-1])
        return {**current, "tiles": list(order[at + 1:at + 2])}
    return current


def track_power(game: Game1822, company: Company) -> TrackPower:
    power: TrackPower = company.data.get("track") or TrackPower()
    return power


def track_uses(game: Game1822, company: Company) -> dict[str, int]:
    """Uses left of a private's track power: count, and P12's lays and upgrade."""
    power = track_power(game, company)
    left = game.track_left.get(company.sym)
    if left is None:
        left = game.track_left[company.sym] = {
            "count": int(power.get("count", power.get("lay_count", 0))),
            "lay": int(power.get("lay_count", 0)), "upgrade": int(power.get("upgrade_count", 0))}
    return left


def track_power_usable(game: Game1822, company: object, corp: object) -> bool:
    if not isinstance(company, Company) or company.closed or not track_power(game, company):
        return False
    if game.egr_choice.get(company.sym) == "discount":
        return False
    if company.owner is not corp or not isinstance(corp, Corporation):
        return False
    return track_uses(game, company)["count"] > 0


def track_powers_block(game: Game1822, corp: Corporation) -> bool:
    """Privates whose track power keeps the company's track step open until it passes."""
    # Only tile-lay powers keep it open in 18xx.games, not P5's `teleport`.
    return any(track_power_usable(game, c, corp) and not track_power(game, c).get("consume_tile_lay")
               and not track_power(game, c).get("teleport") for c in corp.companies)


def track_power_allows(game: Game1822, company: Company, corp: Corporation, power: TrackPower,
                       action: Action) -> bool:
    hx = game.board.hexes.get(str(opt_text(action, "hex")))
    if hx is None:
        return False
    hexes = power.get("hexes")
    if hexes and hx.id not in hexes:
        return False
    name = str(action.get("tile", "")).rsplit("-", 1)[0]
    tiles = power.get("tiles")
    if tiles and name not in tiles:
        return False
    uses = track_uses(game, company)
    upgrade = hx.tile.colour != "white"
    if power.get("lay_count") is not None and "lay_count" in power:
        if upgrade and uses["upgrade"] <= 0:
            return False
        if not upgrade and uses["lay"] <= 0:
            return False
    if power.get("estuary") or (power.get("crossing_required") and game.rules_edition >= 3):
        # P10 lays across an estuary crossing of the hex (and pays £40 less for it); from edition 3 P21's
        # bridge lays must too, over a crossing not yet built (18xx.games).
        tile = game.tile_supply.get(str(opt_text(action, "tile")))
        if tile is None:
            return False
        rot = int(action.get("rotation", 0))
        exits = {(e + rot) % 6 for e in tile.tdef.edges()}
        if not any(b.kind == "water" and e in exits for e, b in hx.borders.items()):
            return False
    if company.sym == "P8" and (hx.tile is not hx.original or hx.terrain_kind not in ("hill", "mountain")):
        return False  # the free lay is on a hill or mountain hex
    if power.get("advanced"):
        # P11 upgrades plain or town track of the phase's newest colour (a minor's only from yellow).
        newest = newest_colour(game)
        if hx.tile.name not in TRACK_PLAIN + TRACK_TOWN or hx.tile.colour != newest:
            return False
        if corp.kind is CorporationKind.MINOR and hx.tile.colour != "yellow":
            return False
    if power.get("teleport"):
        return teleport_open(game, company)
    return game.track.shows(corp, lambda net: hx.id in net.hex_edges)


def teleport_open(game: Game1822, company: Company) -> bool:
    """P5 (LC&DR) may upgrade the English Channel, reached or not, to make room for its station when every
    space there is taken and the upgrade adds one: green to brown once brown tiles are out, brown to grey once
    grey ones are (18xx.games' `teleport`; the tile keeps rotation 0). Not for a company already stationed
    there, which could place nothing in the space made (18xx.games offers the lay, then cannot go on)."""
    corp = company.owner
    if not isinstance(corp, Corporation) or game.exchange_tokens.get(corp.sym, 0) <= 0:
        return False
    hx = game.board.hexes[str(game.rules["english_channel"])]
    if any(t.used and t.hex == hx.id for t in corp.tokens):
        return False
    if any(owner is None for slots in hx.tile.tokens.values() for owner in slots):
        return False
    newest = newest_colour(game)
    return (hx.tile.colour == "green" and newest in ("brown", "gray")) \
        or (hx.tile.colour == "brown" and newest == "gray")


def teleport_lays(game: Game1822, company: Company) -> list[dict[str, Any]]:
    """P5's English Channel upgrades the company can pay for now (hex, tile, rotation 0)."""
    corp = company.owner
    if not isinstance(corp, Corporation) or not teleport_open(game, company):
        return []
    hx = game.board.hexes[str(game.rules["english_channel"])]
    out = []
    for name in track_power(game, company).get("tiles", ()):
        tile = next((t for t in game.tile_supply.values() if t.name == name), None)
        if tile is None or tile.colour not in game.phase["tiles"]:
            continue
        if 0 not in game.tile_rotations(corp, hx, tile.tdef, None):
            continue
        if game.upgrade_cost(corp, hx, tile) > corp.cash:
            continue
        out.append({"hex": hx.id, "tile": tile.id, "rotation": 0})
    return out


def use_track_power(game: Game1822, company: Company, corp: Corporation, upgrade: bool) -> None:
    uses = track_uses(game, company)
    power = track_power(game, company)
    if power.get("teleport"):
        uses["count"] = 0  # P5 stays open: its station power is still to be used
        return
    if "lay_count" in power:
        if upgrade:
            uses["lay"] = 0
            uses["upgrade"] -= 1
            if uses["upgrade"] <= 0:
                uses["count"] = 0
        else:
            uses["upgrade"] = 0
            uses["lay"] -= 1
            if uses["lay"] <= 0:
                uses["count"] = 0
        if corp.kind is CorporationKind.MINOR:
            uses["count"] = 0
    else:
        uses["count"] -= 1
    if uses["count"] <= 0:
        game.shares.close_company(company)
