"""The command language shared by every adapter: a verb and its objects, e.g. ``lay E9 57 2``.

This module only reads text: it splits a line into a verb and arguments, knows every verb with its help,
and suggests the nearest name for a near miss. Turning a move into an engine action needs the game and is
done in :mod:`bot.core.intents`.

>>> parse("Buy  CPR pool")
Command(verb='buy', args=('CPR', 'pool'), text='Buy  CPR pool')
>>> suggest("CRP", ["CPR", "CNR", "GT"])
'CPR'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core.grammar import MOVES
from bot.core.refusals import CommandError as CommandError
from bot.core.refusals import did_you_mean as did_you_mean
from bot.core.refusals import illegal as illegal
from bot.core.refusals import malformed as malformed
from bot.core.refusals import suggest

PREFIX = "/18xx"


@dataclass(frozen=True, slots=True)
class Verb:
    name: str
    group: str  # "game", "info", "undo", "move", "auto", "prefs"
    usage: str
    summary: str
    details: str = ""
    examples: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


VERBS: tuple[Verb, ...] = (
    # -- setting up
    Verb(
        "new",
        "game",
        "new TITLE [seed=N] [players=N] [OPTION ...]",
        "create a game in this channel and take the first seat",
        "One channel or thread holds one game. seed= fixes the random draws; players= caps the seats; "
        "other words are the title's optional rules, by name (`help TITLE` lists them): 1822+ is "
        "`new 1822 plus_expansion`, or `new 1822+`.",
        ("new 1882", "new 1882 seed=42 players=4", "new 1822 plus_expansion"),
        ("create",),
    ),
    Verb(
        "join",
        "game",
        "join [PLAYER]",
        "take a seat in the game that has not started yet",
        "For an imported game, name the player whose seat you take (default: the next free one).",
        ("join", "join Alice"),
        ("sit",),
    ),
    Verb("leave", "game", "leave", "give up your seat before the game starts"),
    Verb(
        "start",
        "game",
        "start [shuffle]",
        "start the game (creator only)",
        "Seat order is join order unless you say shuffle.",
        ("start", "start shuffle"),
    ),
    Verb(
        "abandon",
        "game",
        "abandon",
        "end the game without a result",
        "Before the start the creator may abandon at once; afterwards every other player must approve, unless "
        "nobody has moved for a long time (then any player may) or a moderator sends it.",
    ),
    Verb(
        "replace",
        "game",
        "replace @OLD @NEW",
        "hand a seat to another user",
        "Right away when the leaving player or a moderator sends it; from another player, once the game has "
        "started, it needs the approval of the other players (with nobody else left to vote, only a moderator "
        "can). A seat's votes on open requests pass to its new holder. The game's history records it.",
        ("replace @alice @carol",),
        ("substitute",),
    ),
    Verb(
        "kick",
        "game",
        "kick @USER",
        "moderators: remove a user's seat before the game starts",
        "In a started game a seat is handed on with `replace` instead.",
    ),
    Verb(
        "import",
        "game",
        "import (attach an 18xx.games JSON)",
        "continue an 18xx.games game here",
        "Players then join as the imported players and start.",
        ("import game.json",),
    ),
    Verb("export", "game", "export", "the game as 18xx.games JSON (it replays with python -m engine.replay)"),
    Verb(
        "fork",
        "game",
        "fork [#GAME] [at ACTION] | fork close",
        "a private practice copy of the game, now or at an earlier action, where you play every seat",
        "The copy opens in a channel of its own (a private thread on Discord); it never touches the real game "
        "and pings nobody. `fork close` there deletes it; it closes by itself after a week. `export` works "
        "in it.",
        ("fork", "fork at 40", "fork #12 at 40", "fork close"),
        aliases=("sandbox", "whatif"),
    ),
    # -- looking
    Verb("status", "info", "status", "round, phase, players, companies and trains", aliases=("st",)),
    Verb(
        "companies",
        "info",
        "companies",
        "every private (value, revenue, what it does, owner or high bid) and every company's card",
        "Public companies show price, president, cash, trains, stations placed and left with the next "
        "one's price, and IPO and pool shares. `help PRIVATE` (e.g. `help NWR`) explains one private.",
        aliases=("privates", "corps", "corporations"),
    ),
    Verb("who", "info", "who", "who must act now, and who sits where", aliases=("whosup", "turn")),
    Verb(
        "moves",
        "info",
        "moves [HEX|COMPANY|all]",
        "the commands you may send now, grouped",
        "Par prices come one line per company and tile lays one line per hex with each tile's rotations and "
        "cost. `moves HEX` lists and draws every tile that fits on that hex, `moves CPR` keeps the moves "
        "about one company, `moves all` shows every choice uncut.",
        ("moves", "moves E9", "moves CPR", "moves all"),
        aliases=("options", "legal"),
    ),
    Verb(
        "history",
        "info",
        "history [#GAME] [PAGE]",
        "the game log, newest page first (lines oldest to newest within a page)",
        "`history #12` reads game 12, finished or not, if you played in it.",
        examples=("history", "history 2", "history #12"),
        aliases=("log",),
    ),
    Verb(
        "games",
        "info",
        "games [--open|--finished]",
        "your games in every channel, and where it is your turn",
        "`games --open` lists the games here that wait for players (the lobby); `games --finished` your "
        "finished games with their results.",
        ("games", "games --open", "games --finished"),
        aliases=("mygames",),
    ),
    Verb(
        "nudge",
        "info",
        "nudge",
        "remind whoever must act that the table is waiting (at most once an hour per game)",
        "Any seated player may nudge; the acting players are pinged where their notification settings say.",
        aliases=("poke",),
    ),
    Verb(
        "stats",
        "info",
        "stats",
        "players here: finished games, wins, average place and average time to move",
    ),
    Verb(
        "map",
        "info",
        "map [HEX|COMPANY]",
        "a picture of the map, or a close-up of a hex or of a company's stations",
        "`map` draws the whole board; `map G11` the hexes round G11 and `map CPR` those round CPR's stations, "
        "at a size that reads on a phone.",
        ("map", "map G11", "map CPR"),
    ),
    Verb(
        "chart",
        "info",
        "chart [value|prices|revenue] [#GAME]",
        "charts of the game: each player's worth, share prices, each company's revenue per operating round",
        "`chart` draws all three; `chart value` each player's net worth after every round, `chart prices` "
        "every company's share price, `chart revenue` each company's revenue per operating round with withheld "
        "and half payouts hatched. `chart #12` charts game 12, finished or not, if you played in it.",
        ("chart", "chart prices", "chart revenue #12"),
        aliases=("charts", "graph"),
    ),
    Verb(
        "summary",
        "info",
        "summary [#GAME]",
        "the end-of-game summary: winner, each player's worth in parts, the best run and other numbers",
        "Sent by itself when a game ends; `summary #12` shows it again for game 12 if you played in it.",
        ("summary", "summary #12"),
    ),
    Verb("market", "info", "market", "a picture of the stock market"),
    Verb(
        "clock",
        "info",
        "clock | clock nudge HOURS|off",
        "the pace clock: the waking time the game waited on each player",
        "Quiet hours (`quiet`) and time away (`away`) do not count, so the clock is fair across time zones. "
        "`clock nudge 12` pings a player whose turn passes 12 hours of their waking time.",
        ("clock", "clock nudge 12", "clock nudge off"),
        aliases=("pace",),
    ),
    Verb("help", "info", "help [VERB]", "this list, or the details of one verb", examples=("help lay",)),
    # -- notifications (per user; ``here`` limits notify/remind to this channel's game)
    Verb(
        "notify",
        "prefs",
        "notify channel|dm|both|off [here] | notify test",
        "where your turn pings go (default: channel)",
        "channel: a mention in the game's channel; dm: a direct message; both; off: no turn pings or "
        "reminders (requests to approve and the game's end still reach you in the channel). `here` sets it "
        "for this channel's game only. `notify test` sends you a test ping.",
        ("notify dm", "notify both here", "notify test"),
    ),
    Verb(
        "remind",
        "prefs",
        "remind HOURS|off [here]",
        "remind you of your turn after HOURS (default 24), then more often",
        "Each reminder comes after half the previous wait, never closer than 2 hours apart and at most 5 "
        "per turn.",
        ("remind 12", "remind off"),
    ),
    Verb(
        "quiet",
        "prefs",
        "quiet HH:MM-HH:MM [TIME ZONE] | quiet off",
        "no pings during these hours (they wait until the end)",
        "The time zone is an IANA name such as Europe/Berlin or America/Winnipeg (default UTC).",
        ("quiet 22:30-07:00 Europe/Berlin", "quiet off"),
    ),
    Verb(
        "away",
        "prefs",
        "away on|off",
        "away: no turn pings or reminders; others see (away)",
        examples=("away on", "away off"),
        aliases=("vacation",),
    ),
    Verb("prefs", "prefs", "prefs", "your notification settings", aliases=("settings",)),
    # -- programmed moves
    Verb(
        "auto",
        "auto",
        "auto pass [auction|round|always] | auto buy CORP PERCENT% | auto bid PRIVATE CEILING | auto off | auto",
        "let the bot make your moves: pass, buy shares up to a holding, bid up to a ceiling",
        "Everyone sees them (`auto`, the status card). Each programmed move is stored like your own, with a "
        "line saying it was programmed, and no ping is sent for a turn it took. They switch themselves off, "
        "with a message to you, when another player sells, pars or buys into the company, a price or the "
        "phase moves past what was set, the round ends (for `round` and `auction` passes) or a forced step "
        "comes up.",
        ("auto pass round", "auto buy CPR 60%", "auto bid TB 200", "auto off", "auto"),
        aliases=("autopass",),
    ),
    # -- taking back
    Verb(
        "undo",
        "undo",
        "undo",
        "take back your last action",
        "Free until someone else has acted; after that, the players whose actions it removes must approve.",
    ),
    Verb("redo", "undo", "redo", "restore what the last undo removed (by whoever undid it)"),
    Verb(
        "approve",
        "undo",
        "approve N",
        "agree to request N (an undo, a deal, abandoning)",
        examples=("approve 3",),
        aliases=("yes", "accept"),
    ),
    Verb("decline", "undo", "decline N", "refuse request N", examples=("decline 3",), aliases=("no", "deny")),
    # -- moves: declared in bot.core.grammar
    *(
        Verb(m.verb, "move", m.usage, m.summary, m.details, m.examples, m.aliases)
        for m in MOVES
        if m.own_verb
    ),
)

ABILITY_HELP = (
    "Private companies with powers act through their symbol, e.g. for 1882's North West Rebellion: "
    "`nwr remove G11`, `nwr token C3`, `nwr lay C3 57 1`, `nwr pass`; for 1862's Erie tile: `erie lay E28 ERIE 0`; "
    "for an 1822 private's choice: `p18 choose exchange`; 1822's P5 station in the English Channel: "
    "`p5 token P43` (or, when it is full, `p5 lay P43 X9 0` then `p5 token P43`); "
    "for 1828's Delaware & Hudson: `d&h lay F20 57 0`, then "
    "`d&h token F20` or `d&h pass`; for 1830's: `dh lay F16 57 1`, then `dh token F16` or `dh pass`, its "
    "Champlain & St.Lawrence: `cs lay B20 4 2`, its Mohawk & Hudson: `mh buy NYC`."
)

#: Discord's subcommand groups; typed before a verb elsewhere, they are skipped.
GROUP_WORDS = frozenset({"info", "game", "prefs", "special"})

_BY_NAME: dict[str, Verb] = {}
for _verb in VERBS:
    for _name in (_verb.name, *_verb.aliases):
        _BY_NAME[_name] = _verb


def verb_named(word: str) -> Verb | None:
    return _BY_NAME.get(word.lower())


def all_verb_names() -> list[str]:
    return list(_BY_NAME)


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed command line: ``verb`` is the canonical verb name (or the unknown word, lower-cased)."""

    verb: str
    args: tuple[str, ...]
    text: str

    @property
    def known(self) -> bool:
        return self.verb in _BY_NAME


