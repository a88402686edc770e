"""Moves in the command language <-> engine actions.

:func:`translate` turns a move such as ``lay E9 57 2`` into the engine action a seated player may take now.
Every action it returns is one of the engine's own legal choices (``engine.core.query``), with at most a price
or a count filled in, so a refused move is explained here with the legal alternatives and the engine is only
asked to apply moves that should succeed. :func:`to_command` is the inverse, used by ``moves`` and by scripts
that drive whole games through the console.
"""

from __future__ import annotations

import pickle
import re
from dataclasses import dataclass
from typing import Any

from bot.core.commands import Command, CommandError, did_you_mean, illegal, malformed, verb_named
from bot.core.grammar import MOVES, type_words
from bot.core.replies import Outcome
from bot.core.routes_text import typed_connections
from engine.core import query
from engine.core.entities import Company, Corporation, Player
from engine.core.errors import GameError
from engine.core.game import Game

Action = dict[str, Any]

#: Action types each move verb may produce, in the order they are tried (declared in bot.core.grammar).
VERB_TYPES: dict[str, tuple[str, ...]] = {m.verb: m.types for m in MOVES}

#: How to say each action type in the command language (for "you can: ..." hints).
TYPE_WORDS: dict[str, str] = type_words()

MOVE_VERBS = frozenset(VERB_TYPES)


@dataclass(frozen=True, slots=True)
class Intent:
    """A move ready for the engine. ``counterparty`` must approve first (a deal with another player)."""

    action: Action
    entity: Any
    player: Player
    counterparty: Player | None = None
    deal: str = ""  # what the counterparty is asked to approve


# ---------------------------------------------------------------------- who acts


def deciding_player(entity: Any) -> Player | None:
    """The player who decides for an entity: itself, a corporation's president, a private's owner."""
    for _ in range(4):
        if isinstance(entity, Player):
            return entity
        entity = getattr(entity, "owner", None)
        if entity is None:
            return None
    return None


def entities_of(game: Game, player: Player) -> list[Any]:
    """The entities ``player`` decides for that have something to do now (acting ones first)."""
    out: list[Any] = []
    acting = game.acting()
    players = [e for e in acting if isinstance(e, Player)]
    for ent in query.deciding_entities(game):
        decider = deciding_player(ent)
        if isinstance(ent, Corporation) and ent not in acting and players:
            # A company acting for the acting player (1828: the company that starts a merger names the other),
            # whoever presides over it.
            decider = players[0]
        if ent not in out and decider is player and game.actions_for(ent):
            out.append(ent)
    return out


def waiting_for(game: Game) -> str:
    labels = [a.label for a in query.actors(game)]
    return ", ".join(labels) if labels else "nobody"


def _words(types: list[str]) -> str:
    seen: list[str] = []
    for t in types:
        for word in TYPE_WORDS.get(t, t).split("/"):
            if word not in seen:
                seen.append(word)
    return ", ".join(f"`{w}`" for w in seen)


#: The most words a move verb takes after it (verbs not named take any number).
MAX_WORDS: dict[str, int] = {m.verb: m.max_words for m in MOVES if m.max_words is not None}


# ---------------------------------------------------------------------- names and numbers


def match_corporation(game: Game, word: str, *, among: list[str] | None = None) -> Corporation:
    for sym, corp in game.corporations.items():
        if sym.lower() == word.lower():
            return corp
    raise malformed(f"no company {word}{did_you_mean(word, among or list(game.corporations))}")


def match_private(game: Game, word: str) -> Company:
    for sym, comp in game.companies.items():
        if sym.lower() == word.lower():
            return comp
    raise malformed(f"no private company {word}{did_you_mean(word, list(game.companies))}")


def match_hex(game: Game, word: str) -> str:
    for hex_id in game.board.hexes:
        if hex_id.lower() == word.lower():
            return str(hex_id)
    near = neighbour_hexes(game, word)
    hint = f", did you mean {' or '.join(near)}?" if near else did_you_mean(word, list(game.board.hexes))
    raise malformed(f"no hex {word} on the map{hint}")


_HEX_NAME = re.compile(r"^([A-Za-z]+)(\d+)$")


def neighbour_hexes(game: Game, word: str) -> list[str]:
    """Hexes of the map next to a name that is not on it (G12 on a grid of F12 and H12), nearest first."""
    match = _HEX_NAME.match(word.strip())
    if match is None:
        return []
    letters, number = match[1].upper(), int(match[2])
    out: list[tuple[int, str]] = []
    for hex_id in game.board.hexes:
        other = _HEX_NAME.match(str(hex_id))
        if other is None or len(other[1]) != len(letters):
            continue
        rows = abs(ord(other[1][-1]) - ord(letters[-1])) if other[1][:-1] == letters[:-1] else 99
        cols = abs(int(other[2]) - number)
        if rows <= 1 and cols <= 1 and (rows or cols):
            out.append((rows + cols, str(hex_id)))
    return [h for _, h in sorted(out)][:4]


#: No price, count, page or request number comes near this; SQLite stores nothing larger (signed 64-bit).
LARGEST_NUMBER = 2**63 - 1


def to_int(word: str, what: str) -> int:
    text = word.strip().lstrip("$")
    try:
        number = int(text)
    except ValueError:
        raise malformed(f"{what} must be a number, not {word!r}") from None
    if abs(number) > LARGEST_NUMBER:
        raise malformed(f"{what} {word} is far too large a number")
    return number


def _need(args: tuple[str, ...], n: int, usage: str) -> None:
    if len(args) < n:
        raise malformed(f"not enough to go on: `{usage}`")


def _share_corp(share_id: str) -> str:
    return share_id.rsplit("_", 1)[0]


def _tile_name(tile_id: str) -> str:
    return tile_id.rsplit("-", 1)[0]


def _city_hex(game: Game, city: str) -> tuple[str, int]:
    hx, node = game.city_by_id(city)
    return str(hx.id), int(node)


def _city_nodes(game: Game, hex_id: str) -> list[int]:
    return sorted(int(n) for n in game.board.hexes[hex_id].tile.tokens)


def _train_name(game: Game, train_id: str) -> str:
    return str(game.all_trains[train_id].name)


def _listing(items: list[str], limit: int = 12) -> str:
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f" and {len(items) - limit} more"


# ---------------------------------------------------------------------- translate


