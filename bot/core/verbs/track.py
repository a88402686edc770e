"""Track and stations: tiles laid or upgraded, station tokens placed."""

from __future__ import annotations

from typing import Any

from bot.core.move_spec import Action, Arg, Candidates, Intent, MoveSpec
from bot.core.reading import city_hex, city_nodes, company_prefix, first, listing, match_hex, need, tile_name, to_int
from bot.core.refusals import illegal, malformed
from engine.core import query
from engine.core.entities import Player
from engine.core.game import Game


def _lay(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    args = tuple(a for a in args if a.lower() not in ("rot", "rotation"))  # as `moves` writes it: 57 rot 2
    need(args, 2, "lay HEX TILE [ROTATION]")
    ent = candidates[0][0]
    hex_id = match_hex(game, args[0])
    options = query.choices(game, ent, "lay_tile")
    here = [c for c in options if c["hex"] == hex_id]
    who = game.describe(ent)
    if not here:
        hexes = sorted({c["hex"] for c in options})
        raise illegal(f"{who} cannot lay a tile on {hex_id}; it can build on: {listing(hexes) or 'nothing'}")
    names = {tile_name(c["tile"]) for c in here}
    all_names = {t.name for t in game.tile_supply.values()} | set(game.tile_defs)
    want = next((n for n in names if n.lower() == args[1].lower()), None)
    if want is None:
        if not any(n.lower() == args[1].lower() for n in all_names):
            raise malformed(
                f"{game.TITLE} has no tile {args[1]}; tiles that fit on {hex_id}: {listing(sorted(names))} "
                f"(`lay {hex_id}` draws them)"
            )
        raise illegal(f"tile {args[1]} cannot go on {hex_id}; tiles that fit: {listing(sorted(names))}")
    fits = [c for c in here if tile_name(c["tile"]) == want]
    rotations = sorted({int(c["rotation"]) for c in fits})
    if len(args) < 3:
        if len(rotations) == 1:
            return Intent(fits[0], ent, player)
        raise malformed(
            f"give a rotation: `lay {hex_id} {want} R` with R one of {', '.join(map(str, rotations))}"
        )
    rotation = to_int(args[2], "the rotation")
    hit = next((c for c in fits if int(c["rotation"]) == rotation), None)
    if hit is None:
        raise illegal(
            f"tile {want} on {hex_id} fits at rotation {', '.join(map(str, rotations))}, not {rotation}"
        )
    return Intent(hit, ent, player)


def city_choice(game: Game, ent: Any, kind: str, args: tuple[str, ...], usage: str) -> Action:
    need(args, 1, usage)
    hex_id = match_hex(game, args[0])
    neutral = any(a.lower() == "neutral" for a in args[1:])
    index = next((to_int(a, "the city") for a in args[1:] if a.lower() != "neutral"), None)
    options = query.choices(game, ent, kind)
    here = [c for c in options if city_hex(game, c["city"])[0] == hex_id]
    what = "place a token" if kind == "place_token" else "remove a token"
    if not here:
        hexes = sorted({city_hex(game, c["city"])[0] for c in options})
        raise illegal(
            f"{game.describe(ent)} cannot {what} in {hex_id}; it can in: {listing(hexes) or 'none'}"
        )
    nodes = city_nodes(game, hex_id)
    if index is not None:
        if not 1 <= index <= len(nodes):
            raise malformed(f"{hex_id} has {len(nodes)} cities; say 1 to {len(nodes)}")
        here = [c for c in here if city_hex(game, c["city"])[1] == nodes[index - 1]]
        if not here:
            raise illegal(f"{game.describe(ent)} cannot {what} in city {index} of {hex_id}")
    elif len({city_hex(game, c["city"])[1] for c in here}) > 1:
        which = sorted(nodes.index(city_hex(game, c["city"])[1]) + 1 for c in here)
        raise malformed(
            f"{hex_id} has several cities: say which, e.g. `{usage.split()[0]} {hex_id} {which[0]}` "
            f"(one of {', '.join(map(str, sorted(set(which))))})"
        )
    plain = [c for c in here if c.get("token_type") != "neutral"]
    neutrals = [c for c in here if c.get("token_type") == "neutral"]
    if neutral:
        if not neutrals:
            raise illegal(f"no neutral token can go in {hex_id}")
        return neutrals[0]
    return (plain or neutrals)[0]


def _token(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    ent = candidates[0][0]
    dest = first(candidates, "hex_token")
    if dest is not None and (not args or first(candidates, "place_token") is None
                             or any(a.lower() == "destination" for a in args[1:])):
        return _hex_token(game, player, dest, args)
    if not args:
        offers = token_offers(game, ent)
        raise malformed(
            "say where: `token HEX [CITY]`; you can place: " + (listing(offers, 30) or "nothing")
        )
    return Intent(city_choice(game, ent, "place_token", args, "token HEX [CITY]"), ent, player)


def _hex_token(game: Game, player: Player, ent: Any, args: tuple[str, ...]) -> Intent:
    options = query.choices(game, ent, "hex_token")
    hexes = [str(c["hex"]) for c in options]
    if not args:
        raise malformed(f"say where: `token HEX destination`; {ent.sym} may place its destination station on "
                        f"{listing(hexes) or 'no hex now'}")
    hex_id = match_hex(game, args[0])
    hit = next((c for c in options if c["hex"] == hex_id), None)
    if hit is None:
        raise illegal(f"{ent.sym} cannot place its destination station on {hex_id}; it can on: "
                      f"{listing(hexes) or 'no hex now'}")
    return Intent(hit, ent, player)


def token_offers(game: Game, ent: Any) -> list[str]:
    """Every station ``ent`` may place now, with its price: ``token G11 ($40)``."""
    out = []
    for choice in query.choices(game, ent, "place_token"):
        text = company_prefix(choice) + city_words(game, choice)
        price = query.token_price(game, ent, choice)
        out.append(text if price is None else f"{text} ({game.format_money(price)})")
    return list(dict.fromkeys(out))


def _write_lay(game: Game, action: Action) -> str:
    return f"lay {action['hex']} {tile_name(str(action['tile']))} {action['rotation']}"


def city_words(game: Game, action: Action) -> str:
    """A station placed or removed in a city: ``token I5 2`` (the city's number only in a hex of several)."""
    kind = action["type"]
    hex_id, node = city_hex(game, action["city"])
    text = f"{'token' if kind == 'place_token' else 'remove'} {hex_id}"
    nodes = city_nodes(game, hex_id)
    if len(nodes) > 1:
        text += f" {nodes.index(node) + 1}"
    if action.get("token_type") == "neutral":
        text += " neutral"
    return text


def _write_token(game: Game, action: Action) -> str:
    if action["type"] == "hex_token":  # 1822's destination station
        return f"token {action['hex']} destination"
    return city_words(game, action)


MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        'lay',
        types=('lay_tile',),
        usage='lay HEX [TILE [ROTATION]]',
        summary='lay or upgrade a tile; rotation 0-5',
        details=(
            '`lay HEX` alone lists every tile and rotation that fits on HEX with its cost (terrain, '
            "river, a second lay's fee) and draws each one in the hex. Without a rotation the only legal "
            "one is used, or the legal ones are listed. Rotations: the hex's edges are numbered "
            'clockwise 0 to 5, from the south edge on boards of flat-topped hexes (0 S, 1 SW, 2 NW, 3 N, '
            '4 NE, 5 SE) and from the south-west edge on pointy-topped ones; rotation R turns the '
            'printed tile R edges clockwise.'
        ),
        examples=('lay E9', 'lay E9 57', 'lay E9 57 2'),
        aliases=('tile',),
        args=(
            Arg('hex', 'hex', 'where: a hex you may build on', required=True, completed=True),
            Arg(
                'tile',
                'tile',
                'a tile that fits there (leave out to list and draw them all)',
                completed=True,
                after=('hex',),
            ),
            Arg(
                'rotation',
                'rotation',
                '0-5; the legal ones are offered',
                kind="number",
                completed=True,
                after=('hex', 'tile'),
            ),
        ),
        read=_lay,
        write=_write_lay,
    ),
    MoveSpec(
        'token',
        types=('place_token', 'hex_token'),
        usage='token HEX [CITY] [neutral|destination]',
        summary='place a station token',
        details=(
            'Name the city (1, 2, ...) in a hex with more than one; the map numbers them. `token` alone '
            "lists where you may place one and what it costs. `neutral` places the company's neutral "
            "station (one that blocks no other company), when it has one; `destination` an 1822 major's "
            'destination station.'
        ),
        examples=('token G11', 'token I5 2', 'token M42 destination'),
        args=(
            Arg('hex', 'hex', 'a hex where you may place a station', required=True, completed=True),
            Arg('city', 'city', 'which city of the hex (1, 2, ...)', kind="number", completed=True, after=('hex',)),
            Arg('neutral', 'flag', 'place a neutral token', kind="flag", render='neutral'),
        ),
        read=_token,
        write=_write_token,
    ),
)
