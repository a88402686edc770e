"""Stations: which cities a company may token, exchange tokens, the English Channel's free stations (P5, SECR),
stations placed in a full city, and stations removed when a minor is acquired.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import events as ev
from ...core.board import Hex
from ...core.entities import Company, Corporation, Token, pay
from ...core.errors import illegal
from ...core.tiles import TokenKind

if TYPE_CHECKING:
    from .state import Game1822


def stations_in_city(game: Game1822, hx: Hex, node: int) -> list[Token]:
    """The placed tokens of every company in one city of ``hx`` (their ``slot`` follows the city's list)."""
    return [t for c in game.corporations.values() for t in c.tokens
            if t.used and t.hex == hx.id and t.node == node]


def can_place_token(game: Game1822, corp: Corporation) -> bool:
    unused = [t for t in corp.unused_tokens() if t.kind is not TokenKind.DESTINATION]
    if not unused or min(t.price for t in unused) > corp.cash:
        return False
    return game.track.any_node(corp, lambda h, n: offers_city(game, corp, game.board.hexes[h], n))


def offers_city(game: Game1822, corp: Corporation, hx: Hex, node: int) -> bool:
    """Whether the token step offers this city: as on 18xx.games, no city of a hex where the company already
    has a station (London's too, though a station placed there anyway is accepted)."""
    if node not in hx.tile.tokens or any(corp.sym in slots for slots in hx.tile.tokens.values()):
        return False
    return any(game.can_token_city(corp, hx, node, t) for t in corp.unused_tokens())


def p5_holds_token_step(game: Game1822, corp: Corporation) -> bool:
    """18xx.games stops at the token step of a company that owns P5 (LC&DR) while its English Channel station
    power is unused, even where the company can place no station (edition 2; games begun under edition 1 did
    not stop)."""
    return game.rules_edition >= 2 and any(c.sym == "P5" and not c.closed for c in corp.companies) \
        and not _stationed_in(game, corp, str(game.rules["english_channel"]))


def _stationed_in(game: Game1822, corp: Corporation, hex_id: str) -> bool:
    """Edition 2: 18xx.games counts a station power as unusable once its company has a station in every hex
    the power names."""
    return game.rules_edition >= 2 and any(t.used and t.hex == hex_id for t in corp.tokens)


def channel_station_power(game: Game1822, company: Company) -> bool:
    """P5 (LC&DR) may place one of its company's exchange tokens as a free station in the English Channel,
    reached or not, during the company's token step; it then closes (18xx.games: its `token` ability)."""
    corp = company.owner
    return company.sym == "P5" and not company.closed and isinstance(corp, Corporation) \
        and game.exchange_tokens.get(corp.sym, 0) > 0


def channel_station_cities(game: Game1822, company: Company) -> list[tuple[Any, int]]:
    corp = company.owner
    if not channel_station_power(game, company) or not isinstance(corp, Corporation):
        return []
    hx = game.board.hexes[str(game.rules["english_channel"])]
    return [(hx, node) for node in sorted(hx.tile.tokens) if game.can_token_city(corp, hx, node)]


def place_channel_station(game: Game1822, company: Company, hx: Hex, node: int, slot: Any) -> None:
    corp = company.owner
    if not isinstance(corp, Corporation) or (hx, node) not in channel_station_cities(game, company):
        raise illegal(f"{company.sym} may place a station only in a free space of the English Channel "
                      f"({game.rules['english_channel']}), from an exchange token of its company")
    move_exchange_token(game, corp)
    token = corp.unused_tokens()[-1]
    token.price = 0
    game.track.place_token(corp, token, hx, node, free=True, slot=slot)
    game.log(f"{company.sym} places an exchange token of {corp.sym} in the English Channel and closes")
    game.shares.close_company(company)


def free_token_hexes(game: Game1822, corp: Corporation) -> list[str]:
    """Hexes where ``corp`` may still place one station for free (SECR in the English Channel)."""
    if corp.sym in game.free_tokens_used:
        return []
    return [str(h) for h in corp.data.get("free_token_hexes", ()) if not _stationed_in(game, corp, str(h))]


def place_pending_token(game: Game1822, corp: Corporation, token: Token, hx: Hex, node: int) -> None:
    """Place a station whatever the city's free spaces (an extra space is added when it is full)."""
    slots = hx.tile.tokens[node]
    slot = game.track.free_slot(hx, node, corp.sym)
    if slot is None or corp.sym == "14":
        slots.append(None)
        hx.tile.kinds[node].append(TokenKind.NORMAL)
        slot = len(slots) - 1
    ev.emit(ev.StationChanged(hx.id, node, slot, slots[slot], corp.sym, token.kind.value))
    slots[slot] = corp.sym
    hx.tile.kinds[node][slot] = token.kind
    token.used, token.hex, token.node, token.slot = True, hx.id, node, slot
    if token.price:
        pay(corp, game.bank, token.price, ev.Why.STATION)
    game.track.board_changed()
    game.log(f"{corp.sym} places a token on {hx.id}")


def move_exchange_token(game: Game1822, major: Corporation) -> None:
    game.exchange_tokens[major.sym] -= 1
    major.tokens.append(Token(major.sym, int(game.rules["token_price"])))


def remove_minor_station(game: Game1822, minor: Corporation, token: Token) -> None:
    """Edition 3, as 18xx.games: a minor's station leaving at its acquisition (exchanged, or where the major
    already stands) takes its space with it when the city has more than its printed spaces (one added for a
    destination station in a full city); minor 14's London city keeps one added space."""
    hx = game.board.hexes[token.hex] if token.used and token.hex is not None else None
    if hx is None or game.rules_edition < 3:
        remove_station(game, minor, token)
        return
    node, slot = token.node, token.slot
    slots, kinds = hx.tile.tokens[node], hx.tile.kinds[node]
    least = hx.tile.tdef.nodes[node].slots + (1 if minor.sym == "14" and len(hx.tile.tdef.cities) > 1 else 0)
    if len(slots) <= least:
        remove_station(game, minor, token)
        return
    ev.emit(ev.StationChanged(hx.id, node, slot, slots[slot], None))
    del slots[slot], kinds[slot]
    for t in stations_in_city(game, hx, node):
        if t.slot > slot:
            t.slot -= 1
    token.used, token.hex = False, None


def remove_station(game: Game1822, corp: Corporation, token: Token) -> None:
    if token.used and token.hex is not None:
        hx = game.board.hexes[token.hex]
        ev.emit(ev.StationChanged(hx.id, token.node, token.slot, hx.tile.tokens[token.node][token.slot], None))
        hx.tile.tokens[token.node][token.slot] = None
    token.used, token.hex = False, None