def translate(game: Game, player: Player | None, command: Command, *, company: str | None = None) -> Intent:
    """The engine action for a move by ``player``; raises CommandError explaining any refusal.

    ``company`` names a private whose power is used (``nwr token C3``: company "NWR", verb "token").
    """
    verb = command.verb
    if verb not in MOVE_VERBS:
        raise malformed(f"`{verb}` is not a move")
    if game.finished:
        raise CommandError(Outcome.GAME_OVER, "the game is over")
    if player is None:
        raise CommandError(Outcome.NOT_SEATED, "you are not playing in this game")
    mine = entities_of(game, player)
    if company is not None:
        comp = match_private(game, company)
        if deciding_player(comp) is not player:
            raise CommandError(Outcome.DENIED, f"{comp.sym} is not yours to use")
        if comp not in mine:
            raise illegal(f"{comp.sym} has nothing to do now")
        mine = [comp]
    if not mine:
        raise CommandError(Outcome.NOT_YOUR_TURN, f"it's not your turn: waiting for {waiting_for(game)}")
    wanted = VERB_TYPES[verb]
    allowed_by = {id(ent): game.actions_for(ent) for ent in mine}
    candidates = [(ent, t) for ent in mine for t in wanted if t in allowed_by[id(ent)]]
    if not candidates:
        allowed = [t for ent in mine for t in allowed_by[id(ent)]]
        who = game.describe(mine[0])
        instead = list(dict.fromkeys(m.command for m in listed_moves(game, player)))
        shown = ", ".join(f"`{c}`" for c in instead[:6]) + (" …" if len(instead) > 6 else "")
        raise illegal(f"{who} cannot {verb} now; you can: {shown or _words(allowed)}")
    handler = _HANDLERS[verb]
    try:
        most = MAX_WORDS.get(verb)
        if most is not None and len(command.args) > most:
            extra = " ".join(command.args[most:])
            raise malformed(f"`{verb}` takes {'no' if most == 0 else f'at most {most}'} more word"
                            f"{'' if most == 1 else 's'}, not `{extra}`")
        intent: Intent = handler(game, player, candidates, command.args)
    except CommandError as exc:
        raise _with_examples(game, player, candidates, company, exc) from None
    return intent


def _with_examples(game: Game, player: Player, candidates: list[tuple[Any, str]], company: str | None,
                   exc: CommandError) -> CommandError:
    """A refusal of a move the seat may make in some other way names a few of the ways, unless it does already."""
    if exc.outcome not in (Outcome.MALFORMED, Outcome.ILLEGAL):
        return exc
    examples: list[str] = []
    for ent, kind in candidates:
        for choice in query.choices(game, ent, kind)[:40]:
            try:
                text = _price_left_open(game, choice, to_command(game, choice))
            except (KeyError, ValueError):
                continue
            if text not in examples:
                examples.append(text)
    if not examples:  # the verb's step lists nothing after all: what the seat can do instead
        examples = list(dict.fromkeys(m.command for m in listed_moves(game, player)))
    said = exc.message.lower().replace("`", " ").replace(",", " ").replace(":", " ").split()
    if not examples or any(w.lower() in said for e in examples for w in e.split()[1 if company else 0:][:2]):
        return exc
    shown = ", ".join(f"`{e}`" for e in examples[:4]) + (" …" if len(examples) > 4 else "")
    return CommandError(exc.outcome, f"{exc.message}; you can: {shown}")


def _first(candidates: list[tuple[Any, str]], kind: str) -> Any | None:
    return next((ent for ent, t in candidates if t == kind), None)


def engine_reason(game: Game, action: Action, said: str = "") -> str:
    """Why the engine refuses ``action`` now, in its own words (tried on a copy of the game), as a clause
    ``" (...)"``; "" when it would take it, or says nothing more than ``said``."""
    try:
        copy = pickle.loads(pickle.dumps(game))
        copy.process(action)
    except GameError as exc:
        return f" ({exc.message})" if exc.message and exc.message.lower() not in said.lower() else ""
    except Exception:  # a made-up action may fail anywhere; the refusal stands without a reason
        return ""
    return ""


def _simple(kind: str, pick: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
    def handler(
        game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]
    ) -> Intent:
        ent = candidates[0][0]
        options = query.choices(game, ent, kind)
        if pick:
            options = [c for c in options if all(c.get(k) == v for k, v in pick.items())]
        if not options:
            why = engine_reason(game, {**query.entity_action(game, ent, kind), **(pick or {})},
                                f"{game.describe(ent)} cannot {TYPE_WORDS[kind]} now")
            raise illegal(f"{game.describe(ent)} cannot {TYPE_WORDS[kind]} now{why}")
        return Intent(options[0], ent, player)

    return handler