def strip_prefix(text: str, prefix: str = PREFIX) -> str | None:
    """The command after the bot's prefix, or None if the line is not addressed to the bot."""
    stripped = text.strip()
    if stripped.lower() == prefix:
        return ""
    if stripped.lower().startswith(prefix + " "):
        return stripped[len(prefix) + 1 :].strip()
    return None


_POSITION = re.compile(r"\s*@(?P<at>[0-9]{1,12})(?:\s+|$)")


def split_position(text: str) -> tuple[int | None, str]:
    """A leading ``@N`` (the game's action count when the button was made) and the command after it.

    >>> split_position("@52 train 2")
    (52, 'train 2')
    >>> split_position("train 2")
    (None, 'train 2')
    """
    match = _POSITION.match(text)
    if match is None:
        return None, text
    return int(match["at"]), text[match.end() :]


def with_position(at: int, command: str) -> str:
    """``command`` as a button sends it: only valid while the game has exactly ``at`` actions."""
    return f"@{at} {command}"


def tokenize(text: str) -> list[str]:
    """The words of a line; a colon ending a word is dropped (``lay F31: X4`` as copied from ``moves``)."""
    return [tok.rstrip(":") for tok in text.replace(",", " ").split() if tok.rstrip(":")]


def parse(text: str) -> Command:
    """Split a command into its canonical verb and arguments. An empty line means ``help``."""
    tokens = tokenize(text)
    if not tokens:
        return Command("help", (), text)
    if len(tokens) > 1 and tokens[0].lower() in GROUP_WORDS and tokens[1].lower() in _BY_NAME:
        tokens = tokens[1:]  # "info status" as Discord groups it is "status" everywhere
    word = tokens[0].lower()
    verb = _BY_NAME.get(word)
    return Command(verb.name if verb else word, tuple(tokens[1:]), text)


