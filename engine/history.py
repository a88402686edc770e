"""The story of a game, read from its action log: what the charts and the end-of-game summary show.

The log is replayed once from the start and the state is sampled at the end of every round: each player's net
worth, each company's share price and who holds what; each dividend is noted with its kind (paid out, half,
withheld). Nothing here runs during ordinary moves: the bot builds a history only when a chart or a summary is
asked for (and keeps it, see ``bot/core/charts.py``), so the cost of a replay is paid once per picture at most.

>>> from engine import new_game
>>> h = game_history(new_game("1882", [(1, "ann"), (2, "bob")]), [])
>>> h.rounds, h.values
((), {'ann': (), 'bob': ()})
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import actions as act
from .core import events as ev
from .core.entities import Corporation, Player
from .core.game import Game
from .core.statusbuild import status_view

__all__ = ["CompanyInfo", "GameHistory", "Hold", "Payout", "WorthSplit", "game_history", "worth_split"]


@dataclass(frozen=True, slots=True)
class Payout:
    """One company's dividend in one operating round."""

    round: int  # index into ``GameHistory.rounds`` of the round it was paid in
    corp: str
    revenue: int
    kind: str  # payout, half, withhold (the title's dividend kinds)


@dataclass(frozen=True, slots=True)
class CompanyInfo:
    sym: str
    name: str
    colour: str
    text_colour: str
    kind: str  # major, minor or system


@dataclass(frozen=True, slots=True)
class WorthSplit:
    """A player's worth at the end, in the parts the title's score counts; ``total`` is their sum."""

    player: str
    cash: int
    shares: int
    privates: int  # privates, concessions and anything else the title counts (1822's tax haven)
    debt: int  # owed to the bank, counted against the player

    @property
    def total(self) -> int:
        return self.cash + self.shares + self.privates - self.debt


@dataclass(frozen=True, slots=True)
class Hold:
    """The longest unbroken holding of one company by one player, in rounds."""

    player: str
    corp: str
    rounds: int
    first: str  # labels of the first and last round it covers
    last: str


@dataclass(frozen=True, slots=True)
class GameHistory:
    """A game's rounds with the state at the end of each; series line up with ``rounds``."""

    title: str
    currency: str  # the title's money format ("$%d", "£%d")
    rounds: tuple[str, ...]  # short labels: SR1, OR1.1, OR1.2, SR2, ... (PR for an auction of privates)
    values: dict[str, tuple[int, ...]]  # player name -> net worth at the end of each round
    prices: dict[str, tuple[int | None, ...]]  # company -> share price at the end of each round (None: none)
    payouts: tuple[Payout, ...]
    companies: dict[str, CompanyInfo]
    finished: bool
    end_reason: str | None  # in words: "the bank broke"
    final: tuple[WorthSplit, ...]  # best first
    moves: int  # standing actions in the log (undone ones and chat messages left out)
    first_move_at: float | None  # seconds since the epoch, when the log has times
    last_move_at: float | None
    move_seconds: dict[str, float] = field(default_factory=dict)  # player -> median seconds to move
    longest_hold: Hold | None = None

    def money(self, amount: int) -> str:
        return self.currency % amount if "%" in self.currency else f"{self.currency}{amount}"


# The chart's words for the engine's dividend kinds.
_DIVIDEND_KINDS = {ev.DividendKind.FULL: "payout", ev.DividendKind.HALF: "half", ev.DividendKind.WITHHELD: "withhold"}


def _round_label(game: Game) -> str:
    kind = game.round.kind
    if kind == "stock":
        return f"SR{game.turn}"
    if kind == "operating":
        return f"OR{game.turn}.{getattr(game.round, 'number', 1)}"
    return "PR" if kind == "auction" else kind[:2].upper()


def _price(game: Game, sym: str) -> int | None:
    cell = game.market.location.get(sym)
    return int(cell.price) if cell is not None else None


def _actor(game: Game, action: dict[str, Any]) -> Player | None:
    """The player who made ``action``: the player named, or the president of the company or owner of the private."""
    entity = action.get("entity")
    for p in game.players:
        if p.id == entity or str(p.id) == str(entity):
            return p
    corp = game.corporations.get(str(entity))
    if isinstance(corp, Corporation) and isinstance(corp.owner, Player):
        return corp.owner
    comp = game.companies.get(str(entity))
    owner = getattr(comp, "owner", None)
    return owner if isinstance(owner, Player) else None


def worth_split(game: Game, player: Player) -> WorthSplit:
    """``player``'s worth in parts: shares at their price; privates are what the title's worth counts beyond cash,
    shares and debt, so the parts always add up to the title's own score."""
    shares = 0
    for s in player.shares:
        corp = game.corporations.get(s.corp)
        price = _price(game, s.corp)
        if corp is not None and price is not None:
            shares += price * s.percent // corp.share_percent
    debt = int(player.debt)
    total = int(game.player_value(player))
    return WorthSplit(player.name, int(player.cash), shares, total - int(player.cash) - shares + debt, debt)