def _bid(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    if args and args[0].lower() in ("keep", "withdraw"):  # an outbid player's choice (1862)
        return _simple("choose", {"choice": args[0].lower()})(game, player, candidates, args)  # type: ignore[no-any-return]
    _need(args, 2, "bid PRIVATE PRICE")
    ent = candidates[0][0]
    comp = match_private(game, args[0])
    price = to_int(args[1], "the bid")
    options = query.choices(game, ent, "bid")
    hit = [c for c in options if c["company"] == comp.sym]
    if not hit:
        open_ = [f"{c['company']} (from {game.format_money(c['price'])})" for c in options]
        raise illegal(
            f"{comp.sym} is not up for bids now; open: {_listing(open_) or 'nothing you can afford'}"
        )
    low = int(hit[0]["price"])
    if price < low:
        raise illegal(f"the minimum bid for {comp.sym} is {game.format_money(low)}")
    if price != low and buyable_outright(game, ent, comp):
        # The engine takes a bid on a private that may be bought outright as its purchase at the bid, and the
        # rules sell it at its price (1882 §9) or take no bid on it (1828 §6.1): the price is the one to pay.
        raise illegal(f"{comp.sym} is not up for bids: it can be bought now for {game.format_money(low)}, "
                      f"`buy {comp.sym}`")
    return Intent({**hit[0], "price": price}, ent, player)


def buyable_outright(game: Game, entity: Any, comp: Company) -> bool:
    """Whether the auction sells ``comp`` now at its price rather than taking bids on it (1882's cheapest
    private, 1828's last of a tier)."""
    step = query.step_for(game, entity, "bid")
    may_purchase = getattr(step, "may_purchase", None)
    return bool(callable(may_purchase) and may_purchase(comp))


def _buy(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    _need(args, 1, "buy CORP [pool] | buy PRIVATE")
    word = args[0]
    kinds = [t for _, t in candidates]
    if word.lower() == "coal" and "special_buy" in kinds:
        return _special(game, player, _first(candidates, "special_buy"), args)
    if word.lower() == "coal" and hasattr(game, "buy_coal_marker"):
        raise illegal(f"{game.describe(candidates[0][0])} cannot buy a coal marker now: a company may when it "
                      "reaches the Virginia Coalfields with a marker left there, holds none and has the price")
    is_corp = any(sym.lower() == word.lower() for sym in game.corporations)
    is_private = any(sym.lower() == word.lower() for sym in game.companies)
    if "buy_shares" in kinds and is_corp:
        return _buy_shares(game, player, _first(candidates, "buy_shares"), args)
    if "bid" in kinds and is_private:
        return _buy_auction(game, player, _first(candidates, "bid"), args)
    if "buy_company" in kinds and is_private:
        return _buy_company(game, player, _first(candidates, "buy_company"), args)
    if word.lower() == "train" and len(args) > 1:
        raise malformed(f"to buy a train: `train {args[1]}`")
    if is_corp or is_private:
        allowed = [t for ent in {e for e, _ in candidates} for t in game.actions_for(ent)]
        raise illegal(f"you cannot buy {word.upper()} now; you can: {_words(allowed)}")
    names: list[str] = []
    if "buy_shares" in kinds:
        names += list(game.corporations)
    if "bid" in kinds or "buy_company" in kinds:
        names += list(game.companies)
    kind = "company" if "buy_shares" in kinds else "private company"
    if hasattr(game, "buy_coal_marker"):
        names.append("coal")  # 1828's `buy coal`
    hint = did_you_mean(word, names)
    if hint.endswith("coal?"):
        raise malformed(f"no {kind} {word}, did you mean `buy coal`?")
    raise malformed(f"no {kind} {word}{hint}")


def _buy_shares(game: Game, player: Player, ent: Any, args: tuple[str, ...]) -> Intent:
    corp = match_corporation(game, args[0])
    source = None
    count = 1
    for word in args[1:]:
        low = word.lower()
        if low in ("pool", "market"):
            source = "pool"
        elif low in ("ipo", "treasury", "bank"):
            source = "ipo"
        else:
            count = to_int(word, "the number of shares")
    options = [c for c in query.choices(game, ent, "buy_shares") if _share_corp(c["shares"][0]) == corp.sym]
    by_source: dict[str, Action] = {}
    for c in options:
        holder = game.share_by_id(c["shares"][0]).owner
        by_source.setdefault("pool" if holder is game.pool else "ipo", c)
    if not by_source:
        buyable = sorted({_share_corp(c["shares"][0]) for c in query.choices(game, ent, "buy_shares")})
        raise illegal(f"you cannot buy {corp.sym} now; you can buy: {_listing(buyable) or 'nothing'}")
    if source is None:
        source = "ipo" if "ipo" in by_source else "pool"
    if source not in by_source:
        other = "pool" if source == "ipo" else "ipo"
        hint = f"buy {corp.sym} pool" if other == "pool" else f"buy {corp.sym}"
        raise illegal(
            f"no {corp.sym} share for you from the {source.upper() if source == 'ipo' else source}; "
            f"try `{hint}`"
        )
    choice = by_source[source]
    if count < 1:
        raise malformed("the number of shares must be at least 1")
    if count > 1:
        holder = game.share_by_id(choice["shares"][0]).owner
        plain = [s for s in holder.shares if s.corp == corp.sym and not s.president][:count]
        if len(plain) < count:
            raise illegal(f"only {len(plain)} {corp.sym} shares are for sale there")
        choice = {**choice, "shares": [s.id for s in plain], "percent": sum(s.percent for s in plain)}
    return Intent(choice, ent, player)


def _buy_auction(game: Game, player: Player, ent: Any, args: tuple[str, ...]) -> Intent:
    comp = match_private(game, args[0])
    options = query.choices(game, ent, "bid")
    hit = next((c for c in options if c["company"] == comp.sym), None)
    if hit is None or int(hit["price"]) != comp.min_bid:
        buyable = [
            c["company"]
            for c in options
            if c["company"] in game.companies and int(c["price"]) == game.companies[c["company"]].min_bid
        ]
        cheapest = game.format_money(game.companies[buyable[0]].min_bid) if buyable else ""
        hint = f"; you can buy {buyable[0]} ({cheapest})" if buyable else ""
        bid_hint = f"; to bid: `bid {comp.sym} {hit['price']}`" if hit is not None else ""
        what = f"the {game.format_money(comp.value)} private {comp.sym} ({comp.name})"
        # 1828's privates share symbols with public companies (CPR): say which one is meant, and why not now.
        shares = (f"; shares of the public company {comp.sym} are bought in a stock round"
                  if comp.sym in game.corporations else "")
        raise illegal(f"{what} is not sold at a fixed price now, it goes to the highest bid{bid_hint}{hint}"
                      f"{shares}")
    if len(args) > 1 and to_int(args[1], "the price") != int(hit["price"]):
        raise illegal(f"{comp.sym} costs {game.format_money(hit['price'])}; to pay more, bid")
    return Intent(hit, ent, player)


def _company_choice(game: Game, ent: Any, kind: str, comp: Company, verb: str) -> Action:
    """``ent``'s legal ``kind`` action on the private ``comp``, or a refusal listing the privates it may take."""
    options = query.choices(game, ent, kind)
    hit = next((c for c in options if c["company"] == comp.sym), None)
    if hit is None:
        names = [c["company"] for c in options]
        raise illegal(f"{game.describe(ent)} cannot {verb} {comp.sym} now; it can {verb}: {_listing(names) or 'none'}")
    return hit


def _buy_company(game: Game, player: Player, ent: Any, args: tuple[str, ...]) -> Intent:
    comp = match_private(game, args[0])
    hit = _company_choice(game, ent, "buy_company", comp, "buy")
    # The step's own range where it says (1828 lets C&P go below half its value), else the usual half to double.
    low, high = query.price_range(game, ent, hit) or ((comp.value + 1) // 2, comp.value * 2)
    if len(args) < 2:
        span = f"{game.format_money(low)} to {game.format_money(high)}"
        raise malformed(f"name the price: `buyprivate {comp.sym} PRICE` ({span})")
    price = to_int(args[1], "the price")
    if not low <= price <= high:
        raise illegal(f"{comp.sym} may be bought for {game.format_money(low)} to {game.format_money(high)}")
    if price > ent.cash:
        raise illegal(f"{game.describe(ent)} has only {game.format_money(ent.cash)}")
    seller = comp.owner if isinstance(comp.owner, Player) else None
    other = seller if seller is not None and seller is not player else None
    # The buyer is a company, or in 1830's stock rounds a player buying from another.
    deal = (f"{game.describe(ent)} buys {comp.sym} from {seller.name if seller else 'its owner'} "
            f"for {game.format_money(price)}")
    return Intent({**hit, "price": price}, ent, player, other, deal)


def _buyprivate(
    game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]
) -> Intent:
    _need(args, 1, "buyprivate PRIVATE PRICE")
    acquire = _first(candidates, "acquire_company")
    if acquire is not None:
        return _acquire(game, player, acquire, args)
    return _buy_company(game, player, candidates[0][0], args)


def _acquire(game: Game, player: Player, ent: Any, args: tuple[str, ...]) -> Intent:
    """1822: a major takes over a private at the price the rules fix, so no price is typed."""
    comp = match_private(game, args[0])
    hit = _company_choice(game, ent, "acquire_company", comp, "acquire")
    if len(args) > 1:
        raise malformed(f"{ent.sym} acquires {comp.sym} at the price the rules fix: send `buyprivate {comp.sym}`")
    return Intent(hit, ent, player)


def _sell(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    _need(args, 1, "sell CORP [N]")
    ent = candidates[0][0]
    corp = match_corporation(game, args[0])
    amount = sale_amount(args[1]) if len(args) > 1 else "1"
    options = query.choices(game, ent, "sell_shares")
    mine = [c for c in options if _share_corp(c["shares"][0]) == corp.sym]
    if not mine:
        sellable = sorted({_share_corp(c["shares"][0]) for c in options})
        raise illegal(f"you cannot sell {corp.sym} now; you can sell: {_listing(sellable) or 'nothing'}")
    # N counts ordinary shares' worth: a president's certificate may be sold in part.
    hit = next((c for c in mine if shares_sold(c) == amount), None)
    if hit is None:
        amounts = ", ".join(f"`sell {corp.sym} {n}`" for n in dict.fromkeys(shares_sold(c) for c in mine))
        raise illegal(f"you cannot sell {amount} {corp.sym} now; you can: {amounts}")
    return Intent(hit, ent, player)


def sale_amount(word: str) -> str:
    """A sale's size as typed: a number of shares (``2``) or, for a part of a share, a percentage (``15%``)."""
    if word.endswith("%"):
        return f"{to_int(word[:-1], 'the percentage')}%"
    return str(to_int(word, "the number of shares"))


def shares_sold(action: dict[str, Any]) -> str:
    """How many ordinary shares' worth a sale is (the president's certificate counts double when sold whole);
    a sale that is no whole number of 10% shares (1862's halved certificates) is said in percent."""
    percent = int(action.get("percent") or 10 * len(action["shares"]))
    return str(percent // 10) if percent % 10 == 0 else f"{percent}%"


def _par(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    _need(args, 1, "par CORP PRICE")
    ent = candidates[0][0]
    options = query.choices(game, ent, "par")
    startable = sorted({c["corporation"] for c in options})
    corp = match_corporation(game, args[0])
    mine = [c for c in options if c["corporation"] == corp.sym]
    if not mine:
        raise illegal(f"you cannot start {corp.sym} now; you can start: {_listing(startable) or 'none'}")
    prices = [int(str(c["share_price"]).split(",")[0]) for c in mine]
    listing = ", ".join(game.format_money(p) for p in sorted(set(prices)))
    if len(args) < 2:
        raise malformed(f"name a par price: `par {corp.sym} PRICE` ({listing})")
    price = to_int(args[1], "the par price")
    if price not in prices:
        raise illegal(
            f"{game.format_money(price)} is not a par price you can pay for {corp.sym}; par prices: {listing}"
        )
    return Intent(mine[prices.index(price)], ent, player)


def _lay(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    args = tuple(a for a in args if a.lower() not in ("rot", "rotation"))  # as `moves` writes it: 57 rot 2
    _need(args, 2, "lay HEX TILE [ROTATION]")
    ent = candidates[0][0]
    hex_id = match_hex(game, args[0])
    options = query.choices(game, ent, "lay_tile")
    here = [c for c in options if c["hex"] == hex_id]
    who = game.describe(ent)
    if not here:
        hexes = sorted({c["hex"] for c in options})
        raise illegal(f"{who} cannot lay a tile on {hex_id}; it can build on: {_listing(hexes) or 'nothing'}")
    names = {_tile_name(c["tile"]) for c in here}
    all_names = {t.name for t in game.tile_supply.values()} | set(getattr(game, "tile_defs", {}))
    want = next((n for n in names if n.lower() == args[1].lower()), None)
    if want is None:
        if not any(n.lower() == args[1].lower() for n in all_names):
            raise malformed(
                f"{game.TITLE} has no tile {args[1]}; tiles that fit on {hex_id}: {_listing(sorted(names))} "
                f"(`lay {hex_id}` draws them)"
            )
        raise illegal(f"tile {args[1]} cannot go on {hex_id}; tiles that fit: {_listing(sorted(names))}")
    fits = [c for c in here if _tile_name(c["tile"]) == want]
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


def _city_choice(game: Game, ent: Any, kind: str, args: tuple[str, ...], usage: str) -> Action:
    _need(args, 1, usage)
    hex_id = match_hex(game, args[0])
    neutral = any(a.lower() == "neutral" for a in args[1:])
    index = next((to_int(a, "the city") for a in args[1:] if a.lower() != "neutral"), None)
    options = query.choices(game, ent, kind)
    here = [c for c in options if _city_hex(game, c["city"])[0] == hex_id]
    what = "place a token" if kind == "place_token" else "remove a token"
    if not here:
        hexes = sorted({_city_hex(game, c["city"])[0] for c in options})
        raise illegal(
            f"{game.describe(ent)} cannot {what} in {hex_id}; it can in: {_listing(hexes) or 'none'}"
        )
    nodes = _city_nodes(game, hex_id)
    if index is not None:
        if not 1 <= index <= len(nodes):
            raise malformed(f"{hex_id} has {len(nodes)} cities; say 1 to {len(nodes)}")
        here = [c for c in here if _city_hex(game, c["city"])[1] == nodes[index - 1]]
        if not here:
            raise illegal(f"{game.describe(ent)} cannot {what} in city {index} of {hex_id}")
    elif len({_city_hex(game, c["city"])[1] for c in here}) > 1:
        which = sorted(nodes.index(_city_hex(game, c["city"])[1]) + 1 for c in here)
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


def _token(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    ent = candidates[0][0]
    dest = _first(candidates, "hex_token")
    if dest is not None and (not args or _first(candidates, "place_token") is None
                             or any(a.lower() == "destination" for a in args[1:])):
        return _hex_token(game, player, dest, args)
    if not args:
        offers = token_offers(game, ent)
        raise malformed(
            "say where: `token HEX [CITY]`; you can place: " + (_listing(offers, 30) or "nothing")
        )
    return Intent(_city_choice(game, ent, "place_token", args, "token HEX [CITY]"), ent, player)


def _hex_token(game: Game, player: Player, ent: Any, args: tuple[str, ...]) -> Intent:
    options = query.choices(game, ent, "hex_token")
    hexes = [str(c["hex"]) for c in options]
    if not args:
        raise malformed(f"say where: `token HEX destination`; {ent.sym} may place its destination station on "
                        f"{_listing(hexes) or 'no hex now'}")
    hex_id = match_hex(game, args[0])
    hit = next((c for c in options if c["hex"] == hex_id), None)
    if hit is None:
        raise illegal(f"{ent.sym} cannot place its destination station on {hex_id}; it can on: "
                      f"{_listing(hexes) or 'no hex now'}")
    return Intent(hit, ent, player)


def token_offers(game: Game, ent: Any) -> list[str]:
    """Every station ``ent`` may place now, with its price: ``token G11 ($40)``."""
    out = []
    for choice in query.choices(game, ent, "place_token"):
        text = to_command(game, choice)
        price = query.token_price(game, ent, choice)
        out.append(text if price is None else f"{text} ({game.format_money(price)})")
    return list(dict.fromkeys(out))


def _remove(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    ent = candidates[0][0]
    return Intent(_city_choice(game, ent, "remove_token", args, "remove HEX [CITY]"), ent, player)


def _run(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    ent = candidates[0][0]
    if args and args[0].lower() not in ("auto", "best"):
        confirmed = bool(args) and args[-1].lower() in CONFIRM_WORDS
        typed = args[:-1] if confirmed else args
        action = _manual_routes(game, ent, typed)
        if not confirmed:
            _ask_if_idle(game, ent, action, typed)
        return Intent(action, ent, player)
    options = query.choices(game, ent, "run_routes")
    if not options:
        raise illegal(f"{game.describe(ent)} has no routes to run")
    return Intent(options[0], ent, player)


def _revenue_of(game: Game, action: Action) -> int | None:
    """What a run earns, worked out on a copy of the game (None if the engine refuses it)."""
    try:
        copy = pickle.loads(pickle.dumps(game))
        copy.process(action)
    except Exception:
        return None
    return sum(int(r.revenue) for r in getattr(copy.round, "routes", None) or [])


def _ask_if_idle(game: Game, corp: Any, action: Action, typed: tuple[str, ...]) -> None:
    """A typed run that leaves a train standing while the best run earns more is asked about first (F10)."""
    running = {r["train"] for r in action["routes"]}
    idle = [t for t in corp.trains if t.id not in running]
    if not idle:
        return
    best = query.choices(game, corp, "run_routes")
    if not best:
        return
    mine, top = _revenue_of(game, action), _revenue_of(game, best[0])
    if mine is None or top is None or top <= mine:
        return
    names = ", ".join(f"the {t.name}-train" for t in idle)
    raise CommandError(
        Outcome.PENDING,
        f"{names} does not run: as typed {corp.sym} earns {game.format_money(mine)}, the best run (`run auto`) "
        f"earns {game.format_money(top)}. To run as typed, send `run {' '.join(typed)} confirm`.",
    )


RUN_USAGE = (
    "run auto, or run TRAIN STOP-STOP-... [TRAIN ...] with the stops as 18xx.games writes them "
    "(e.g. run 3 I1-I5-J8 2 E5-D4); hex-by-hex paths work too"
)


def _manual_routes(game: Game, corp: Any, args: tuple[str, ...]) -> Action:
    """``run 3 I1-I5-J8 2 E5-D4``: each train name, then its stops (or the hexes it passes, hex by hex)."""
    if len(args) % 2:
        raise malformed(f"give each train a route: {RUN_USAGE}")
    unused = list(corp.trains)
    routes = []
    for name, path in zip(args[::2], args[1::2], strict=True):
        train = next((t for t in unused if t.name.lower() == name.lower()), None)
        if train is None:
            owned = ", ".join(t.name for t in corp.trains) or "none"
            raise illegal(f"{corp.sym} has no {'other ' if corp.trains else ''}{name}-train to run (trains: {owned})")
        unused.remove(train)
        hexes = [match_hex(game, h) for h in path.split("-") if h]
        if len(hexes) < 2:
            raise malformed(f"a route needs at least two hexes joined by '-': {RUN_USAGE}")
        routes.append({"train": train.id, "connections": typed_connections(game, corp, hexes)})
    return {**query.entity_action(game, corp, "run_routes"), "routes": routes}


def _dividend(kind: str):  # type: ignore[no-untyped-def]
    return _simple("dividend", {"kind": kind})


def _train(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    _need(args, 1, "train NAME")
    ent = candidates[0][0]
    name = args[0]
    rest = [a.lower() for a in args[1:]]
    options = query.choices(game, ent, "buy_train")
    shell = None
    if "shell" in rest:  # 1828: which of a system's two shells gets the train
        j = rest.index("shell")
        if j + 1 >= len(rest):
            raise malformed("say which shell gets the train: `train NAME shell COMPANY`")
        shell = args[1 + j + 1]
    if "from" in rest:
        i = rest.index("from")
        if i + 1 >= len(rest):
            raise malformed("say which company sells: `train NAME from CORP PRICE`")
        seller = match_corporation(game, args[1 + i + 1])
        if seller is ent:
            raise illegal(f"{ent.sym} cannot buy its own train")
        train = next((t for t in seller.trains if str(t.name).lower() == name.lower()), None)
        if train is None:
            have = ", ".join(sorted({t.name for t in seller.trains})) or "none"
            raise illegal(f"{seller.sym} has no {name} train (it has: {have})")
        # The engine's choices carry the highest price it allows (the treasury, or face value when the
        # president may contribute); the engine checks the price itself when the action is applied.
        top = max((int(o["price"]) for o in options if o.get("train") == train.id), default=ent.cash)
        if i + 2 >= len(rest):
            span = f"{game.format_money(1)} to {game.format_money(top)}"
            raise malformed(f"name the price: `train {train.name} from {seller.sym} PRICE` ({span})")
        price = to_int(args[1 + i + 2], "the price")
        if not 1 <= price <= top:
            span = f"{game.format_money(1)} to {game.format_money(top)}"
            raise illegal(f"the price must be {span} for {seller.sym}'s {train.name} train")
        shells = _for_shell(game, ent, [o for o in options if o.get("train") == train.id], shell,
                            f"train {train.name} from {seller.sym} {price}")
        if not shells and not _room_for_train(game, ent):
            raise illegal(f"{ent.sym} has no room for another train")
        action = {**query.entity_action(game, ent, "buy_train"), "train": train.id, "price": price}
        if shells:
            action["shell"] = shells[0]["shell"]
        pres = seller.owner
        other = pres if isinstance(pres, Player) and pres is not player else None
        deal = f"{ent.sym} buys {seller.sym}'s {train.name} train for {game.format_money(price)}"
        return Intent(action, ent, player, other, deal)
    if "upgrade" in rest:
        return _upgrade_train(game, player, ent, name, options)
    trade = None
    if "trade" in rest or "exchange" in rest:
        i = rest.index("trade") if "trade" in rest else rest.index("exchange")
        if i + 1 >= len(rest):
            raise malformed("say which train is traded in: `train D trade 4`")
        trade = rest[i + 1]
    pool = "pool" in rest
    fits = [
        c
        for c in options
        if bought_name(game, c).lower() == name.lower()
        and game.all_trains[c["train"]].owner in (None, game.pool)
    ]
    if trade is None:
        fits = [c for c in fits if not c.get("exchange")]
    else:
        fits = [c for c in fits if c.get("exchange") and _train_name(game, c["exchange"]).lower() == trade]
    in_pool = [c for c in fits if game.all_trains[c["train"]].owner is game.pool]
    depot = [c for c in fits if game.all_trains[c["train"]].owner is None]
    pick = in_pool if pool else depot or in_pool
    if pick and any(c.get("shell") for c in pick):
        pick = _for_shell(game, ent, pick, shell, " ".join(("train", *args)))
    if not pick:
        new_train = next((t for t in game.available_depot_trains() if str(t.name).lower() == name.lower()), None) \
            if hasattr(game, "available_depot_trains") else None
        why = ""
        if new_train is not None and not pool:
            tried = {**query.entity_action(game, ent, "buy_train"), "train": new_train.id, "price": new_train.price}
            rooms = [s.name for s in getattr(game, "shells_with_room", lambda _c: [])(ent)]
            if shell or rooms:  # an 1828 system: the reason is the purchase's, not the missing shell's
                tried["shell"] = shell or rooms[0]
            why = engine_reason(game, tried)
        if why and new_train is not None and "by selling" in why:
            # The train is owed and its president must sell first (1828 §9.5): say so, with the sales open.
            sales = [m.command for m in listed_moves(game, player) if m.action["type"] == "sell_shares"]
            shown = ", ".join(f"`{c}`" for c in sales[:6]) + (" …" if len(sales) > 6 else "")
            raise illegal(f"{ent.sym} cannot buy the {new_train.name} train ({game.format_money(new_train.price)}) "
                          f"yet{why}: sell shares first" + (f"; you can: {shown}" if shown else ""))
        offers = sorted(
            {
                f"{bought_name(game, c)} ({game.format_money(c['price'])})"
                for c in options
                if game.all_trains[c["train"]].owner in (None, game.pool)
            }
        )
        raise illegal(
            f"{ent.sym} cannot buy a {name} train{' from the pool' if pool else ''} now{why}; "
            f"it can buy: {_listing(offers) or 'none'}"
        )
    return Intent(pick[0], ent, player)


def bought_name(game: Game, action: Action) -> str:
    """The name of the train a purchase buys: its variant's when it names one (1822's 7 train bought as an E)."""
    return str(action.get("variant") or _train_name(game, action["train"]))


def _for_shell(game: Game, ent: Any, options: list[Action], shell: str | None, typed: str) -> list[Action]:
    """The options for the shell named (1828 systems keep trains in two shells); [] when there are no shells."""
    shells = list(dict.fromkeys(str(c["shell"]) for c in options if c.get("shell")))
    if not shells:
        return []
    if shell is None:
        if len(shells) == 1:
            return [c for c in options if c.get("shell") == shells[0]]
        ways = " or ".join(f"`{typed} shell {s}`" for s in shells)
        raise malformed(f"{ent.sym} is a system: say which shell gets the train, {ways}")
    hit = [c for c in options if str(c.get("shell", "")).lower() == shell.lower()]
    if not hit:
        raise illegal(f"{ent.sym} has no shell {shell} that can take the train; shells: {', '.join(shells)}")
    return hit


def _upgrades(game: Game, ent: Any, options: list[Action]) -> list[Action]:
    """Trains the company turns into another variant of its own (1822: an L train into a 2 train)."""
    return [c for c in options if c.get("variant") and game.all_trains[c["train"]].owner is ent]


def _upgrade_train(game: Game, player: Player, ent: Any, name: str, options: list[Action]) -> Intent:
    ups = _upgrades(game, ent, options)
    hit = next((c for c in ups if str(c["variant"]).lower() == name.lower()), None)
    if hit is None:
        offers = sorted({f"`train {c['variant']} upgrade` ({game.format_money(int(c['price']))})" for c in ups})
        raise illegal(f"{ent.sym} cannot upgrade a train into a {name} train now; it can: "
                      f"{_listing(offers) or 'none'}")
    return Intent(hit, ent, player)


def _room_for_train(game: Game, corp: Any) -> bool:
    return bool(corp.trains_in_limit() < game.train_limit(corp))


def _discard(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    _need(args, 1, "discard NAME")
    ent = candidates[0][0]
    options = query.choices(game, ent, "discard_train")
    hit = next((c for c in options if _train_name(game, c["train"]).lower() == args[0].lower()), None)
    if hit is None:
        have = sorted({_train_name(game, c["train"]) for c in options})
        raise illegal(f"{ent.sym} has no {args[0]} train to discard (it has: {', '.join(have)})")
    return Intent(hit, ent, player)


CONFIRM_WORDS = ("confirm", "yes", "sure")


def _bankrupt(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    """Bankruptcy cannot be taken back once others have moved on, and it may end the game: ask first."""
    ent = candidates[0][0]
    options = query.choices(game, ent, "bankrupt")
    if not options:
        raise illegal(f"{game.describe(ent)} cannot go bankrupt now")
    if not any(a.lower() in CONFIRM_WORDS for a in args):
        raise CommandError(
            Outcome.PENDING,
            f"Going bankrupt gives {game.describe(ent)} up, with everything its president must hand over, and "
            "it may end the game. If you are sure, send `bankrupt confirm`.",
        )
    return Intent(options[0], ent, player)


def choice_word(action: Action) -> str:
    """A ``choose`` option as one typed word (player names may hold spaces)."""
    return str(action["choice"]).replace(" ", "_")


def with_label(game: Game, entity: Any, action: Action, text: str) -> str:
    """``text`` (an option's word or command) followed by what the option means, when the step says it:
    ``one_share (alice gets one LNWR share and £10 from LNWR)``."""
    label = query.choice_label(game, entity, action) if action.get("type") in ("choose", "choose_ability") else None
    return f"{text} ({label})" if label else text


def choice_question(game: Game, entity: Any, kind: str = "choose") -> str:
    """What a ``choose`` decides, from the step that asks it (``Merger - Trade up or sell share``)."""
    step = query.step_for(game, entity, kind)
    text = str(step.description()) if step is not None else ""
    return text if text and text != "step" else "a decision"


def merge_start(game: Game, action: Action) -> bool:
    """An 1828 stock-round ``choose`` that names the company starting a merger (said ``merge PRR``)."""
    if action.get("type") != "choose" or action.get("entity_type") != "player":
        return False
    if str(action.get("choice")) not in game.corporations or not hasattr(game, "merge_candidates"):
        return False
    step = query.step_for(game, game.resolve_entity(action), "choose")
    return step is not None and getattr(step, "name", "") != "Merger"


def _choose(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    options = [
        (ent, c)
        for ent, kind in candidates
        for c in query.choices(game, ent, kind)
        if kind in ("choose", "choose_ability") and c["type"] == kind and not merge_start(game, c)
    ]
    if not options:
        if any(merge_start(game, c) for ent, kind in candidates for c in query.choices(game, ent, kind)):
            raise illegal("there is nothing to choose now; to start a merger: `merge CORP` (`moves` lists them)")
        raise illegal(f"there is nothing to choose now; you can: {_words(_allowed(game, candidates))}")
    ent = options[0][0]
    shown = list(dict.fromkeys(with_label(game, e, c, choice_word(c)) for e, c in options))
    question = choice_question(game, ent, options[0][1]["type"])
    if not args:
        raise malformed(f"{question}: say `choose OPTION`, one of: {', '.join(shown)}")
    want = "_".join(args).lower()
    hit = next(((e, c) for e, c in options if choice_word(c).lower() == want), None)
    if hit is None:
        raise illegal(f"{' '.join(args)} is not a choice here ({question}); choose one of: {', '.join(shown)}")
    return Intent(hit[1], hit[0], player)


def _allowed(game: Game, candidates: list[tuple[Any, str]]) -> list[str]:
    return [t for ent in dict.fromkeys(e for e, _ in candidates) for t in game.actions_for(ent)]


def _merge(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    """``merge CORP``: 1828 names the company starting a merger (a ``choose``), then the company it merges with;
    1822 names the minor a major acquires. Merging with another player's company needs that player's consent."""
    failed = [(ent, c) for ent, kind in candidates if kind in ("failed_merge", "choose")
              for c in query.choices(game, ent, kind) if c["type"] in ("undo", "failed_merge")]
    if failed:
        # 1828: a merger that cannot stand (no three shares for the system) is taken back, then recorded as failed.
        return Intent(failed[0][1], failed[0][0], player)
    merges = [(ent, c) for ent, kind in candidates if kind == "merge" for c in query.choices(game, ent, "merge")]
    starts = [
        (ent, c) for ent, kind in candidates if kind == "choose"
        for c in query.choices(game, ent, "choose") if merge_start(game, c)
    ]
    if not merges and not starts:
        raise illegal(f"there is no merger to make now; you can: {_words(_allowed(game, candidates))}")
    names = [c["corporation"] for _, c in merges] or [c["choice"] for _, c in starts]
    if not args:
        raise malformed(f"say which company: `merge CORP`, one of: {_listing(names)}")
    if not any(sym.lower() == args[0].lower() for sym in game.corporations):
        raise malformed(f"no company {args[0]}{did_you_mean(args[0], names)}; `merge CORP` with one of: "
                        f"{_listing(names)}")
    corp = match_corporation(game, args[0], among=names)
    if starts:
        hit = next(((e, c) for e, c in starts if c["choice"] == corp.sym), None)
        if hit is None:
            ent = starts[0][0]
            why = engine_reason(game, {**query.entity_action(game, ent, "choose"), "choice": corp.sym})
            raise illegal(f"{corp.sym} cannot start a merger now{why}; companies that can: {_listing(names)}")
        return Intent(hit[1], hit[0], player)
    hit = next(((e, c) for e, c in merges if c["corporation"] == corp.sym), None)
    if hit is None:
        who = game.describe(merges[0][0])
        why = engine_reason(game, {**query.entity_action(game, merges[0][0], "merge"), "corporation": corp.sym},
                            f"{who} cannot merge with {corp.sym}")
        raise illegal(f"{who} cannot merge with {corp.sym}{why}; it can merge with: {_listing(names)}")
    ent = hit[0]
    owners = [o for o in (deciding_player(corp), deciding_player(ent)) if isinstance(o, Player)]
    other = next((o for o in owners if o is not player), None)
    deal = f"{ent.sym} merges with {corp.sym}"
    return Intent(hit[1], ent, player, other, deal)


def _swap(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    ent = candidates[0][0]
    options = query.choices(game, ent, "swap_train")
    labels = [_swap_word(game, options, c) for c in options]
    if not args:
        raise malformed(f"say which train moves to the other shell: `swap TRAIN`, one of: {_listing(labels)}")
    want = args[0].lower()
    hit = next((c for c, label in zip(options, labels, strict=True) if label.lower() == want), None)
    if hit is None:
        hit = next((c for c in options if str(c["train"]).lower() == want), None)
    if hit is None:
        raise illegal(f"{ent.sym} cannot move a {args[0]} train between its shells; it can move: "
                      f"{_listing(labels) or 'none'}")
    return Intent(hit, ent, player)


def _swap_word(game: Game, options: list[Action], action: Action) -> str:
    """The train's name, or its id when two trains of that name could move."""
    name = _train_name(game, action["train"])
    same = [c for c in options if _train_name(game, c["train"]) == name]
    return name if len(same) == 1 else str(action["train"])


def _special(game: Game, player: Player, ent: Any, args: tuple[str, ...]) -> Intent:
    options = query.choices(game, ent, "special_buy")
    if not options:
        raise illegal(f"{game.describe(ent)} cannot buy a coal marker now")
    return Intent(options[0], ent, player)


def _repay(game: Game, player: Player, candidates: list[tuple[Any, str]], args: tuple[str, ...]) -> Intent:
    """1822: a player in debt repays it, all they can (``repay``) or a part (``repay 50``)."""
    ent = candidates[0][0]
    whole = query.choices(game, ent, "payoff_player_debt")
    if not args:
        if not whole:
            raise illegal(f"{game.describe(ent)} cannot repay now")
        return Intent(whole[0], ent, player)
    amount = to_int(args[0].lstrip("£$"), "the amount")
    most = min(int(ent.cash), int(ent.debt))
    if not 1 <= amount <= most:
        raise illegal(f"{game.describe(ent)} may repay {game.format_money(1)} to {game.format_money(most)} "
                      f"(debt {game.format_money(ent.debt)}, cash {game.format_money(ent.cash)}); `repay` pays "
                      "all it can")
    if amount == most and whole:
        return Intent(whole[0], ent, player)
    head = query.entity_action(game, ent, "payoff_player_debt_partial")
    return Intent({**head, "amount": amount}, ent, player)


_HANDLERS = {
    "bid": _bid,
    "buy": _buy,
    "buyprivate": _buyprivate,
    "sell": _sell,
    "par": _par,
    "pass": _simple("pass"),
    "lay": _lay,
    "token": _token,
    "remove": _remove,
    "run": _run,
    "pay": lambda game, player, candidates, args: _dividend(
        "half" if args and args[0].lower() == "half" else "payout")(game, player, candidates, args),
    "withhold": _dividend("withhold"),
    "train": _train,
    "discard": _discard,
    "bankrupt": _bankrupt,
    "redeem": lambda game, player, candidates, args: _simple(
        "redeem_shares", {"kind": (args[0].lower() if args else "debt")})(game, player, candidates, args),
    "close": lambda game, player, candidates, args: _simple(
        "close_company", {"company": (args[0].upper() if args else "")})(game, player, candidates, args),
    "choose": _choose,
    "merge": _merge,
    "swap": _swap,
    "repay": _repay,
}


if set(_HANDLERS) != set(VERB_TYPES):  # a declared move needs its reading, and a reading its declaration
    raise RuntimeError(f"moves without a reading or declaration: {set(_HANDLERS) ^ set(VERB_TYPES)}")


# ---------------------------------------------------------------------- actions -> commands


def to_command(game: Game, action: Action) -> str:
    """The command text for an engine action (the inverse of :func:`translate` for legal choices)."""
    kind = action["type"]
    prefix = f"{str(action['entity']).lower()} " if action.get("entity_type") == "company" else ""
    if kind == "pass":
        text = "pass"
    elif kind == "bid":
        comp = game.companies[action["company"]]
        price = int(action["price"])
        # A bid box (1822) is bid into even at its lowest price: it can still be outbid.
        outright = price == comp.min_bid and not hasattr(game, "resolve_bid_boxes")
        text = f"buy {comp.sym}" if outright else f"bid {comp.sym} {price}"
    elif kind == "par":
        text = f"par {action['corporation']} {str(action['share_price']).split(',')[0]}"
    elif kind == "buy_shares":
        first = game.share_by_id(action["shares"][0])
        text = f"buy {first.corp}" + (" pool" if first.owner is game.pool else "")
        if len(action["shares"]) > 1:
            text += f" {len(action['shares'])}"
    elif kind == "sell_shares":
        text = f"sell {_share_corp(action['shares'][0])} {shares_sold(action)}"
    elif kind == "lay_tile":
        text = f"lay {action['hex']} {_tile_name(str(action['tile']))} {action['rotation']}"
    elif kind in ("place_token", "remove_token"):
        hex_id, node = _city_hex(game, action["city"])
        text = f"{'token' if kind == 'place_token' else 'remove'} {hex_id}"
        nodes = _city_nodes(game, hex_id)
        if len(nodes) > 1:
            text += f" {nodes.index(node) + 1}"
        if action.get("token_type") == "neutral":
            text += " neutral"
    elif kind == "run_routes":
        text = "run auto"
    elif kind == "dividend":
        text = {"payout": "pay", "half": "pay half"}.get(str(action["kind"]), "withhold")
    elif kind == "buy_train":
        train = game.all_trains[action["train"]]
        if action.get("variant") and getattr(train.owner, "sym", None) == action.get("entity"):
            text = f"train {action['variant']} upgrade"  # 1822: its own L train becomes a 2 train
        elif isinstance(train.owner, Corporation):
            text = f"train {train.name} from {train.owner.sym} {action['price']}"
        else:
            text = f"train {bought_name(game, action)}" + (" pool" if train.owner is game.pool else "")
            if action.get("exchange"):
                text += f" trade {_train_name(game, action['exchange'])}"
        if action.get("shell"):
            text += f" shell {action['shell']}"
    elif kind == "discard_train":
        text = f"discard {_train_name(game, action['train'])}"
    elif kind == "buy_company":
        text = f"buyprivate {action['company']} {action['price']}"
    elif kind == "bankrupt":
        text = "bankrupt confirm"
    elif kind == "choose" and action.get("choice") in ("keep", "withdraw"):
        text = f"bid {action['choice']}"
    elif kind == "choose" and merge_start(game, action):
        text = f"merge {action['choice']}"
    elif kind in ("choose", "choose_ability"):
        text = f"choose {choice_word(action)}"
    elif kind == "merge":
        text = f"merge {action['corporation']}"
    elif kind == "undo":  # the only undo the engine offers as a move: 1828's failed merger, taken back
        text = "merge undo"
    elif kind == "failed_merge":
        text = "merge failed"
    elif kind == "swap_train":
        options = query.choices(game, game.resolve_entity(action), "swap_train")
        text = f"swap {_swap_word(game, options, action)}"
    elif kind == "special_buy":
        text = "buy coal"
    elif kind == "acquire_company":
        text = f"buyprivate {action['company']}"
    elif kind == "hex_token":
        text = f"token {action['hex']} destination"
    elif kind == "redeem_shares":
        text = f"redeem {action['kind']}"
    elif kind == "payoff_player_debt":
        text = "repay"
    elif kind == "payoff_player_debt_partial":
        text = f"repay {action['amount']}"
    elif kind == "close_company":
        text = f"close {action['company']}"
    else:
        raise ValueError(f"no command for action type {kind!r}")
    return prefix + text


@dataclass(frozen=True, slots=True)
class Listed:
    """One legal move as ``moves`` lists it: the command (``PRICE`` where the player names the price) and the
    engine action it stands for."""

    entity: Any
    command: str
    action: Action


def listed_moves(game: Game, player: Player, *, runs: bool = False) -> list[Listed]:
    """Every legal action of the entities ``player`` decides for, each with the command that produces it.

    A run is listed as ``run auto`` without asking the autorouter for it (slow) unless ``runs`` is set.
    """
    out: list[Listed] = []
    for ent in entities_of(game, player):
        for kind in game.actions_for(ent):
            if kind == "run_routes" and not runs:
                out.append(Listed(ent, "run auto", query.entity_action(game, ent, kind)))
                continue
            for choice in query.choices(game, ent, kind, limit=100_000):
                try:
                    text = to_command(game, choice)
                except (KeyError, ValueError):
                    continue
                out.append(Listed(ent, _price_left_open(game, choice, text), choice))
    return out


def _price_left_open(game: Game, action: Action, text: str) -> str:
    """A private bought from a player, or a train from another company, has a price the players agree on."""
    kind = action["type"]
    if kind == "buy_company" or (
        kind == "buy_train" and " from " in text and not text.endswith(" upgrade")
    ):
        words = text.split()
        price = str(action.get("price"))
        return " ".join("PRICE" if w == price and i == len(words) - 1 else w for i, w in enumerate(words))
    return text


def move_verb(word: str) -> str | None:
    """The canonical move verb for a word (``remove`` only exists after a private's symbol)."""
    low = word.lower()
    if low == "remove":
        return "remove"
    verb = verb_named(low)
    return verb.name if verb is not None and verb.name in MOVE_VERBS else None


def split_move(command: Command) -> tuple[Command, str | None] | None:
    """A move and the private whose power it uses: ``nwr token C3`` is ``token C3`` by NWR.

    None if the command is not a move at all.
    """
    if command.verb in MOVE_VERBS:
        return command, None
    if command.args and move_verb(command.args[0]) is not None:
        sub = Command(move_verb(command.args[0]) or "", command.args[1:], command.text)
        return sub, command.verb
    return None
