"""1828's runs (rules 15, 16, 13.2): 3+D and 8E trains, no route into the Coalfields without a coal marker, and
the C&P's run over the tile it laid this turn instead of from a station."""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, route_list
from ...core.autoroute import TrainSpec, validate_route
from ...core.entities import Corporation, CorporationKind, Train
from ...core.errors import illegal
from ...core.tiles import NODE_BASE
from . import coal
from .state import Game1828


def train_spec(train: Train) -> TrainSpec:
    """3+D: three cities or off-boards, any towns, double revenue; 8E: eight cities or off-boards, towns
    passed unpaid (rules 15)."""
    if train.name == "3+D":
        return TrainSpec(train.name, 3, free_kinds=frozenset({"town"}), multiplier=2)
    if train.name == "8E":
        return TrainSpec(train.name, 8, unpaid_kinds=frozenset({"town"}))
    return TrainSpec(train.name, None if train.distance >= 99 else train.distance)


def with_revenue(game: Game1828, corp: Corporation, routes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The optimal routes, each with its revenue, as 18xx.games' own client writes them (its 1828 cannot
    check a route that comes without one)."""
    for data in routes:
        train = game.all_trains[str(data["train"])]
        route = validate_route(game, corp, train, data).route(data)
        data["revenue"] = game.route_revenue(corp, route)
    return routes


def check_route(game: Game1828, corp: Corporation, hexes: set[str], stops: set[str], laid: list[str]) -> None:
    """Rules 16: a route into the Virginia Coalfields needs a coal marker; rules 13.2: the C&P's run uses
    the tile it laid this turn."""
    coal.check_route(game, corp, hexes)
    if corp.kind is CorporationKind.MINOR and not any(stops & {h for h, _ in stops_touching(game, x)}
                                                      for x in laid[:1]):
        raise illegal(f"the {corp.sym}'s route must use the tile it laid this turn")


def check_run(game: Game1828, corp: Corporation, action: Action, laid: list[str]) -> None:
    """Each route of a typed run against 1828's rules (check_route)."""
    for data in route_list(action):
        hexes = {h for leg in data.get("connections") or [] for h in leg} | set(data.get("hexes") or [])
        stops = set(data.get("hexes") or []) | {str(n).rsplit("-", 1)[0] for n in data.get("nodes") or []}
        check_route(game, corp, hexes, stops, laid)


def minor_anchors(game: Game1828, corp: Corporation) -> list[tuple[str, int]] | None:
    """The C&P's run starts from the stops of the tile it laid this turn (rules 13.2)."""
    if corp.kind is not CorporationKind.MINOR:
        return None
    laid: list[str] = list(getattr(game.round, "laid_hexes", None) or [])
    return sorted(stops_touching(game, laid[0])) if laid else []


def stops_touching(game: Game1828, hex_id: str) -> set[tuple[str, int]]:
    """Hexes of the stops the tile in ``hex_id`` holds, or else that its track reaches without passing a
    stop (18xx.games: a route uses a laid tile when it stops there or on the track walked from it)."""
    hx = game.board.hexes[hex_id]
    if hx.tile.tdef.nodes:
        return {(hex_id, i) for i in range(len(hx.tile.tdef.nodes))}
    found: set[tuple[str, int]] = set()
    seen: set[tuple[str, int]] = set()
    todo = [(hex_id, i) for i in range(len(hx.tile.abs_paths()))]
    while todo:
        here, index = todo.pop()
        if (here, index) in seen:
            continue
        seen.add((here, index))
        cur = game.board.hexes[here]
        for end in cur.tile.abs_paths()[index]:
            if end >= NODE_BASE:
                found.add((here, end - NODE_BASE))
                continue
            todo += [(here, j) for j in game.board.paths_at_edge(cur, end)]
            other = game.board.neighbor(cur, end)
            if other is not None:
                todo += [(other.id, j) for j in game.board.paths_at_edge(other, (end + 3) % 6)]
    return found
