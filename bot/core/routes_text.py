"""Routes in the command language: stop lists as 18xx.games writes them (``I1-I5-J8-G11``), hex-by-hex paths,
the missing link named when track is broken, and runs written back in the typed form so they can be edited.

A typed route is a list of hexes. When every hex touches the next, it is a hex-by-hex path and goes to the
engine as one chain. Otherwise the hexes that hold a stop split it into legs: a leg whose hexes touch is
taken as typed, and two stops with nothing typed between them are joined over the company's track
(``engine.core.autoroute.build_graph``), each leg on track no earlier leg uses.
"""

from __future__ import annotations

import itertools
from typing import Any

from bot.core.refusals import illegal
from engine.api import Game

Chain = list[str]


def neighbours(game: Game, a: str, b: str) -> bool:
    return b in game.board.hexes[a].neighbors.values()


def _track_between(game: Game, a: str, b: str) -> bool:
    """Whether laid track crosses the side shared by two neighbouring hexes."""
    ha, hb = game.board.hexes[a], game.board.hexes[b]
    edge = next((e for e, n in ha.neighbors.items() if n == b), None)
    if edge is None:
        return False
    return edge in ha.tile.exits() and (edge + 3) % 6 in hb.tile.exits()


def missing_link(game: Game, hexes: list[str]) -> str | None:
    """The first pair of neighbouring typed hexes with no track across their shared side, as ``G11-F12``."""
    for a, b in itertools.pairwise(hexes):
        if neighbours(game, a, b) and not _track_between(game, a, b):
            return f"{a}-{b}"
    return None


def _has_stop(game: Game, hex_id: str) -> bool:
    return any(n.kind != "junction" for n in game.board.hexes[hex_id].tile.tdef.nodes)


def typed_connections(game: Game, corp: Any, hexes: list[str]) -> list[Chain]:
    """The legs (hex chains) of a typed route; raises CommandError naming what does not connect."""
    if all(neighbours(game, a, b) for a, b in itertools.pairwise(hexes)):
        gap = missing_link(game, hexes)
        if gap is not None:
            raise illegal(f"there is no track between {gap.replace('-', ' and ')} (route {'-'.join(hexes)})")
        return [hexes]
    for end in (hexes[0], hexes[-1]):
        if not _has_stop(game, end):
            raise illegal(f"a route starts and ends at a stop (a city, town or off-board); {end} has none")
    # Split at the stops: [I1, I3, I5] stays a typed leg; [I5, J8] is two stops to join over the track.
    cuts = [i for i, h in enumerate(hexes) if _has_stop(game, h)]
    legs: list[tuple[str, str, Chain | None]] = []
    for i, j in itertools.pairwise(cuts):
        part = hexes[i : j + 1]
        if len(part) > 2 or (neighbours(game, part[0], part[1]) and missing_link(game, part) is None):
            gap = missing_link(game, part) if len(part) > 2 else None
            if len(part) > 2 and not all(neighbours(game, a, b) for a, b in itertools.pairwise(part)):
                a, b = next((a, b) for a, b in itertools.pairwise(part) if not neighbours(game, a, b))
                raise illegal(f"{a} and {b} are not neighbours (between the stops {part[0]} and {part[-1]})")
            if gap is not None:
                raise illegal(f"there is no track between {gap.replace('-', ' and ')}")
            legs.append((part[0], part[-1], part))
        else:
            legs.append((part[0], part[-1], None))
    return _join(game, corp, legs)


def _join(game: Game, corp: Any, legs: list[tuple[str, str, Chain | None]]) -> list[Chain]:
    """Choose track for the legs given only as two stops, each on track no other leg uses."""
    from engine.core.autoroute import build_graph

    graph = build_graph(game, corp)
    options: list[list[tuple[int, Chain]]] = []
    for a, b, typed in legs:
        found: list[tuple[int, Chain]] = []
        for link in graph.links:
            ends = (graph.nodes[link.a].ref[0], graph.nodes[link.b].ref[0])
            chain = list(link.hexes)
            if ends == (a, b):
                pass
            elif ends == (b, a):
                chain.reverse()
            else:
                continue
            if typed is None or chain == typed:
                found.append((link.mask, chain))
        if typed is not None and not found:
            found.append((0, typed))  # let the engine judge a typed leg the route graph does not hold
        if not found:
            raise illegal(f"{corp.sym} has no track from {a} to {b} (the leg {a}-{b} of the route)")
        found.sort(key=lambda mc: len(mc[1]))
        options.append(found)
    picked = _disjoint(options, 0, 0)
    if picked is None:
        raise illegal("the legs of this route cannot all run on separate track; type the hexes of a leg")
    return picked


def _disjoint(options: list[list[tuple[int, Chain]]], i: int, used: int) -> list[Chain] | None:
    if i == len(options):
        return []
    for mask, chain in options[i]:
        if mask & used:
            continue
        rest = _disjoint(options, i + 1, used | mask)
        if rest is not None:
            return [chain, *rest]
    return None
