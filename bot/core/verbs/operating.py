"""A company's turn: routes run, revenue paid or withheld, trains bought and discarded, bankruptcy; and pass."""

from __future__ import annotations

import pickle
from typing import Any

from bot.core.move_spec import Action, Arg, Candidates, Intent, MoveSpec
from bot.core.reading import (
    CONFIRM_WORDS,
    bought_name,
    engine_reason,
    entities_of,
    listing,
    match_corporation,
    match_hex,
    need,
    simple,
    to_int,
    train_name,
)
from bot.core.refusals import CommandError, illegal, malformed
from bot.core.replies import Outcome
from bot.core.routes_text import typed_connections
from bot.core.verbs.market import write_sale
from engine.core import query
from engine.core.entities import Corporation, Player
from engine.core.game import Game


def _run(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
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
    return simple("dividend", {"kind": kind})


def _train(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    need(args, 1, "train NAME")
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
        fits = [c for c in fits if c.get("exchange") and train_name(game, c["exchange"]).lower() == trade]
    in_pool = [c for c in fits if game.all_trains[c["train"]].owner is game.pool]
    depot = [c for c in fits if game.all_trains[c["train"]].owner is None]
    pick = in_pool if pool else depot or in_pool
    if pick and any(c.get("shell") for c in pick):
        pick = _for_shell(game, ent, pick, shell, " ".join(("train", *args)))
    if not pick:
        new_train = next((t for t in game.trains.available_depot_trains() if str(t.name).lower() == name.lower()),
                         None)
        why = ""
        if new_train is not None and not pool:
            tried = {**query.entity_action(game, ent, "buy_train"), "train": new_train.id, "price": new_train.price}
            # An 1828 system names a shell, so that the reason is the purchase's, not the missing shell's: the
            # one named, or the one with fewest trains (the likeliest to have room).
            groups = sorted(game.train_groups(ent), key=lambda group: len(group[1]))
            if shell or groups:
                tried["shell"] = shell or groups[0][0]
            why = engine_reason(game, tried)
        if why and new_train is not None and "by selling" in why:
            # The train is owed and its president must sell first (1828 §9.5): say so, with the sales open.
            sales = [write_sale(game, c) for e in entities_of(game, player)
                     for c in query.choices(game, e, "sell_shares")]
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
            f"it can buy: {listing(offers) or 'none'}"
        )
    return Intent(pick[0], ent, player)


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
                      f"{listing(offers) or 'none'}")
    return Intent(hit, ent, player)


def _room_for_train(game: Game, corp: Any) -> bool:
    return bool(corp.trains_in_limit() < game.train_limit(corp))


