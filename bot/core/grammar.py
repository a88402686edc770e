"""The move verbs of the command language, declared once.

Each :class:`MoveSpec` says what a player types for one kind of move: its verb, the engine action types it
produces (tried in this order), its typed arguments with how each is completed, its help and where Discord
files it. The parser (:mod:`bot.core.intents`), ``moves``, the help (:mod:`bot.core.commands`), autocomplete
and buttons (:mod:`bot.core.choices`) and the Discord command schema (:mod:`bot.discord.subcommands`) all read
these declarations; a new move is one more entry here and its reading in ``intents._HANDLERS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

#: What an argument names, which says how it is completed: from the engine's legal choices (``completed``), from
#: fixed ``choices``, or typed freely.
ArgType = Literal["private", "company", "hex", "tile", "rotation", "city", "amount", "count", "train", "choice",
                  "routes", "word", "flag"]
SPECIAL = "special"  # the Discord group of moves only some titles have


@dataclass(frozen=True, slots=True)
class Arg:
    """One typed argument of a move, in the order it is written after the verb.

    ``kind`` is how it is typed (``text``, ``number``, or a ``flag`` word present or not); ``completed``: its
    values come from the engine's legal choices, given those of the arguments named in ``after``.
    ``render`` writes the value into the command line: a format string or a function.
    """

    name: str
    type: ArgType
    description: str
    kind: Literal["text", "number", "flag"] = "text"
    required: bool = False
    choices: tuple[str, ...] = ()
    completed: bool = False
    after: tuple[str, ...] = ()
    render: str | Callable[[object], str] = "{}"
    min_value: int | None = None
    max_value: int | None = None


@dataclass(frozen=True, slots=True)
class MoveSpec:
    """One move verb: what it produces, how it is typed and explained, and where Discord files it."""

    verb: str
    types: tuple[str, ...]  # engine action types, in the order tried
    usage: str
    summary: str
    details: str = ""
    examples: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    args: tuple[Arg, ...] = ()
    max_words: int | None = None  # the most words after the verb (None: any number)
    group: str | None = None  # Discord: None is directly under /18xx
    own_verb: bool = True  # False: said only after a private's symbol (``nwr remove G11``)


def _seller(value: object) -> str:
    text = str(value)
    if text.lower() in ("pool", "upgrade"):  # upgrade: the company's own train (1822's L to 2)
        return text.lower()
    return f"from {text}"


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
    ),
    MoveSpec(
        'buy',
        types=('buy_shares', 'bid', 'buy_company', 'special_buy'),
        usage='buy CORP [pool|ipo] [N] | buy PRIVATE [PRICE] | buy coal',
        summary=(
            'buy a share (from the IPO unless you say pool), the cheapest private in the auction, or '
            '(for your company) a private from a player'
        ),
        details=(
            'In 1828 `buy coal` buys your company a coal marker from the Virginia Coalfields (it must '
            'reach them).'
        ),
        examples=('buy CPR', 'buy QLL pool', 'buy HB', 'buy NWR 100', 'buy coal'),
        args=(
            Arg('what', 'company', "a company's share, or a private company", required=True, completed=True),
            Arg('source', 'word', 'where the share comes from (default: IPO)', choices=('ipo', 'pool')),
            Arg('count', 'count', 'how many shares', kind="number", min_value=1, max_value=10),
            Arg('price', 'amount', 'price, when your company buys a private', kind="number", min_value=1),
        ),
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
    ),
    MoveSpec(
        'pass',
        types=('pass',),
        usage='pass',
        summary='pass, or finish the current step of your turn',
        aliases=('done', 'skip'),
        max_words=0,
    ),
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
    ),
    MoveSpec(
        'withhold',
        types=('dividend',),
        usage='withhold',
        summary='keep the revenue in the treasury',
        max_words=0,
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
    ),
    MoveSpec(
        'redeem',
        types=('redeem_shares',),
        usage='redeem debt|treasury',
        summary='your company buys back half of every share (1862, from the green phase)',
        details=(
            'With debt it takes a debt certificate whose cash pays the shareholders, repaid at the end '
            'of the game; from the treasury only when it holds the whole payment.'
        ),
        examples=('redeem debt', 'redeem treasury'),
        max_words=1,
        group=SPECIAL,
    ),
    MoveSpec(
        'merge',
        types=('merge', 'choose', 'failed_merge'),
        usage='merge CORP',
        summary='merge two companies (1828: into a system) or take over a minor (1822)',
        details=(
            '1828, in a stock round: `merge PRR` starts a merger with your company PRR, then `merge MP` '
            'names the company it merges with; if another player presides over that one, they must '
            "approve. Every holder then chooses in turn (`choose`). 1822, in a major's turn: `merge 6` "
            'acquires minor 6 (its owner approves when it is another player), then `choose` how it is '
            'paid and what becomes of its station.'
        ),
        examples=('merge PRR', 'merge MP', 'merge 6'),
        max_words=1,
        group=SPECIAL,
        args=(
            Arg(
                'corporation',
                'company',
                'the company to merge with, or the minor to acquire',
                required=True,
                completed=True,
            ),
        ),
    ),
    MoveSpec(
        'choose',
        types=('choose', 'choose_ability'),
        usage='choose OPTION',
        summary='make the decision the game asks of you; `moves` lists the options',
        details=(
            '1828 mergers: which odd share to keep (`choose PRR`), trade up or sell a single share '
            '(`choose exchange` / `choose sell`), whose share to trade with. 1822: how an acquired minor '
            'is paid (`choose money`, `choose one_share`, `choose two_shares`) and its station (`choose '
            "replace` / `choose exchange`), a private's choice (`p8 choose token`)."
        ),
        examples=('choose exchange', 'choose sell', 'choose two_shares'),
        args=(
            Arg('option', 'choice', 'what you decide; the options are offered', required=True, completed=True),
        ),
    ),
    MoveSpec(
        'swap',
        types=('swap_train',),
        usage='swap TRAIN',
        summary='an 1828 system moves a train to its other shell',
        details="Each of a system's two shells runs its own trains, within the train limit per shell.",
        examples=('swap 6', 'swap 3+D'),
        max_words=1,
        group=SPECIAL,
        args=(
            Arg('train', 'train', 'the train that moves to the other shell', required=True, completed=True),
        ),
    ),
    MoveSpec(
        'repay',
        types=('payoff_player_debt', 'payoff_player_debt_partial'),
        usage='repay [AMOUNT]',
        summary='repay your loan (1822, in a stock round): all you can, or AMOUNT of it',
        details=(
            'A director who borrowed for a train owes the loan, grown by half every stock round, before '
            'buying shares again.'
        ),
        examples=('repay', 'repay 50'),
        max_words=1,
        group=SPECIAL,
        args=(
            Arg('amount', 'amount', 'how much (default: all you can)', kind="number", min_value=1),
        ),
    ),
    MoveSpec(
        'remove',
        types=('remove_token',),
        usage='PRIVATE remove HEX [CITY]',
        summary="a private's power removes a station (1882's NWR)",
        examples=('nwr remove G11',),
        own_verb=False,
    ),
    MoveSpec(
        'close',
        types=('close_company',),
        usage='close PRIVATE',
        summary='close one of your privates (1862; closing B&O lifts its marker)',
        examples=('close B&O',),
        max_words=1,
        group=SPECIAL,
    ),
)


MOVE_BY_VERB: dict[str, MoveSpec] = {m.verb: m for m in MOVES}


def type_words() -> dict[str, str]:
    """How to say each engine action type as a command (``dividend``: ``pay/withhold``), for refusals: the verbs
    that try it first, else every verb that produces it."""
    out: dict[str, str] = {}
    for kind in dict.fromkeys(k for m in MOVES for k in m.types):
        first = [m.verb for m in MOVES if m.types[0] == kind]
        out[kind] = "/".join(first or [m.verb for m in MOVES if kind in m.types])
    return out