def unknown_verb(word: str) -> CommandError:
    hit = suggest(word, [v.name for v in VERBS] + [a for v in VERBS for a in v.aliases])
    hint = f" Did you mean `{hit}`?" if hit else ""
    return malformed(f"I don't know the command `{word}`.{hint} Send `help` for the list.")


def _title_help(topic: str) -> str:
    """`help TITLE`: the title, its player range and what it says about its edition; "" for no title."""
    from engine.core.errors import GameError
    from engine.titles import title_class

    try:
        cls = title_class(topic)
    except GameError:
        return ""
    data = cls.data()["game"]
    text = (f"{cls.TITLE}: {data.get('min_players')} to {data.get('max_players')} players. "
            f"Start one with `new {cls.TITLE}`.")
    from bot.core.game_names import optional_rules_text

    text += " " + optional_rules_text(cls)
    label = cls.edition_label()
    return text + (f"\n{label}" if label else "")


def help_text(topic: str | None = None) -> str:
    """General help, or the help of one verb (near misses get a suggestion)."""
    if topic:
        verb = verb_named(topic)
        if verb is None:
            about = _title_help(topic)
            if about:
                return about
            raise unknown_verb(topic)
        lines = [f"{verb.usage}: {verb.summary}"]
        if verb.details:
            lines.append(verb.details)
        if verb.examples:
            lines.append("Examples: " + "; ".join(f"`{e}`" for e in verb.examples))
        if verb.aliases:
            lines.append("Also: " + ", ".join(verb.aliases))
        for move in MOVES:  # the titles' phrases that start with this verb (1828's `buy coal`)
            if move.is_phrase and move.head == verb.name:
                where = f" ({', '.join(move.titles)})" if move.titles else ""
                lines.append(f"`{move.usage}`{where}: {move.summary}. {move.details}".rstrip())
        return "\n".join(lines)
    groups = (
        ("Setting up", "game"),
        ("Looking", "info"),
        ("Moves (when it is your turn)", "move"),
        ("Programmed moves", "auto"),
        ("Taking back", "undo"),
        ("Notifications", "prefs"),
    )
    lines = [f"Commands start with {PREFIX}; names are not case-sensitive."]
    for title, group in groups:
        lines.append(f"{title}:")
        lines.extend(f"  {v.usage} - {v.summary}" for v in VERBS if v.group == group)
    lines.append(ABILITY_HELP)
    lines.append("`help VERB` explains one command.")
    return "\n".join(lines)