def _discard(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    need(args, 1, "discard NAME")
    ent = candidates[0][0]
    options = query.choices(game, ent, "discard_train")
    hit = next((c for c in options if train_name(game, c["train"]).lower() == args[0].lower()), None)
    if hit is None:
        have = sorted({train_name(game, c["train"]) for c in options})
        raise illegal(f"{ent.sym} has no {args[0]} train to discard (it has: {', '.join(have)})")
    return Intent(hit, ent, player)


def _bankrupt(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
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


def _seller(value: object) -> str:
    text = str(value)
    if text.lower() in ("pool", "upgrade"):  # upgrade: the company's own train (1822's L to 2)
        return text.lower()
    return f"from {text}"


def _pay(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    kind = "half" if args and args[0].lower() == "half" else "payout"
    return simple("dividend", {"kind": kind})(game, player, candidates, args)


def _withhold(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    return simple("dividend", {"kind": "withhold"})(game, player, candidates, args)


def _write_pay(game: Game, action: Action) -> str | None:
    return {"payout": "pay", "half": "pay half"}.get(str(action["kind"]))


def _write_withhold(game: Game, action: Action) -> str | None:
    return "withhold" if action["kind"] == "withhold" else None


def _write_train(game: Game, action: Action) -> str:
    train = game.all_trains[action["train"]]
    if action.get("variant") and getattr(train.owner, "sym", None) == action.get("entity"):
        text = f"train {action['variant']} upgrade"  # 1822: its own L train becomes a 2 train
    elif isinstance(train.owner, Corporation):
        text = f"train {train.name} from {train.owner.sym} {action['price']}"
    else:
        text = f"train {bought_name(game, action)}" + (" pool" if train.owner is game.pool else "")
        if action.get("exchange"):
            text += f" trade {train_name(game, action['exchange'])}"
    if action.get("shell"):
        text += f" shell {action['shell']}"
    return text


def _write_discard(game: Game, action: Action) -> str:
    return f"discard {train_name(game, action['train'])}"


MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        'pass',
        types=('pass',),
        usage='pass',
        summary='pass, or finish the current step of your turn',
        aliases=('done', 'skip'),
        max_words=0,
        read=simple("pass"),
        write=lambda game, action: "pass",
    ),
    MoveSpec(
        'run',
        types=('run_routes',),
        usage='run [auto] | run TRAIN STOP-STOP-... [TRAIN STOP-STOP-...]',
        summary='run trains on the best routes (auto), or on routes you name by their stops',
        details=(
            'Write each route as 18xx.games does, stop to stop (I1-I5-J8-G11); where two stops are '
            'joined by more than one track, type the hexes between them too (hex-by-hex paths work). The '
            'engine checks hand-typed routes (connected, a station of yours, no track shared between '
            "trains) and prices them. After a run the reply gives each train's stops and values in this "
            'typed form, to copy and edit.'
        ),
        examples=('run auto', 'run 3 I1-I5-J8 2 E5-D4', 'run 2 G11-F12-E11'),
        aliases=('routes',),
        args=(
            Arg('routes', 'routes', 'auto (the best routes), or per train: TRAIN STOP-STOP-... (e.g. 2 I1-I5-J8)'),
        ),
        read=_run,
        write=lambda game, action: "run auto",
    ),
    MoveSpec(
        'pay',
        types=('dividend',),
        usage='pay [half]',
        summary='pay the revenue out as dividends (`pay half`: half of it, 1822)',
        examples=('pay', 'pay half'),
        aliases=('payout',),
        max_words=1,
        args=(
            Arg('half', 'flag', 'pay out half the revenue (1822)', kind="flag", render='half'),
        ),
        read=_pay,
        write=_write_pay,
    ),
    MoveSpec(
        'withhold',
        types=('dividend',),
        usage='withhold',
        summary='keep the revenue in the treasury',
        max_words=0,
        read=_withhold,
        write=_write_withhold,
    ),
    MoveSpec(
        'train',
        types=('buy_train',),
        usage='train NAME [pool] [trade OLD] [shell CORP] | train NAME from CORP PRICE | train NAME upgrade',
        summary='buy a train',
        details=(
            "From another company needs its president's approval unless it is yours. An 1828 system says "
            'which of its two shells gets the train (`train 6 shell PRR`). `train 2 upgrade` turns the '
            "company's own L train into a 2 train (1822)."
        ),
        examples=('train 3', 'train D trade 4', 'train 4 from HBR 200', 'train 6 shell PRR', 'train 2 upgrade'),
        args=(
            Arg('train', 'train', 'the train to buy', required=True, completed=True),
            Arg(
                'seller',
                'company',
                'pool, upgrade (your own train), or the company selling it (default: the depot)',
                completed=True,
                after=('train',),
                render=_seller,
            ),
            Arg('price', 'amount', 'the price, when buying from a company', kind="number", min_value=1),
            Arg('trade', 'train', 'the train you trade in', completed=True, after=('train',), render='trade {}'),
            Arg(
                'shell',
                'company',
                '1828 systems: the shell that gets the train',
                completed=True,
                after=('train',),
                render='shell {}',
            ),
        ),
        read=_train,
        write=_write_train,
    ),
    MoveSpec(
        'discard',
        types=('discard_train',),
        usage='discard NAME',
        summary='discard a train over the limit',
        examples=('discard 2',),
        max_words=1,
        args=(
            Arg('train', 'train', 'the train to discard', required=True, completed=True),
        ),
        read=_discard,
        write=_write_discard,
    ),
    MoveSpec(
        'bankrupt',
        types=('bankrupt',),
        usage='bankrupt [confirm]',
        summary='declare bankruptcy (when even selling cannot pay for a train)',
        details=(
            'Offered only while a train is owed and nothing else can pay for it. `bankrupt` alone asks '
            'first; `bankrupt confirm` does it.'
        ),
        examples=('bankrupt confirm',),
        max_words=1,
        args=(
            Arg(
                'confirm',
                'flag',
                'true: you are sure (without it you are asked first)',
                kind="flag",
                render='confirm',
            ),
        ),
        read=_bankrupt,
        write=lambda game, action: "bankrupt confirm",
    ),
)
