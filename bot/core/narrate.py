"""A move's reply, rendered from the events the engine returned (``engine.core.events``), in the order things
happened, with the names players know.

Each line carries a rank (the ``RANK`` of the events it tells): when a reply must be cut, the lowest ranks go
first, so revenue lines go before the auction results a player must not miss.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.core import events as ev

# The rank of a log line no event lifts; a line of what caused an event of a higher rank takes that rank.
_LOG_RANK = ev.Logged.RANK


@dataclass(frozen=True, slots=True)
class Line:
    text: str
    rank: int


@dataclass(frozen=True)
class Names:
    """How a game's parties are called in chat: players by their seat names, private companies by theirs."""

    money: Callable[[int], str]
    players: Mapping[int, str] = field(default_factory=dict)  # player id -> the name the table knows
    engine_names: Mapping[int, str] = field(default_factory=dict)  # player id -> the engine's name ("Player 3")
    privates: Mapping[str, str] = field(default_factory=dict)  # private sym -> its name

    def party(self, who: ev.Party) -> str:
        if who.kind is ev.PartyKind.PLAYER:
            pid = int(who.key)
            return self.players.get(pid) or self.engine_names.get(pid) or who.key
        return {
            ev.PartyKind.BANK: "the bank",
            ev.PartyKind.POOL: "the market",
            ev.PartyKind.DEPOT: "the depot",
            ev.PartyKind.NOBODY: "nobody",
            ev.PartyKind.TREASURY: f"{who.key}'s treasury",
        }.get(who.kind, who.key)

    def text(self, line: str) -> str:
        """A log line with the engine's player names replaced by the table's (an imported game's "Player 3")."""
        for pid, engine_name in self.engine_names.items():
            known = self.players.get(pid)
            if known and known != engine_name:
                line = re.sub(rf"(?<![\w]){re.escape(engine_name)}(?![\w])", known, line)
        return line


# What a plain pass in a step means, in words.
_PASSES = {
    "Lay track": "skips laying track",
    "Place a token": "places no station",
    "Buy trains": "buys no train",
    "Run routes": "runs no train",
    "Buy private companies": "buys no private",
    "Acquire private companies": "acquires no private",
    "Issue or redeem shares": "issues and redeems no shares",
    "Buy a coal marker": "buys no coal marker",
}


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _trains(names: Sequence[str]) -> str:
    counted: dict[str, int] = {}
    for name in names:
        counted[name] = counted.get(name, 0) + 1
    return _and([f"{'a' if n == 1 else n} {name}-train{'s' if n > 1 else ''}" for name, n in counted.items()])


def dividend_line(event: ev.DividendPaid, names: Names) -> str | None:
    money = names.money
    paid = [p for p in event.parts if p.amount]
    incomes = ", ".join(f"{names.party(p.holder)} {money(p.amount)}" for p in paid)
    if event.kind is ev.DividendKind.WITHHELD:
        return f"{event.corp} keeps {money(event.revenue)} in its treasury; no dividend" if event.revenue else None
    whole = event.share_percent >= 50  # a minor: one certificate
    if whole:
        holders = ", ".join(f"{names.party(p.holder)} {money(p.amount)}" for p in paid) or "nobody"
        kept = f", keeps {money(event.kept)}" if event.kept else ""
        return f"{event.corp} pays {holders}{kept}"
    share = f"{event.share_percent}% share"
    if event.kind is ev.DividendKind.HALF:
        line = (f"{event.corp} pays half: {money(event.revenue - event.kept)} to its holders "
                f"({money(event.per_share)} per {share}), keeps {money(event.kept)}")
    else:
        line = f"{event.corp} pays {money(event.per_share)} per {share}"
        if event.kept:
            line += f", keeps {money(event.kept)}"
    return line + (": " + incomes if incomes else "")


def _route_lines(runs: Sequence[ev.RouteRun], names: Names) -> list[str]:
    money = names.money
    lines = [f"{runs[0].corp}'s run:"]
    words = []
    for run in runs:
        stops = "-".join(s.hex for s in run.stops)
        values = ", ".join(f"{s.hex} {money(s.value)}" for s in run.stops)
        lines.append(f"  {run.train}-train: {stops} = {money(run.revenue)}" + (f" ({values})" if values else ""))
        words += [run.train, stops]
    lines.append(f"  as typed: `run {' '.join(words)}`")
    return lines


def _rust_line(moves: Sequence[ev.TrainMoved], names: Names) -> list[str]:
    by_name: dict[str, dict[str, int]] = {}
    for move in moves:
        losers = by_name.setdefault(move.name, {})
        who = names.party(move.giver)
        losers[who] = losers.get(who, 0) + 1
    out = []
    for name, losers in by_name.items():
        lost = ", ".join(f"{who} loses {n}" for who, n in sorted(losers.items(), key=lambda kv: -kv[1]))
        out.append(f"All {name}-trains rust: {lost}")
    return out


