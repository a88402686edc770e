"""1828's stations beyond the core's: blocking markers (companies never started, the C&P's space, a system's
second station in one city), home reservations a system keeps for its members, and a system's first homes."""

from __future__ import annotations

from ...core import events as ev
from ...core.board import Hex
from ...core.entities import Corporation, CorporationKind, Token
from ...core.tiles import TokenKind
from ...core.transfer import BLOCKING_OWNER
from .state import Game1828


def place_blocking_token(game: Game1828, hex_id: str, node: int | None = None) -> None:
    hx = game.board[hex_id]
    city = node if node is not None else hx.tile.tdef.cities[0]
    slots = hx.tile.tokens[city]
    slot = next((i for i, s in enumerate(slots) if s is None), None)
    if slot is None:
        return
    slots[slot] = BLOCKING_OWNER
    hx.tile.kinds[city][slot] = TokenKind.BLOCKING
    ev.emit(ev.StationChanged(hx.id, city, slot, None, BLOCKING_OWNER, TokenKind.BLOCKING.value))
    game.log(f"Placing a blocking token on {hx.id}")
    game.track.board_changed()


def remove_unparred_corporations(game: Game1828) -> None:
    """From the first purple stock round, companies never started leave the game and blocking markers take
    their home spaces (rules 7.1, 17.7)."""
    for corp in game.corporations.values():
        if corp.kind is not CorporationKind.MAJOR or corp.ipoed or corp.closed or corp.home is None:
            continue
        hx = game.board[corp.home]
        if corp.home_city is None and len(hx.original.tdef.cities) > 1:
            for node in hx.tile.tdef.cities:
                place_blocking_token(game, hx.id, node)
        else:
            cities = hx.tile.tdef.cities
            place_blocking_token(game, hx.id, cities[corp.home_city or 0])
        game.log(f"Removing {corp.sym}")
        corp.closed = True


def place_system_homes(game: Game1828, system: Corporation) -> None:
    """A system whose members never operated places both members' home stations when it first operates."""
    if not system.tokens or system.tokens[0].used:
        return
    for shell in game.shells.get(system.sym, []):
        member = game.corporations[shell.name]
        token = next((t for t in system.tokens if not t.used and t.price == 0
                      and all(p[2] is not t for p in game.pending_tokens)), None)
        if token is None or member.home is None:
            continue
        hx = game.board[member.home]
        cities = hx.tile.tdef.cities
        if len(hx.original.tdef.cities) > 1 and member.home_city is None and hx.tile.tdef.paths:
            game.pending_tokens.append((system, [hx.id], token))
            continue
        node = cities[member.home_city] if member.home_city is not None else cities[0]
        if game.track.free_slot(hx, node, system.sym) is None:
            continue
        game.track.place_token(system, token, hx, node, free=True)
    if system.tokens and not system.tokens[0].used:
        system.tokens.sort(key=lambda t: not t.used)


def unplaced_system_homes(game: Game1828, hex_id: str) -> list[tuple[Corporation, Corporation]]:
    """(system, member) for each member whose home is ``hex_id`` and which the system has yet to place: the
    member's reservation outlives it until the system first operates (18xx.games keeps it on the city)."""
    out = []
    for system in game.corporations.values():
        if system.kind is not CorporationKind.SYSTEM or system.closed or not system.tokens \
                or system.tokens[0].used:
            continue
        for shell in game.shells.get(system.sym, []):
            member = game.corporations[shell.name]
            if member.home == hex_id:
                out.append((system, member))
    return out


def home_holders(game: Game1828, hx: Hex) -> list[tuple[Corporation, Corporation]]:
    """(holder, company whose home it is) for each home in ``hx`` still to be placed: a company's own, or a
    system's for its member (a system's ``home`` is only its first member's, so systems count by member)."""
    own = [(c, c) for c in game.corporations.values()
           if c.kind is not CorporationKind.SYSTEM and c.home == hx.id and c.tokens and not c.tokens[0].used
           and not c.closed]
    return own + unplaced_system_homes(game, hx.id)


def reserved_slots(game: Game1828, hx: Hex, node: int) -> dict[int, str]:
    out: dict[int, str] = {}
    cities = hx.tile.tdef.cities
    for holder, member in home_holders(game, hx):
        if game.track.home_reserved_on_tile(member, hx):
            continue
        if (cities[member.home_city] if member.home_city is not None else cities[0]) != node:
            continue
        free = next((i for i, s in enumerate(hx.tile.tokens[node]) if s is None and i not in out), None)
        if free is not None:
            out[free] = holder.sym
    return out


def blocked_by_reservation(game: Game1828, hx: Hex, corp: str) -> bool:
    """A home held somewhere in a multi-city hex (Dunkirk & Buffalo) closes the whole hex to other companies'
    stations until it is placed, however many spaces are free (18xx.games; the rules are silent)."""
    return any(holder.sym != corp and game.track.home_reserved_on_tile(member, hx)
               for holder, member in home_holders(game, hx))


def shared_hexes(system: Corporation) -> list[str]:
    """Hexes where the system has two stations (in different cities): it removes one (rules 7.5.2)."""
    counts: dict[str, int] = {}
    for token in system.tokens:
        if token.used and token.hex is not None:
            counts[token.hex] = counts.get(token.hex, 0) + 1
    return [h for h, n in counts.items() if n > 1]


def block_shared_cities(game: Game1828, system: Corporation) -> None:
    """Where both members had a station in one city, the second becomes a blocking marker (rules 7.5.2)."""
    seen: dict[tuple[str, int], Token] = {}
    for token in [t for t in system.tokens if t.used]:
        assert token.hex is not None
        key = (token.hex, token.node)
        if key not in seen:
            seen[key] = token
            continue
        # The second station goes back to the system's charter, where it keeps its place in the list.
        hx = game.board.hexes[token.hex]
        ev.emit(ev.StationChanged(hx.id, token.node, token.slot, hx.tile.tokens[token.node][token.slot],
                                  BLOCKING_OWNER, TokenKind.BLOCKING.value))
        hx.tile.tokens[token.node][token.slot] = BLOCKING_OWNER
        hx.tile.kinds[token.node][token.slot] = TokenKind.BLOCKING
        token.used, token.hex, token.node, token.slot = False, None, -1, -1
        game.log(f"Placing a blocking token on {hx.id}")
