"""Routes: checking and pricing a run as 1822 reads it (L trains locally, plus trains, E trains between
stations), routes suggested for a company, mail contracts, and the route finder's train readings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.autoroute import TrainSpec, validate_route
from ...core.entities import Corporation, Train
from ...core.errors import GameError, illegal
from ...core.routes import Route
from ...core.tiles import NODE_BASE
from .destinations import add_route_bonuses
from .trains import LOCAL_TRAINS, PULLMAN

if TYPE_CHECKING:
    from .state import Game1822


def autoroute_train_spec(game: Game1822, train: Train) -> TrainSpec | None:
    if train.name in LOCAL_TRAINS:
        # One city (or off-board) and at most one town, or a local run at one station.
        caps = ((frozenset({"city", "offboard"}), 1), (frozenset({"town"}), 1))
        return TrainSpec(train.name, 2, caps=caps, local=True)
    if train.name == "E":
        # From station to station of the company, earning double its stations (the English Channel's
        # France rule is not read here: the finder never pays the channel station France's value).
        return TrainSpec(train.name, None, group="E", stations_only=True, multiplier=2)
    if train.name.endswith("+") and train.name != PULLMAN:
        return TrainSpec(train.name, train.distance, free_kinds=frozenset({"town"}))
    return None


def suggest_routes(game: Game1822, corp: Corporation) -> list[dict[str, Any]]:
    """Routes for the company's trains that the rules accept: the route finder's, checked one by one, and an
    L train left without one runs locally from its best station."""
    try:
        found = game.best_routes(corp)
    except Exception:  # the finder's readings do not cover every 1822 rule; fall back to local runs
        found = []
    out: list[dict[str, Any]] = []
    traced: list[Route] = []
    used: set[str] = set()
    for data in found:
        train = game.all_trains.get(str(data.get("train")))
        if train is None or train.id in used:
            continue
        try:
            route = trace_1822_route(game, corp, train, data)
        except GameError:
            continue
        used.add(train.id)
        out.append({"train": train.id, "connections": data.get("connections")})
        traced.append(route)
    colour = game.phase_colour()
    taken: set[tuple[str, int]] = {s for r in traced if r.train.name in LOCAL_TRAINS for s in r.stops}
    for train in game.route_trains(corp):
        if train.id in used or train.name not in LOCAL_TRAINS:
            continue
        spots = sorted(((game.board.node_revenue(t_hx, t.node, colour), t.hex) for t in corp.tokens
                        if t.used and t.hex is not None and (t.hex, t.node) not in taken
                        for t_hx in [game.board.hexes[t.hex]]), reverse=True)
        if not spots:
            continue
        hex_id = spots[0][1]
        data = {"train": train.id, "connections": [["local", hex_id]]}
        route = trace_1822_route(game, corp, train, data)
        taken |= set(route.stops)
        used.add(train.id)
        out.append(data)
        traced.append(route)
    add_route_bonuses(game, corp, traced)
    for data, route in zip(out, traced, strict=True):
        data["revenue"] = route.revenue
        data["hexes"] = list(route.hexes)
    return out


def run_revenue(game: Game1822, corp: Corporation, routes: list[dict[str, Any]]) -> int:
    """What run_routes pays for these routes, destination bonus included (as Route1822 prices them)."""
    traced = [trace_1822_route(game, corp, game.all_trains[str(r["train"])], r) for r in routes]
    add_route_bonuses(game, corp, traced)
    return sum(r.revenue for r in traced)


def mail_subsidy(game: Game1822, corp: Corporation, routes: list[Route]) -> int:
    """Each mail contract (P6, P7) pays half the base value of the first and last stops of one train's route
    (not an L train's), the best routes first."""
    contracts = sum(1 for c in corp.companies if c.sym in ("P6", "P7") and not c.closed)
    if not contracts:
        return 0
    colour = game.phase_colour()
    subsidies = []
    for route in routes:
        if route.train.name.startswith("L") or len(route.stops) < 2:
            continue
        (h1, n1), (h2, n2) = route.stops[0], route.stops[-1]
        first = game.board.node_revenue(game.board.hexes[h1], n1, colour)
        last = game.board.node_revenue(game.board.hexes[h2], n2, colour)
        subsidies.append((first + last) // 2)
    return sum(sorted(subsidies, reverse=True)[:contracts])


def trace_1822_route(game: Game1822, corp: Corporation, train: Train, data: dict[str, Any]) -> Route:
    """A route as entered (hex chains, ``["local", HEX]`` for an L train at one station, ``[HEX]`` for the
    track inside a double hex), checked and priced."""
    connections = data.get("connections") or []
    if not connections:
        raise illegal("a route needs at least one leg")
    stops: list[tuple[str, int]] = []
    if len(connections) == 1 and len(connections[0]) == 2 and connections[0][0] == "local":
        if train.name not in LOCAL_TRAINS:
            raise illegal("only L trains run locally from one station")
        hx = game.board[str(connections[0][1])]
        node = next((n for n in hx.tile.tokens if hx.tile.holds_station(n, corp.sym)), None)
        if node is None:
            raise illegal(f"{corp.sym} has no station in {hx.id}")
        stops = [(hx.id, node)]
    elif all(len(c) == 1 for c in connections) and len(connections) == 1:
        hx = game.board[str(connections[0][0])]
        inner = [(a, b) for a, b in hx.tile.abs_paths() if a >= NODE_BASE and b >= NODE_BASE]
        if not inner:
            raise illegal(f"there is no track inside {hx.id}")
        a, b = inner[0]
        stops = [(hx.id, a - NODE_BASE), (hx.id, b - NODE_BASE)]
    else:
        stops = list(validate_route(game, corp, train, data).stops)
    if len(set(stops)) != len(stops):
        raise illegal("a route may not visit a stop twice")
    if not any(game.board.hexes[h].tile.holds_station(n, corp.sym) for h, n in stops
               if n in game.board.hexes[h].tile.tokens):
        raise illegal(f"a route must include a {corp.sym} station")
    kinds = [game.board.hexes[h].tile.tdef.nodes[n].kind for h, n in stops]
    if train.name in LOCAL_TRAINS:
        if kinds.count("city") + kinds.count("offboard") > 1 or kinds.count("town") > 1:
            raise illegal("an L train runs to one station and at most one town")
    elif train.name.endswith("+") and train.name != PULLMAN:
        big = sum(1 for k in kinds if k != "town")
        if big > train.distance:
            raise illegal(f"a {train.name} train visits at most {train.distance} cities, and any towns")
    elif train.distance < 99 and len(stops) > train.distance:
        raise illegal(f"a {train.name} train visits at most {train.distance} stops")
    london = [h for h, _ in stops if h == game.rules["london"]]
    if len(london) > 1:
        raise illegal("a route may not run between London's stations")
    colour = game.phase_colour()
    if train.name == "E":
        revenue = _e_train_revenue(game, corp, stops, colour)
    else:
        revenue = sum(game.board.node_revenue(game.board.hexes[h], n, colour) for h, n in stops)
    route = Route(train, stops=stops, hexes=[h for h, _ in stops], revenue=revenue)
    return route


def _e_train_revenue(game: Game1822, corp: Corporation, stops: list[tuple[str, int]], colour: str) -> int:
    """An E train runs between the company's stations and earns double the cities holding them (the English
    Channel station earns France's value)."""
    def tokened(ref: tuple[str, int]) -> bool:
        hx = game.board.hexes[ref[0]]
        return ref[1] in hx.tile.tokens and hx.tile.holds_station(ref[1], corp.sym)
    count = sum(1 for s in stops if tokened(s))
    if count < 2:
        raise illegal("an E train's route must include at least two of the company's stations")
    channel = game.rules["english_channel"]
    france = next((s for s in stops if s[0] == game.rules["france"]), None)
    if not (tokened(stops[0]) and tokened(stops[-1])):
        ends_ok = (tokened(stops[0]) or tokened(stops[-1])) and france is not None and \
            any(s[0] == channel and tokened(s) for s in stops)
        if not ends_ok:
            raise illegal("an E train's route must start and end at the company's stations")
    total = 0
    for ref in stops:
        if not tokened(ref):
            continue
        if ref[0] == channel:
            if france is not None:
                total += game.board.node_revenue(game.board.hexes[france[0]], france[1], colour)
        else:
            total += game.board.node_revenue(game.board.hexes[ref[0]], ref[1], colour)
    return total * 2
