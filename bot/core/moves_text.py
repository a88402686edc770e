"""``moves`` and ``lay HEX`` answers: the legal commands grouped so that a long list stays readable.

Par prices come as one line per company, tile lays by hex with every tile's rotations and their cost,
station tokens with their price. A filter (a hex or a company) narrows the list; ``moves all`` shows every
choice. Everything here is cut from the engine's own legal choices (``engine.core.query``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.intents import Listed, listed_moves, to_command
from bot.core.reading import choice_question, city_hex, entities_of, merge_start, tile_name, with_label
from bot.core.verbs.track import token_offers
from engine.core import query
from engine.core.entities import Player
from engine.core.game import Game

#: Items per kind of move before ``moves`` cuts the list (``moves all`` shows all).
SHORT = 12


@dataclass(frozen=True, slots=True)
class TileOption:
    """One legal tile lay on one hex: what to type and what it costs."""

    hex: str
    tile: str  # tile name, e.g. "57"
    tile_id: str  # the supply tile the engine would lay
    rotation: int
    cost: query.LayCost
    entity: Any
    command: str


def rotation_help(layout: str) -> str:
    """How rotations are numbered on a board of this hex layout (flat- or pointy-topped hexes)."""
    names = ("S", "SW", "NW", "N", "NE", "SE") if layout == "flat" else ("SW", "W", "NW", "NE", "E", "SE")
    edges = ", ".join(f"{i} {n}" for i, n in enumerate(names))
    return (
        f"Hex edges are numbered clockwise from the {names[0]} edge: {edges}. Rotation R turns the tile R edges "
        f"clockwise from how it is printed, so track that leaves a tile by its edge 0 at rotation 0 leaves by "
        f"edge R at rotation R. `lay HEX` lists and draws every tile and rotation that fits there."
    )


def _money(game: Game, amount: int) -> str:
    return str(game.format_money(amount))


def cost_text(game: Game, cost: query.LayCost) -> str:
    """``$80 (terrain $60, second lay $20)``; ``free`` when nothing is owed."""
    if not cost.total:
        return "free"
    parts = [(n, what) for n, what in ((cost.terrain, "terrain"), (cost.river, "river"), (cost.fee, "lay fee")) if n]
    if len(parts) == 1:
        return f"{_money(game, cost.total)} ({parts[0][1]})"
    return f"{_money(game, cost.total)} ({', '.join(f'{what} {_money(game, n)}' for n, what in parts)})"


def tile_options(game: Game, player: Player, hex_id: str | None = None) -> list[TileOption]:
    """Every tile lay ``player`` may make now (on ``hex_id`` only, if given), with its cost."""
    out: list[TileOption] = []
    for ent in entities_of(game, player):
        if "lay_tile" not in game.actions_for(ent):
            continue
        for choice in query.choices(game, ent, "lay_tile", limit=100_000):
            if hex_id is not None and choice["hex"] != hex_id:
                continue
            out.append(
                TileOption(
                    hex=str(choice["hex"]),
                    tile=tile_name(str(choice["tile"])),
                    tile_id=str(choice["tile"]),
                    rotation=int(choice["rotation"]),
                    cost=query.lay_cost(game, ent, choice),
                    entity=ent,
                    command=to_command(game, choice),
                )
            )
    return out


def lay_hexes(game: Game, entity: Any) -> list[str]:
    """The hexes where ``entity`` may lay a tile now (for the map's highlight)."""
    if "lay_tile" not in game.actions_for(entity):
        return []
    return sorted({str(c["hex"]) for c in query.choices(game, entity, "lay_tile", limit=100_000)})


def hex_lines(game: Game, options: list[TileOption]) -> list[str]:
    """One line per hex: ``lay E11: 7 rot 0/5 · 8 rot 0/4 · 9 rot 0 — $20 (lay fee)``."""
    by_hex: dict[str, list[TileOption]] = {}
    for opt in options:
        by_hex.setdefault(opt.hex, []).append(opt)
    lines = []
    for hex_id, opts in by_hex.items():
        prefix = opts[0].command.split(" lay ")[0] + " " if " lay " in opts[0].command else ""
        same = len({o.cost for o in opts}) == 1
        tiles: dict[str, list[TileOption]] = {}
        for opt in opts:
            tiles.setdefault(opt.tile, []).append(opt)
        parts = []
        for name, fits in tiles.items():
            by_cost: dict[query.LayCost, list[int]] = {}
            for o in fits:
                by_cost.setdefault(o.cost, []).append(o.rotation)
            if same:
                parts.append(f"{name} rot " + "/".join(map(str, by_cost[opts[0].cost])))
            else:
                parts.append(
                    f"{name} "
                    + ", ".join(
                        f"rot {'/'.join(map(str, rots))} {cost_text(game, cost)}" for cost, rots in by_cost.items()
                    )
                )
        tail = f" — {cost_text(game, opts[0].cost)}" if same else ""
        lines.append(f"{prefix}lay {hex_id}: " + " · ".join(parts) + tail)
    return lines


def _par_lines(game: Game, choices: list[dict[str, Any]]) -> list[str]:
    prices: dict[str, list[int]] = {}
    for c in choices:
        prices.setdefault(str(c["corporation"]), []).append(int(str(c["share_price"]).split(",")[0]))
    by_prices: dict[tuple[int, ...], list[str]] = {}
    for corp, ps in prices.items():
        by_prices.setdefault(tuple(sorted(set(ps))), []).append(corp)
    return [
        f"par {'/'.join(corps)} at " + ", ".join(_money(game, p) for p in ps)
        for ps, corps in by_prices.items()
    ]


def _mentions(game: Game, text: str, choice: dict[str, Any], word: str) -> bool:
    """Whether a command (and the action behind it) concerns a hex or a company named ``word``."""
    low = word.lower()
    if low in (w.lower() for w in text.split()):
        return True
    for key in ("hex", "corporation", "company"):
        if str(choice.get(key, "")).lower() == low:
            return True
    if "city" in choice:
        try:
            return city_hex(game, choice["city"])[0].lower() == low
        except Exception:
            return False
    return False


def move_lines(game: Game, player: Player, *, only: str | None = None, complete: bool = False) -> list[str]:
    """The commands ``player`` may send now, grouped; ``only`` keeps those about one hex or company.

    Every command comes from :func:`bot.core.intents.listed_moves`: one for each legal action of the engine.
    """
    limit = None if complete else SHORT
    lines: list[str] = []
    grouped: dict[tuple[int, str], list[Listed]] = {}
    for item in listed_moves(game, player):
        grouped.setdefault((id(item.entity), str(item.action["type"])), []).append(item)
    for (_, kind), items in grouped.items():
        ent = items[0].entity
        head = f"{game.describe(ent)}: "
        ent_matches = only is not None and str(getattr(ent, "sym", "")).lower() == only.lower()
        if kind == "run_routes":
            lines.append(head + "run auto (or run TRAIN STOP-STOP-...)")
            continue
        if only is not None and not ent_matches:
            items = [i for i in items if _mentions(game, i.command, i.action, only)]
            if not items:
                continue
        choices = [i.action for i in items]
        if kind == "lay_tile":
            hexes = hex_lines(game, _options_of(game, ent, choices))
            shown = hexes if limit is None else hexes[:limit]
            lines.extend(head + h for h in shown)
            if len(hexes) > len(shown):
                lines.append(head + f"(+{len(hexes) - len(shown)} more hexes: `moves all` or `moves HEX`)")
            continue
        if kind == "par":
            lines.extend(head + line for line in _par_lines(game, choices))
            continue
        if kind == "place_token":
            texts = [t for t in token_offers(game, ent) if only is None or ent_matches or _mentions(game, t, {}, only)]
        else:
            texts = list(dict.fromkeys(with_label(game, ent, i.action, i.command) for i in items))
        if not texts:
            continue
        shown = texts if limit is None else texts[:limit]
        more = f" (+{len(texts) - len(shown)} more: `moves all`)" if len(texts) > len(shown) else ""
        asks = ""
        if kind in ("choose", "choose_ability") and not any(merge_start(game, c) for c in choices):
            asks = f"{choice_question(game, ent, kind)}: "  # the options alone do not say what is decided
        lines.append(head + asks + " | ".join(shown) + more)
    return lines


def _safe_command(game: Game, choice: dict[str, Any]) -> str:
    try:
        return to_command(game, choice)
    except (KeyError, ValueError):
        return ""


def _options_of(game: Game, ent: Any, choices: list[dict[str, Any]]) -> list[TileOption]:
    return [
        TileOption(
            hex=str(c["hex"]),
            tile=tile_name(str(c["tile"])),
            tile_id=str(c["tile"]),
            rotation=int(c["rotation"]),
            cost=query.lay_cost(game, ent, c),
            entity=ent,
            command=to_command(game, c),
        )
        for c in choices
    ]


__all__ = [
    "TileOption",
    "cost_text",
    "hex_lines",
    "lay_hexes",
    "move_lines",
    "rotation_help",
    "tile_options",
]


def lay_answer(game: Game, player: Player, hex_id: str) -> tuple[str, list[tuple[str, int, str, str]]]:
    """The answer to ``lay HEX``/``moves HEX``: every tile and rotation that fits, and what to draw."""
    options = tile_options(game, player, hex_id)
    if not options:
        where = sorted({o.hex for o in tile_options(game, player)})
        if not where:
            return f"You cannot lay a tile now. {rotation_help(game.board.layout)}", []
        listing = ", ".join(where[:30]) + (f" and {len(where) - 30} more" if len(where) > 30 else "")
        return f"No tile fits on {hex_id} for you now; you can lay on: {listing}.", []
    lines = [f"Tiles that fit on {hex_id} ({len(options)} lays):"]
    for opt in options:
        lines.append(f"  `{opt.command}` {cost_text(game, opt.cost)}")
    lines.append(rotation_help(game.board.layout))
    drawn = [(o.tile_id, o.rotation, o.command, cost_text(game, o.cost)) for o in options]
    return "\n".join(lines), drawn
