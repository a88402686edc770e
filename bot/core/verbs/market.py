"""The market's moves: bids and purchases of privates, shares bought, sold and started at a par price."""

from __future__ import annotations

from typing import Any

from bot.core.move_spec import Action, Arg, Candidates, Intent, MoveSpec
from bot.core.reading import (
    buyable_outright,
    first,
    listing,
    match_corporation,
    match_private,
    need,
    sale_amount,
    share_corp,
    shares_sold,
    simple,
    to_int,
    verb_words,
)
from bot.core.refusals import illegal, malformed, suggest
from engine.core import query
from engine.core.entities import Company, Player
from engine.core.game import Game


def _bid(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    if args and args[0].lower() in ("keep", "withdraw"):  # an outbid player's choice (1862)
        return simple("choose", {"choice": args[0].lower()})(game, player, candidates, args)
    need(args, 2, "bid PRIVATE PRICE")
    ent = candidates[0][0]
    comp = match_private(game, args[0])
    price = to_int(args[1], "the bid")
    options = query.choices(game, ent, "bid")
    hit = [c for c in options if c["company"] == comp.sym]
    if not hit:
        open_ = [f"{c['company']} (from {game.format_money(c['price'])})" for c in options]
        raise illegal(
            f"{comp.sym} is not up for bids now; open: {listing(open_) or 'nothing you can afford'}"
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


def _buy(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    need(args, 1, "buy CORP [pool] | buy PRIVATE")
    word = args[0]
    kinds = [t for _, t in candidates]
    is_corp = any(sym.lower() == word.lower() for sym in game.corporations)
    is_private = any(sym.lower() == word.lower() for sym in game.companies)
    if "buy_shares" in kinds and is_corp:
        return _buy_shares(game, player, first(candidates, "buy_shares"), args)
    if "bid" in kinds and is_private:
        return _buy_auction(game, player, first(candidates, "bid"), args)
    if "buy_company" in kinds and is_private:
        return _buy_company(game, player, first(candidates, "buy_company"), args)
    if word.lower() == "train" and len(args) > 1:
        raise malformed(f"to buy a train: `train {args[1]}`")
    if is_corp or is_private:
        allowed = [t for ent in {e for e, _ in candidates} for t in game.actions_for(ent)]
        raise illegal(f"you cannot buy {word.upper()} now; you can: {verb_words(allowed)}")
    names: list[str] = []
    if "buy_shares" in kinds:
        names += list(game.corporations)
    if "bid" in kinds or "buy_company" in kinds:
        names += list(game.companies)
    kind = "company" if "buy_shares" in kinds else "private company"
    from bot.core.grammar import phrase_words  # the grammar gathers this module's moves: read it when called

    phrases = phrase_words(game.TITLE, "buy")  # 1828's `buy coal`
    hit = suggest(word, [*names, *phrases])
    if hit in phrases:
        raise malformed(f"no {kind} {word}, did you mean `buy {hit}`?")
    raise malformed(f"no {kind} {word}" + (f", did you mean {hit}?" if hit else ""))


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
    options = [c for c in query.choices(game, ent, "buy_shares") if share_corp(c["shares"][0]) == corp.sym]
    by_source: dict[str, Action] = {}
    for c in options:
        holder = game.share_by_id(c["shares"][0]).owner
        by_source.setdefault("pool" if holder is game.pool else "ipo", c)
    if not by_source:
        buyable = sorted({share_corp(c["shares"][0]) for c in query.choices(game, ent, "buy_shares")})
        raise illegal(f"you cannot buy {corp.sym} now; you can buy: {listing(buyable) or 'nothing'}")
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
        raise illegal(f"{game.describe(ent)} cannot {verb} {comp.sym} now; it can {verb}: {listing(names) or 'none'}")
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
    game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]
) -> Intent:
    need(args, 1, "buyprivate PRIVATE PRICE")
    acquire = first(candidates, "acquire_company")
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


def _sell(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    need(args, 1, "sell CORP [N]")
    ent = candidates[0][0]
    corp = match_corporation(game, args[0])
    amount = sale_amount(args[1]) if len(args) > 1 else "1"
    options = query.choices(game, ent, "sell_shares")
    mine = [c for c in options if share_corp(c["shares"][0]) == corp.sym]
    if not mine:
        sellable = sorted({share_corp(c["shares"][0]) for c in options})
        raise illegal(f"you cannot sell {corp.sym} now; you can sell: {listing(sellable) or 'nothing'}")
    # N counts ordinary shares' worth: a president's certificate may be sold in part.
    hit = next((c for c in mine if shares_sold(c) == amount), None)
    if hit is None:
        amounts = ", ".join(f"`sell {corp.sym} {n}`" for n in dict.fromkeys(shares_sold(c) for c in mine))
        raise illegal(f"you cannot sell {amount} {corp.sym} now; you can: {amounts}")
    return Intent(hit, ent, player)


def _par(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    need(args, 1, "par CORP PRICE")
    ent = candidates[0][0]
    options = query.choices(game, ent, "par")
    startable = sorted({c["corporation"] for c in options})
    corp = match_corporation(game, args[0])
    mine = [c for c in options if c["corporation"] == corp.sym]
    if not mine:
        raise illegal(f"you cannot start {corp.sym} now; you can start: {listing(startable) or 'none'}")
    prices = [int(str(c["share_price"]).split(",")[0]) for c in mine]
    prices_said = ", ".join(game.format_money(p) for p in sorted(set(prices)))
    if len(args) < 2:
        raise malformed(f"name a par price: `par {corp.sym} PRICE` ({prices_said})")
    price = to_int(args[1], "the par price")
    if price not in prices:
        raise illegal(
            f"{game.format_money(price)} is not a par price you can pay for {corp.sym}; par prices: {prices_said}"
        )
    return Intent(mine[prices.index(price)], ent, player)


def _outright(game: Game, action: Action) -> bool:
    """A bid at a private's price that buys it (``buy X``); a bid box (1822) is bid into even at its lowest
    price, as it can still be outbid."""
    comp = game.companies[action["company"]]
    return int(action["price"]) == comp.min_bid and comp not in game.bidbox_companies()


def _write_bid(game: Game, action: Action) -> str | None:
    if action["type"] == "choose":  # an outbid player keeps or withdraws the bid (1862)
        return f"bid {action['choice']}" if action.get("choice") in ("keep", "withdraw") else None
    if _outright(game, action):
        return None  # `buy X`
    return f"bid {game.companies[action['company']].sym} {int(action['price'])}"


#: How many raised bids beyond the minimum autocomplete offers, in steps of BID_STEP.
BID_RAISES = 6
BID_STEP = 5


def _bid_raises(game: Game, ent: Any, action: Action) -> list[str]:
    """Raised bids up to what the bidder may bid (a private sold at its price takes no bid)."""
    if action["type"] != "bid":
        return []
    comp = game.companies[action["company"]]
    if buyable_outright(game, ent, comp):
        return []
    span = query.price_range(game, ent, action)
    low = int(action["price"])
    high = span[1] if span else low
    return [f"bid {comp.sym} {low + BID_STEP * i}" for i in range(BID_RAISES + 1) if low + BID_STEP * i <= high]


def _write_buy(game: Game, action: Action) -> str | None:
    kind = action["type"]
    if kind == "bid":
        return f"buy {game.companies[action['company']].sym}" if _outright(game, action) else None
    first = game.share_by_id(action["shares"][0])
    text = f"buy {first.corp}" + (" pool" if first.owner is game.pool else "")
    return text + (f" {len(action['shares'])}" if len(action["shares"]) > 1 else "")


def _write_buyprivate(game: Game, action: Action) -> str:
    if action["type"] == "acquire_company":
        return f"buyprivate {action['company']}"
    return f"buyprivate {action['company']} {action['price']}"


def _private_prices(game: Game, ent: Any, action: Action) -> list[str]:
    """A private bought from a player: its face value and the ends of the range the rules allow."""
    span = query.price_range(game, ent, action)
    if action["type"] != "buy_company" or span is None:
        return []
    comp = game.companies[action["company"]]
    low, high = span
    prices = [p for p in dict.fromkeys((comp.value, low, high)) if low <= p <= high]
    return [f"{verb} {comp.sym} {p}" for verb in ("buyprivate", "buy") for p in prices]


def write_sale(game: Game, action: Action) -> str:
    return f"sell {share_corp(action['shares'][0])} {shares_sold(action)}"


def _write_par(game: Game, action: Action) -> str:
    return f"par {action['corporation']} {str(action['share_price']).split(',')[0]}"


MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        'bid',
        types=('bid', 'choose'),
        usage='bid PRIVATE PRICE | bid keep|withdraw',
        summary='bid on a private company in the auction',
        details='Outbid in 1862, keep your bid (it stays earmarked) or withdraw it.',
        examples=('bid TB 150', 'bid keep'),
        args=(
            Arg('private', 'private', 'the private company', required=True, completed=True),
            Arg('price', 'amount', 'your bid', kind="number", required=True, completed=True, after=('private',)),
        ),
        read=_bid,
        write=_write_bid,
        writes=('bid', 'choose'),
        variants=_bid_raises,
    ),
    MoveSpec(
        'buy',
        types=('buy_shares', 'bid', 'buy_company'),
        usage='buy CORP [pool|ipo] [N] | buy PRIVATE [PRICE]',
        summary=(
            'buy a share (from the IPO unless you say pool), the cheapest private in the auction, or '
            '(for your company) a private from a player'
        ),
        examples=('buy CPR', 'buy QLL pool', 'buy HB', 'buy NWR 100'),
        args=(
            Arg('what', 'company', "a company's share, or a private company", required=True, completed=True),
            Arg('source', 'word', 'where the share comes from (default: IPO)', choices=('ipo', 'pool')),
            Arg('count', 'count', 'how many shares', kind="number", min_value=1, max_value=10),
            Arg('price', 'amount', 'price, when your company buys a private', kind="number", min_value=1),
        ),
        read=_buy,
        write=_write_buy,
        writes=('buy_shares', 'bid'),
    ),
    MoveSpec(
        'buyprivate',
        types=('buy_company', 'acquire_company'),
        usage='buyprivate PRIVATE [PRICE]',
        summary='your company buys a private from a player',
        details=(
            'If another player owns it, they must approve. In 1822 a major acquires a private at the '
            'price the rules fix, so no price is typed (`buyprivate P3`).'
        ),
        examples=('buyprivate NWR 100', 'buyprivate P3'),
        args=(
            Arg('private', 'private', 'the private company', required=True, completed=True),
            Arg('price', 'amount', 'the price', kind="number", required=True, completed=True, after=('private',)),
        ),
        read=_buyprivate,
        write=_write_buyprivate,
        variants=_private_prices,
    ),
    MoveSpec(
        'sell',
        types=('sell_shares',),
        usage='sell CORP [N]',
        summary='sell N shares (default 1)',
        examples=('sell HBR 2',),
        args=(
            Arg('corporation', 'company', 'the company whose shares you sell', required=True, completed=True),
            Arg('count', 'count', 'how many shares (default 1)', kind="number", completed=True, after=('corporation',)),
        ),
        read=_sell,
        write=write_sale,
    ),
    MoveSpec(
        'par',
        types=('par',),
        usage='par CORP PRICE',
        summary='start a company at a par price',
        examples=('par CPR 100',),
        args=(
            Arg('corporation', 'company', 'the company to start', required=True, completed=True),
            Arg(
                'price',
                'amount',
                'the par price',
                kind="number",
                required=True,
                completed=True,
                after=('corporation',),
            ),
        ),
        read=_par,
        write=_write_par,
    ),
)
