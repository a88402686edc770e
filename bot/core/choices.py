"""One-click buttons and autocomplete values, both derived from the engine's legal choices.

Every button and every suggestion is cut from the one enumeration of legal moves,
:func:`bot.core.intents.listed_moves` (what ``moves`` lists): each of the engine's own legal actions
(``engine.core.query``) written by its move's declaration, with the other spellings the declaration reads, so
clicking a button or completing a suggestion gives a command the service accepts. Nothing here decides legality
on its own.

Route running is never enumerated: the engine's choice for it is the autorouter's best run, far too slow
for a button or a keystroke, and the only command for it is ``run auto`` anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot.core.commands import VERBS, verb_named, with_position
from bot.core.grammar import HEAD_TYPES
from bot.core.intents import listed_moves
from bot.core.prefs import available_zones
from bot.core.replies import Button
from engine import TITLES
from engine.core.entities import Player
from engine.core.game import Game

MAX_BUTTONS = 10
MAX_MERGE_BUTTONS = 3
MAX_SHARE_BUTTONS = 4  # "Buy 1 share of X" for at most this many companies
MAX_TRAIN_BUTTONS = 3
MAX_AUCTION_BUTTONS = 3

Words = tuple[str, ...]


def _kinds_for(verb: str | None) -> set[str] | None:
    return None if verb is None else set(HEAD_TYPES.get(verb, ()))


def command_words(game: Game, player: Player, *, kinds: Iterable[str] | None = None) -> list[Words]:
    """Every command ``player`` may send now, as word tuples, in the engine's order (acting entity first).

    ``kinds`` limits the action types enumerated (all when None). Privates' powers come prefixed with the
    private's symbol (``nwr lay C3 57 1``), as the command language spells them.
    """
    return [words for _, words in typed_commands(game, player, kinds=kinds)]


def typed_commands(
    game: Game, player: Player, *, kinds: Iterable[str] | None = None
) -> list[tuple[str, Words]]:
    """Like :func:`command_words`, each with the engine action type it stands for: every spelling of every
    move :func:`bot.core.intents.listed_moves` lists, the enumeration ``moves`` shows."""
    out: list[tuple[str, Words]] = []
    seen: set[Words] = set()
    for item in listed_moves(game, player, kinds=None if kinds is None else set(kinds)):
        for text in item.spellings:
            words = tuple(text.split())
            if words not in seen:
                seen.add(words)
                out.append((str(item.action["type"]), words))
    return out


def _canonical(word: str) -> str:
    verb = verb_named(word)
    return verb.name if verb is not None else word.lower()


def next_words(
    game: Game, player: Player, verb: str, args: Sequence[str], partial: str = "", limit: int = 25
) -> list[str]:
    """Values for the argument after ``args`` of ``verb`` that complete to a legal command, in order.

    For ``lay``: no args gives hexes, ``["E9"]`` the tiles that fit there, ``["E9", "57"]`` the rotations.
    ``verb`` may be a private's symbol (``nwr``): then the first argument is the move verb.
    """
    head = _canonical(verb)
    if head not in HEAD_TYPES and head.upper() not in {sym.upper() for sym in game.companies}:
        return []
    kinds = _kinds_for(head) if head in HEAD_TYPES else None
    return complete(command_words(game, player, kinds=kinds), verb, args, partial, limit)


def complete(commands: Sequence[Words], verb: str, args: Sequence[str], partial: str = "", limit: int = 25
             ) -> list[str]:
    """:func:`next_words` over the commands a seat may send (``commands``, from :func:`command_words`)."""
    head = _canonical(verb)
    company = None if head in HEAD_TYPES else head  # a private's power: ``nwr lay ...``
    typed = tuple(a.lower() for a in args)
    want = partial.lower()
    out: list[str] = []
    for words in commands:
        if company is not None:
            if words[0] != company:
                continue
            words = words[1:]
            if typed and words and _canonical(words[0]) == _canonical(typed[0]):
                words = (typed[0], *words[1:])
        elif words[0] != head:
            continue
        else:
            words = words[1:]
        if len(words) <= len(typed):
            continue
        if tuple(w.lower() for w in words[: len(typed)]) != typed:
            continue
        word = words[len(typed)]
        if word.lower().startswith(want) and word not in out:
            out.append(word)
            if len(out) >= limit:
                break
    return out


# ---------------------------------------------------------------------- buttons


def _label_train(game: Game, words: Words) -> str:
    name = words[1]
    price = next(
        (t.price for t in game.trains.available_depot_trains() if str(t.name) == name),
        None,
    )
    where = " (pool)" if "pool" in words else ""
    shell = f" for {words[words.index('shell') + 1]}" if "shell" in words[:-1] else ""
    cost = f" {game.format_money(price)}" if price is not None and not where else ""
    return f"Buy {name}-train{where}{shell}{cost}"


def move_buttons(game: Game, players: Sequence[Player], at: int) -> list[Button]:
    """The most useful one-click moves of the acting players now (at most MAX_BUTTONS), Pass last.

    ``at`` is the game's stored action count: each button's command carries it (``@N pass``), so a click
    counts only while the game is still at that step. Tile lays and tokens are left to typed commands and
    autocomplete: there are too many to click through.
    """
    kinds = ("pass", "dividend", "run_routes", "buy_train", "buy_shares", "bid", "discard_train", "choose",
             "special_buy", "swap_train", "merge")
    primary: list[Button] = []
    shares: dict[str, Button] = {}
    trains: list[Button] = []
    auction: list[Button] = []
    passes: list[Button] = []
    merges: list[Button] = []
    for player in players:
        for kind, words in typed_commands(game, player, kinds=kinds):
            command = " ".join(words)
            if kind == "dividend":
                paid = words[0] == "pay"
                primary.append(
                    Button("Pay" if paid else "Withhold", command, "success" if paid else "secondary")
                )
            elif kind == "run_routes" and not _prefixed(game, words):
                primary.append(Button("Run auto", command, "primary"))
            elif kind == "choose" and words[0] == "choose" and not _prefixed(game, words):
                # A decision the game waits for (an 1828 merger's trade-up, an 1822 acquisition's payment):
                # each option is one click.
                primary.append(Button(" ".join(words[1:]).replace("_", " ").capitalize(), command, "primary"))
            elif kind == "buy_train" and words[2:3] == ("upgrade",):
                primary.append(Button(f"Upgrade to a {words[1]}-train", command, "primary"))
            elif kind == "special_buy":
                primary.append(Button("Buy coal marker", command, "primary"))
            elif kind == "swap_train":
                primary.append(Button(f"Swap {words[1]} to the other shell", command, "secondary"))
            elif kind == "merge" and words[0] == "merge":
                target = game.corporations.get(words[1])
                minor = target is not None and target.kind.value == "minor"
                merges.append(Button(f"{'Take over' if minor else 'Merge with'} {words[1]}", command, "primary"))
            elif kind == "discard_train":
                primary.append(Button(f"Discard {words[1]}-train", command, "danger"))
            elif kind == "buy_train" and (len(words) <= 3 or words[2:3] == ("shell",)) and "trade" not in words \
                    and "from" not in words and "upgrade" not in words:
                if len(trains) < MAX_TRAIN_BUTTONS:
                    trains.append(Button(_label_train(game, words), command, "primary"))
            elif kind == "buy_shares" and len(words) <= 3:  # one share: "buy CPR" or "buy CPR pool"
                corp = words[1]
                if corp in shares and "pool" in words:
                    continue  # the IPO share is the usual buy
                if corp in shares or len(shares) < MAX_SHARE_BUTTONS:
                    where = " (pool)" if "pool" in words else ""
                    shares[corp] = Button(f"Buy 1 {corp}{where}", command, "primary")
            elif kind == "bid" and words[0] == "buy":  # an auctioned private at its price
                if len(auction) < MAX_AUCTION_BUTTONS:
                    price = game.companies[words[1]].min_bid
                    auction.append(Button(f"Buy {words[1]} {game.format_money(price)}", command, "primary"))
            elif kind == "pass" and not _prefixed(game, words):
                passes.append(Button("Pass", command, "secondary"))
    # A merger's partner is one click only when there are few to choose from (1822: the minors in reach).
    ordered = _dedupe([*primary, *(merges if len(merges) <= MAX_MERGE_BUTTONS else []), *trains, *shares.values(),
                       *auction])
    room = MAX_BUTTONS - min(len(passes), 1)
    return [replace(b, command=with_position(at, b.command)) for b in [*ordered[:room], *passes[:1]]]


def _prefixed(game: Game, words: Words) -> bool:
    """A private's power (``nwr pass``): not offered as a button, its name would be ambiguous."""
    return words[0].upper() in {sym.upper() for sym in game.companies}


