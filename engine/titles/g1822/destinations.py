"""Destinations: a major's destination station, placed when its home connects to it (LNWR's at once), the
station it sends back to the charter, and the destination bonus of the best route joining the two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.board import Hex
from ...core.entities import Corporation, CorporationKind, Token
from ...core.graph import company_network
from ...core.routes import Route
from ...core.tiles import TokenKind
from .stations import remove_station, stations_in_city

if TYPE_CHECKING:
    from ...core.autoroute import Pricing, RouteGraph
    from .state import Game1822


def destination_of(corp: Corporation) -> str:
    """The hex of a major's destination (game.toml)."""
    hex_id: str = corp.data["destination"]
    return hex_id


def destination_token(game: Game1822, corp: Corporation) -> Token | None:
    return next((t for t in corp.tokens if t.kind is TokenKind.DESTINATION and not t.used), None)


def destination_connected(game: Game1822, corp: Corporation) -> bool:
    dest = corp.data.get("destination")
    if not dest or not corp.tokens[0].used:
        return False
    hx = game.board.hexes[dest]
    home = corp.tokens[0]
    assert home.hex is not None  # a placed station has its hex and city
    # 18xx.games asks for track between the destination and the home station itself, not any station.
    nodes = company_network(game.board, corp.sym, starts=frozenset({(home.hex, home.node)})).nodes
    return any((dest, n) in nodes for n in hx.tile.tokens)


def place_destination_token(game: Game1822, corp: Corporation) -> None:
    token = destination_token(game, corp)
    if token is None:
        return
    hx = game.board.hexes[corp.data["destination"]]
    node = next(iter(hx.tile.tokens))
    slots = hx.tile.tokens[node]
    slot = game.track.free_slot(hx, node, corp.sym)
    if slot is None:
        slots.append(None)
        hx.tile.kinds[node].append(TokenKind.NORMAL)
        slot = len(slots) - 1
    ev.emit(ev.StationChanged(hx.id, node, slot, slots[slot], corp.sym, TokenKind.DESTINATION.value))
    slots[slot] = corp.sym
    hx.tile.kinds[node][slot] = TokenKind.DESTINATION
    token.used, token.hex, token.node, token.slot = True, hx.id, node, slot
    game.track.board_changed()
    game.log(f"{corp.sym} places its destination token on {hx.id}")


def remove_extra_tokens(game: Game1822, hx: Hex) -> None:
    """Edition 2, as 18xx.games: after a destination station, a company with more than one station in a city
    of the hex gets the latest placed of its other stations back on its charter (never its home), at the
    usual price; the extra space the destination station made is then given up."""
    if game.rules_edition < 2:
        return
    returned = False
    for node, slots in hx.tile.tokens.items():
        kinds = hx.tile.kinds[node]
        counts: dict[str, int] = {}
        for owner in slots:
            if owner is not None:
                counts[owner] = counts.get(owner, 0) + 1
        extra = False
        for sym, count in counts.items():
            corp = game.corporations.get(sym)
            if count < 2 or corp is None:
                continue
            extra = True
            mine = [t for t in corp.tokens if t.used and t.hex == hx.id and t.node == node
                    and t.kind is not TokenKind.DESTINATION]
            for token in mine[len(mine) - min(count - 1, len(mine)):][::-1]:
                kinds[token.slot] = TokenKind.NORMAL
                remove_station(game, corp, token)
                token.price = int(game.rules["token_price"])
                game.log(f"Extra token for {corp.sym} is returned to their available tokens")
        if extra:
            _drop_extra_space(game, hx, node)
            returned = True
    if returned:
        game.track.board_changed()  # place_destination_token has already said so when nothing came back


def _drop_extra_space(game: Game1822, hx: Hex, node: int) -> None:
    slots, kinds = hx.tile.tokens[node], hx.tile.kinds[node]
    if len(slots) <= hx.tile.tdef.nodes[node].slots or None not in slots:
        return
    empty = slots.index(None)
    if empty == len(slots) - 1:
        return  # the empty space is the extra one itself (18xx.games leaves it then)
    owner, kind = slots.pop(), kinds.pop()
    slots[empty], kinds[empty] = owner, kind
    for t in stations_in_city(game, hx, node):
        if t.slot == len(slots):
            t.slot = empty


def after_home_token(game: Game1822, corp: Corporation) -> None:
    """The LNWR places its destination station with its home station."""
    if corp.sym == "LNWR":
        place_destination_token(game, corp)


def add_route_bonuses(game: Game1822, corp: Corporation, routes: list[Route]) -> None:
    """The destination bonus: one route joining the home and destination stations earns the destination's
    value again (the best such route)."""
    if corp.kind is not CorporationKind.MAJOR or not routes:
        return
    dest = next((t for t in corp.tokens if t.kind is TokenKind.DESTINATION and t.used), None)
    home = corp.tokens[0]
    if dest is None or not home.used:
        return
    best: tuple[int, Route] | None = None
    colour = game.phase_colour()
    for route in routes:
        stops = set(route.stops)
        if (home.hex, home.node) in stops and (dest.hex, dest.node) in stops:
            assert dest.hex is not None
            value = game.board.node_revenue(game.board.hexes[dest.hex], dest.node, colour)
            if route.train.name == "E":
                value *= 2
            if best is None or value >= best[0]:  # ties: the last route, as 18xx.games sorts
                best = (value, route)
    if best is not None:
        best[1].revenue += best[0]


def autoroute_pricing(game: Game1822, graph: RouteGraph) -> Pricing:
    """The destination bonus as a set-level bonus: the best route joining home and destination earns the
    destination's value again (doubled for an E train). Runs are priced by ``run_revenue`` (Route1822),
    not by route_bonus, so the finder's prices are not checked against route_bonus."""
    from ...core.autoroute import Candidate, Pricing
    corp = game.corporation(graph.corp)
    plain = Pricing(verify=False)
    if corp.kind is not CorporationKind.MAJOR:
        return plain
    dest = next((t for t in corp.tokens if t.kind is TokenKind.DESTINATION and t.used), None)
    home = corp.tokens[0]
    if dest is None or dest.hex is None or not home.used or home.hex is None:
        return plain
    hi = graph.index.get((home.hex, home.node))
    di = graph.index.get((dest.hex, dest.node))
    if hi is None or di is None:
        return plain
    value = game.board.node_revenue(game.board.hexes[dest.hex], dest.node, game.phase_colour())
    double = any(t.name == "E" for t in game.route_trains(corp))

    def bonus(cands: list[Candidate]) -> int:
        best = 0
        for cand in cands:
            stops = cand.nodes(graph)
            if hi in stops and di in stops:
                best = max(best, value * (2 if cand.train == "E" else 1))
        return best

    return Pricing(set_bound=value * (2 if double else 1), set_bonus=bonus, set_nodes=(1 << hi) | (1 << di),
                   verify=False)