@dataclass(slots=True)
class _Sampler:
    """Collects the series while the log replays."""

    game: Game
    rounds: list[str] = field(default_factory=list)
    values: dict[str, list[int]] = field(default_factory=dict)
    prices: dict[str, list[int | None]] = field(default_factory=dict)
    holds: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # rounds in which a player held a corp
    payouts: list[Payout] = field(default_factory=list)

    def sample(self, label: str) -> None:
        i = len(self.rounds)
        self.rounds.append(label)
        for p in self.game.players:
            self.values.setdefault(p.name, []).append(int(self.game.player_value(p)))
            for sym in {s.corp for s in p.shares}:
                self.holds.setdefault((p.name, sym), []).append(i)
        for sym in self.game.corporations:
            series = self.prices.setdefault(sym, [None] * i)
            series.append(_price(self.game, sym))
        for series in self.prices.values():
            series.extend([None] * (i + 1 - len(series)))

    def note_dividends(self, events: Sequence[ev.Event]) -> None:
        """Note the dividends an action paid, from its events: also the payouts its steps make without an action
        of their own (1822's minors, a company without a train)."""
        for event in events:
            if isinstance(event, ev.DividendPaid):
                self.payouts.append(Payout(len(self.rounds), event.corp, event.revenue, _DIVIDEND_KINDS[event.kind]))


def _longest_hold(holds: dict[tuple[str, str], list[int]], rounds: Sequence[str]) -> Hold | None:
    best: Hold | None = None
    for (player, corp), seen in holds.items():
        start = prev = seen[0]
        for i in [*seen[1:], None]:
            if i is not None and i == prev + 1:
                prev = i
                continue
            if best is None or prev - start + 1 > best.rounds:
                best = Hold(player, corp, prev - start + 1, rounds[start], rounds[prev])
            if i is not None:
                start = prev = i
    return best


def game_history(game: Game, log: Sequence[dict[str, Any]], times: Sequence[float | None] | None = None) -> GameHistory:
    """Replay ``log`` on ``game`` (a new game of the right title, players, seed and options) and sample it.

    ``times`` gives each action's time (seconds since the epoch), in step with ``log``; without it an action's own
    ``created_at`` is used (games from 18xx.games carry one). Raises GameError when the log does not replay.
    """
    when = {id(a): (times[i] if times is not None and i < len(times) else a.get("created_at"))
            for i, a in enumerate(log)}
    sampler = _Sampler(game)
    standing = act.filter_undo(list(log))
    round_obj, label = game.round, _round_label(game)
    waits: dict[str, list[float]] = {}
    stamps: list[float] = []
    for action in standing:
        actor = _actor(game, action)
        with ev.recording() as events:
            game._apply(action)  # as the importer's replay does, one action at a time
        sampler.note_dividends(events)
        t = when.get(id(action))
        if isinstance(t, int | float) and t > 0:  # 0: no time recorded (a playout's document)
            if stamps and actor is not None:
                waits.setdefault(actor.name, []).append(max(0.0, float(t) - stamps[-1]))
            stamps.append(float(t))
        if game.round is not round_obj or game.finished:
            sampler.sample(label)
            if game.finished:
                break
            round_obj, label = game.round, _round_label(game)
    for corp in game.corporations.values():
        sampler.prices.setdefault(corp.sym, [None] * len(sampler.rounds))
    final = sorted((worth_split(game, p) for p in game.players), key=lambda s: -s.total)
    return GameHistory(
        title=game.TITLE,
        currency=str(game.config.currency),
        rounds=tuple(sampler.rounds),
        values={p.name: tuple(sampler.values.get(p.name, ())) for p in game.players},
        prices={sym: tuple(v) for sym, v in sampler.prices.items() if any(x is not None for x in v)},
        payouts=tuple(sampler.payouts),
        companies={c.sym: CompanyInfo(c.sym, c.full_name, c.colour, c.text_colour, c.kind.value)
                   for c in game.corporations.values()},
        finished=bool(game.finished),
        end_reason=status_view(game).game_end_reason if game.finished else None,
        final=tuple(final),
        moves=len([a for a in standing if a.get("type") not in ("message",)]),
        first_move_at=stamps[0] if stamps else None,
        last_move_at=stamps[-1] if stamps else None,
        move_seconds={name: float(statistics.median(w)) for name, w in waits.items() if w},
        longest_hold=_longest_hold(sampler.holds, sampler.rounds),
    )