def _dedupe(buttons: list[Button]) -> list[Button]:
    seen: set[str] = set()
    out = []
    for b in buttons:
        if b.command not in seen:
            seen.add(b.command)
            out.append(b)
    return out


def consent_buttons(consent_id: int) -> list[Button]:
    return [
        Button("Approve", f"approve {consent_id}", "success"),
        Button("Decline", f"decline {consent_id}", "danger"),
    ]


# ---------------------------------------------------------------------- non-game verbs


def fixed_words(choices: Sequence[str], partial: str, limit: int = 25) -> list[str]:
    """``choices`` that start with ``partial`` (case-insensitive), in order, at most ``limit``."""
    want = partial.lower()
    return [c for c in choices if c.lower().startswith(want)][:limit]


def setting_words(verb: str, args: Sequence[str]) -> list[str]:
    """Values for the next argument of a verb that is not a move (settings, help, new), most used first."""
    n = len(args)
    if verb == "notify":
        if n == 0:
            return ["channel", "dm", "both", "off", "test"]
        return ["here"] if n == 1 and args[0].lower() != "test" else []
    if verb == "remind":
        return ["24", "12", "8", "48", "off"] if n == 0 else (["here"] if n == 1 else [])
    if verb == "quiet":
        if n == 0:
            return ["off", "22:00-07:00", "23:00-08:00", "22:30-06:30", "21:00-09:00"]
        if n == 1 and args[0].lower() != "off":
            return ["UTC", *sorted(z for z in available_zones() if "/" in z)]
        return []
    if verb == "away":
        return ["on", "off"] if n == 0 else []
    if verb == "help":
        return [v.name for v in VERBS] if n == 0 else []
    if verb == "auto":
        if n == 0:
            return ["pass", "buy", "bid", "off"]
        return ["round", "auction", "always"] if n == 1 and args[0].lower() == "pass" else []
    if verb == "clock":
        return ["nudge"] if n == 0 else (["12", "24", "off"] if n == 1 and args[0].lower() == "nudge" else [])
    if verb == "fork":
        return ["at", "close"] if n == 0 else []
    if verb == "new":
        return list(TITLES) if n == 0 else []
    return []