def _acquired_line(event: ev.Acquired, names: Names) -> str:
    parts = [f"{names.money(event.cash)} cash"]
    parts.append(f"trains: {', '.join(event.trains)}" if event.trains else "no train")
    if event.companies:
        parts.append(f"privates: {', '.join(event.companies)}")
    parts += [f"station {s}" for s in event.stations]
    return f"{event.taker} takes over {event.giver}: " + "; ".join(parts)


def narrate(events: Sequence[ev.Event], names: Names) -> list[Line]:
    """Every line a player needs to know what a move did, in the order it happened."""
    out: list[Line] = []
    last_log: int | None = None  # index in ``out`` of the last log line, which later events of its rule lift
    runs: list[ev.RouteRun] = []
    rust: list[ev.TrainMoved] = []
    left: dict[str, list[str]] = {}
    prices: dict[str, tuple[int | None, int | None]] = {}

    def add(text: str, rank: int) -> None:
        out.append(Line(text, rank))

    def lift(rank: int) -> None:
        if last_log is not None and out[last_log].rank < rank:
            out[last_log] = Line(out[last_log].text, rank)

    def flush_runs() -> None:
        if runs:
            for text in _route_lines(runs, names):
                add(text, ev.RouteRun.RANK)
            runs.clear()

    def flush_trains() -> None:
        for text in _rust_line(rust, names):
            add(text, ev.TrainMoved.RANK)
        rust.clear()
        for corp, trains in left.items():
            add(f"{corp}'s trains leave the game with it ({_trains(trains)}); they do not rust", ev.TrainMoved.RANK)
        left.clear()

    for event in events:
        if not isinstance(event, ev.RouteRun):
            flush_runs()
        if not isinstance(event, ev.TrainMoved | ev.Logged):
            flush_trains()
        if isinstance(event, ev.Logged):
            add(names.text(event.text), _LOG_RANK)
            last_log = len(out) - 1
        elif isinstance(event, ev.RouteRun):
            runs.append(event)
        elif isinstance(event, ev.TrainMoved):
            if event.how in (ev.TrainHow.RUSTED, ev.TrainHow.OBSOLETE):
                rust.append(event)
                # The engine's own line for each rusted train is told by the grouped line instead.
                if last_log is not None and out[last_log].text.endswith(" rusts"):
                    del out[last_log]
                    last_log = None
            elif event.how is ev.TrainHow.LEFT:
                left.setdefault(names.party(event.giver), []).append(event.name)
            lift(event.RANK)
        elif isinstance(event, ev.Passed):
            said = _PASSES.get(event.step)
            if said is not None:  # the other steps' passes have their own log line
                add(f"{names.party(event.who)} {said}", event.RANK)
        elif isinstance(event, ev.DividendPaid):
            if not event.revenue and last_log is not None and out[last_log].text.endswith(f" {names.money(0)}"):
                out[last_log] = Line(f"{event.corp} earns nothing: no dividend", event.RANK)
                continue
            text = dividend_line(event, names)
            if text:
                add(text, event.RANK)
        elif isinstance(event, ev.PriceMoved):
            if event.old is not None and event.new is not None:
                first = prices.get(event.corp, (event.old, None))[0]
                prices[event.corp] = (first, event.new)
        elif isinstance(event, ev.PrivateClosed):
            if last_log is not None and out[last_log].text == f"{event.company} closes":
                out[last_log] = Line(f"The {event.company} private company ({event.name}) closes", event.RANK)
            else:
                lift(event.RANK)
        elif isinstance(event, ev.PrivateMoved):
            if event.taker.kind is ev.PartyKind.CORPORATION and event.giver.kind is ev.PartyKind.PLAYER \
                    and not event.price:
                add(f"  ({event.company} changes hands for no money on the board: its price is settled between "
                    "the players)", event.RANK)
            lift(event.RANK)
        elif isinstance(event, ev.Acquired):
            add(_acquired_line(event, names), event.RANK)
        elif isinstance(event, ev.GameEnded):
            lift(event.RANK)
        else:
            lift(event.RANK)
    flush_runs()
    flush_trains()
    moved = [f"{sym} {names.money(old)} → {names.money(new)}" for sym, (old, new) in prices.items()
             if old is not None and new is not None and old != new]
    if moved:
        add("Share price: " + ", ".join(moved), ev.PriceMoved.RANK)
    return out


def cut(lines: Sequence[Line], limit: int) -> list[str]:
    """At most ``limit`` lines (and a note of how many went to ``history``): the lowest ranks go first, the
    rest keep their order."""
    if len(lines) <= limit:
        return [line.text for line in lines]
    order = sorted(range(len(lines)), key=lambda i: (lines[i].rank, i))
    dropped = set(order[: len(lines) - limit + 1])
    kept = [line.text for i, line in enumerate(lines) if i not in dropped]
    n = len(dropped)
    return [*kept, f"({n} less important line{'s' if n != 1 else ''} in `history`)"]
