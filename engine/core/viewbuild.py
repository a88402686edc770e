"""Builders for the read-only snapshots in :mod:`engine.core.views`.

Each builder reads a live :class:`~engine.core.game.Game` once and returns frozen dataclasses that
share nothing mutable with it, so a renderer may draw them on another thread while play goes on.

>>> import engine
>>> g = engine.new_game("1882", [(1, "Ann"), (2, "Ben"), (3, "Cy")])
>>> board = board_view(g)
>>> hex_text(next(h for h in board.hexes if h.id == "I5"))
'I5 Swift Current: printed white; city (1 slot: CPR home)'
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import actions as act
from .board import Hex, offboard_value
from .game_end import end_reason_text
from .tiles import NODE_BASE, TokenKind, rotate_end
from .views import (
    BoardView,
    HexsideView,
    HexView,
    MarketView,
    NodeView,
    PathView,
    RouteView,
)

if TYPE_CHECKING:
    from .game import Game

__all__ = ["board_view", "hex_text", "lay_option_view", "market_view", "view_title"]

_COLOUR_ORDER = ("yellow", "green", "brown", "gray")


def view_title(game: Game) -> str:
    return str(game.data()["game"].get("full_title") or game.TITLE)


def _corp_colours(game: Game) -> tuple[dict[str, str], dict[str, str]]:
    colours = {c.sym: c.colour for c in game.corporations.values()}
    text = {c.sym: c.text_colour for c in game.corporations.values()}
    return colours, text


# ----------------------------------------------------------------------------- board


def _row_col(game: Game, hx: Hex) -> tuple[int, int]:
    """Doubled coordinates as the renderer lays them out (rendering.geometry.HexLayout)."""
    if game.board.letters == "rows":
        return hx.letter, hx.number
    return hx.number, hx.letter


def _end(end: int) -> str:
    return f"e{end}" if end < NODE_BASE else f"n{end - NODE_BASE}"


def _by_colour(table: dict[str, int]) -> tuple[tuple[str, int], ...]:
    rank = {c: i for i, c in enumerate(_COLOUR_ORDER)}
    return tuple((c, int(v)) for c, v in sorted(table.items(), key=lambda kv: rank.get(kv[0], 99)))


def _nodes(game: Game, hx: Hex, colour: str) -> tuple[NodeView, ...]:
    tile = hx.tile
    out: list[NodeView] = []
    for i, ndef in enumerate(tile.tdef.nodes):
        from_table = bool(hx.revenue) and (ndef.kind == "offboard" or ndef.revenue == 0)
        revenue = offboard_value(hx.revenue, colour) if from_table else ndef.revenue
        tokens: tuple[str | None, ...] = ()
        reserved: tuple[str | None, ...] = ()
        if ndef.kind == "city":
            slots = tile.tokens.get(i, [None] * ndef.slots)
            kinds = tile.kinds.get(i, [TokenKind.NORMAL] * len(slots))
            tokens = tuple("CN" if s is not None and k is TokenKind.NEUTRAL else s
                           for s, k in zip(slots, kinds, strict=False))
            held = game.reserved_slots(hx, i)
            reserved = tuple(held.get(k) for k in range(len(slots)))
        token_kinds: tuple[str, ...] = ()
        if ndef.kind == "city":
            token_kinds = tuple(str(k) if s is not None else "" for s, k in zip(slots, kinds, strict=False))
        out.append(NodeView(
            index=i, kind=ndef.kind, revenue=revenue, slots=ndef.slots if ndef.kind == "city" else 0,
            tokens=tokens, reserved=reserved, revenues_by_colour=_by_colour(hx.revenue) if from_table else (),
            token_kinds=token_kinds,
        ))
    return tuple(out)


def _hex_view(game: Game, hx: Hex, colour: str) -> HexView:
    tile = hx.tile
    printed = tile is hx.original or tile.preprinted
    row, col = _row_col(game, hx)
    blocker = game.track.blocked_hex(hx)
    return HexView(
        id=hx.id, row=row, col=col, colour=tile.colour, name=hx.name,
        tile=None if printed else tile.name,
        rotation=tile.rotation,
        label=tile.tdef.label or hx.original.tdef.label,
        nodes=_nodes(game, hx, colour),
        paths=tuple(PathView(_end(a), _end(b)) for a, b in tile.abs_paths()),
        # Terrain is paid on the first lay over the printed hex; a laid tile shows none.
        terrain_cost=hx.terrain_cost if printed else 0,
        terrain_kind=hx.terrain_kind if printed else "",
        tags=tuple(sorted(hx.tags)),
        blocked_by=blocker.sym if blocker is not None else None,
        home_reserved=_home_reserved(game, hx),
        markers=_hex_markers(game, hx),
        passable_only_by=tuple(sorted(hx.passable_only_by)) if hx.passable_only_by is not None else None,
        bonus=tuple(hx.bonus.items()),
    )


def _destinations(game: Game) -> dict[str, tuple[str, ...]]:
    """Per hex, the companies whose destination (``destination`` in their data) it is, their destination
    station not yet placed."""
    out: dict[str, list[str]] = {}
    for corp in game.corporations.values():
        dest = corp.data.get("destination")
        if dest and not corp.closed and any(t.kind is TokenKind.DESTINATION and not t.used for t in corp.tokens):
            out.setdefault(str(dest), []).append(corp.sym)
    return {hex_id: tuple(syms) for hex_id, syms in out.items()}


def _hex_markers(game: Game, hx: Hex) -> tuple[str, ...]:
    """Markers a title lays on hexes (``hex_markers``; 1828's coal), none for titles without."""
    return tuple(game.hex_markers(hx.id))


def _home_reserved(game: Game, hx: Hex) -> tuple[str, ...]:
    """Companies holding a spot somewhere in a multi-city hex (``reserved_slots`` shows single cities)."""
    return tuple(c.sym for c in game.corporations.values()
                 if game.track.home_reserved_on_tile(c, hx) and c.tokens and not c.tokens[0].used and not c.closed)


def _hexsides(game: Game) -> tuple[HexsideView, ...]:
    """Printed hexsides once each; the cost is what is still unpaid (0 once track has crossed)."""
    out: list[HexsideView] = []
    seen: set[frozenset[str]] = set()
    for hx in game.board.hexes.values():
        for edge, border in sorted(hx.printed_borders.items()):
            other = hx.neighbors.get(edge)
            if other is None or frozenset((hx.id, other)) in seen:
                continue
            seen.add(frozenset((hx.id, other)))
            unpaid = hx.borders.get(edge)
            out.append(HexsideView(hx.id, other, border.kind, unpaid.cost if unpaid is not None else 0))
    return tuple(out)


def _route_legs(game: Game) -> list[list[list[str]]] | None:
    """The legs (hex chains) of the standing run_routes action behind ``game.last_routes``."""
    wanted = [str(r.get("train")) for r in game.last_routes]
    if all(r.get("connections") for r in game.last_routes):
        return [[list(map(str, c)) for c in r["connections"]] for r in game.last_routes]
    for action in reversed(act.filter_undo(list(game.raw_actions))):
        for a in (*reversed(action.get("auto_actions") or ()), action):
            if a.get("type") != "run_routes":
                continue
            routes = a.get("routes") or []
            if [str(r.get("train")) for r in routes] == wanted:
                return [[list(map(str, c)) for c in (r.get("connections") or [])] for r in routes]
            return None
    return None


def _walk(legs: list[list[str]]) -> list[str]:
    """Chain the legs head to tail (players enter them in either direction)."""
    legs = [leg for leg in legs if leg]
    if not legs:
        return []
    first = list(legs[0])
    if len(legs) > 1 and first[0] in (legs[1][0], legs[1][-1]) and first[-1] not in (legs[1][0], legs[1][-1]):
        first.reverse()
    walk = first
    for leg in legs[1:]:
        if leg[-1] == walk[-1] and leg[0] != walk[-1]:
            leg = leg[::-1]
        walk.extend(leg[1:] if leg[0] == walk[-1] else leg)
    return walk


def _routes(game: Game) -> tuple[RouteView, ...]:
    if not game.last_routes:
        return ()
    legs = _route_legs(game)
    out: list[RouteView] = []
    for i, r in enumerate(game.last_routes):
        hexes = [str(h) for h in r.get("hexes", ())]
        if legs is not None and i < len(legs):
            walk = _walk(legs[i])
            if set(walk) == set(hexes):
                hexes = walk
        train = game.all_trains.get(str(r.get("train")))
        name = train.name if train is not None else str(r.get("train")).rsplit("-", 1)[0]
        out.append(RouteView(name, tuple(hexes), int(r.get("revenue", 0))))
    return tuple(out)


def board_view(game: Game) -> BoardView:
    """The map as it stands: tiles, track, stations, reservations, off-board values, last moves."""
    colour = game.phase_colour()
    colours, text = _corp_colours(game)
    waiting = _destinations(game)
    hexes = tuple(_hex_view(game, hx, colour) for hx in game.board.hexes.values())
    return BoardView(
        title=view_title(game),
        layout=game.board.layout,
        letters=game.board.letters,
        hexes=tuple(replace(h, destinations=waiting[h.id]) if h.id in waiting else h for h in hexes),
        hexsides=_hexsides(game),
        phase_colours=tuple(str(c) for c in game.phase["tiles"]),
        current_offboard_colour=colour,
        last_tile_hex=game.last_tile_hex,
        last_routes=_routes(game),
        corporation_colours=colours,
        corporation_text_colours=text,
        currency=game.config.currency,
    )


def lay_option_view(game: Game, hex_id: str, tile_id: str, rotation: int) -> HexView:
    """The hex as it would look with a tile from the supply laid at ``rotation`` (nothing is changed).

    Stations already in the hex are shown in the new tile's cities in the same order.
    """
    hx = game.board.hexes[hex_id]
    tile = game.tile_supply[tile_id]
    base = _hex_view(game, hx, game.phase_colour())
    old_cities = [n for n in base.nodes if n.kind == "city"]
    nodes: list[NodeView] = []
    city_no = 0
    for i, ndef in enumerate(tile.tdef.nodes):
        if ndef.kind != "city":
            nodes.append(NodeView(index=i, kind=ndef.kind, revenue=ndef.revenue))
            continue
        old = old_cities[city_no] if city_no < len(old_cities) else None
        city_no += 1
        tokens = tuple(old.tokens[k] if old is not None and k < len(old.tokens) else None
                       for k in range(ndef.slots))
        reserved = tuple(old.reserved[k] if old is not None and k < len(old.reserved) else None
                         for k in range(ndef.slots))
        nodes.append(NodeView(index=i, kind="city", revenue=ndef.revenue, slots=ndef.slots,
                              tokens=tokens, reserved=reserved))
    paths = tuple(PathView(_end(rotate_end(p.a, rotation)), _end(rotate_end(p.b, rotation)))
                  for p in tile.tdef.paths)
    return replace(base, colour=tile.colour, tile=tile.name, rotation=rotation,
                   label=tile.tdef.label or base.label, nodes=tuple(nodes), paths=paths,
                   terrain_cost=0, terrain_kind="")


# ----------------------------------------------------------------------------- market


def market_view(game: Game) -> MarketView:
    """The share price grid with each started company's marker, stacks in operating order."""
    market = game.market
    width = max((len(r) for r in market.rows), default=0)
    rows = tuple(tuple(c.price if c is not None else None for c in row) + (None,) * (width - len(row))
                 for row in market.rows)
    cells = [c for row in market.rows for c in row if c is not None]
    stacks = {c.coords: tuple(sorted(c.stack, key=market.order_key)) for c in cells if c.stack}
    colours, text = _corp_colours(game)
    return MarketView(
        title=view_title(game),
        rows=rows,
        zones={c.coords: c.zone for c in cells if c.zone},
        par_cells=tuple(c.coords for c in cells if c.par),
        end_cells=tuple(c.coords for c in cells if c.end),
        stacks=stacks,
        corporation_colours=colours,
        corporation_text_colours=text,
        round_name=game.round.name(),
        phase=str(game.phase["name"]),
        operating_rounds_in_set=int(game.operating_rounds),
        finished=game.finished,
        game_end_reason=end_reason_text(game.game_end_reason),
        ranking=tuple(sorted(((p.name, game.player_value(p)) for p in game.players), key=lambda nv: -nv[1]))
        if game.finished else (),
        kinds={c.sym: c.kind.value for c in game.corporations.values() if c.kind.value != "major"},
        currency=game.config.currency,
    )


# ----------------------------------------------------------------------------- text


def hex_text(h: HexView, currency: str = "$%d") -> str:
    """One line about a hex for chat: what is laid there and who has stations in it.

    ``currency`` is the title's money format (the board view's ``currency``)."""
    head = f"{h.id} {h.name}".strip() + ": "
    head += f"tile {h.tile} ({h.colour}, rotation {h.rotation})" if h.tile else f"printed {h.colour}"
    parts = []
    for n in h.nodes:
        if n.kind == "city":
            slots = []
            for i in range(n.slots):
                tok = n.tokens[i] if i < len(n.tokens) else None
                res = n.reserved[i] if i < len(n.reserved) else None
                slots.append(tok or (f"{res} home" if res else "empty"))
            value = f" {currency % n.revenue}" if n.revenue else ""
            plural = "s" if n.slots != 1 else ""
            parts.append(f"city{value} ({n.slots} slot{plural}: {', '.join(slots)})")
        elif n.kind in ("town", "offboard") and (n.revenue or n.kind == "offboard"):
            parts.append(f"{n.kind} {currency % n.revenue}")
        elif n.kind == "town":
            parts.append("town")
    if h.blocked_by:
        parts.append(f"blocked by {h.blocked_by}")
    return head + ("; " + "; ".join(parts) if parts else "")

