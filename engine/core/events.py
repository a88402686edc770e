"""What happened: the typed events the engine emits where its rules act.

Each event is a small frozen record. The mutation primitives emit them (money changing hands, certificates,
market moves, trains, tiles and stations), so that the events of an action account for every change it made
(``engine.reconcile`` proves it over seeded playouts). The rules emit the events that name what a move meant
(a dividend with each holder's part, an auction won, the game's end with each score).

Events go to the recorder of the action being applied (``recording``), held in a context variable so that the
helpers that move money or trains need no reference to the game. Outside ``recording`` nothing is kept.
A title adds its own event types by subclassing :class:`Event` (``register_event`` lists them for renderers).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import ClassVar, TypeVar


class PartyKind(StrEnum):
    BANK = "bank"
    POOL = "pool"  # the market's share pool (and its discarded trains)
    PLAYER = "player"
    CORPORATION = "corporation"  # its treasury cash, its unsold (IPO) certificates, its trains
    TREASURY = "treasury"  # certificates a company holds in itself apart from its IPO (1862, 1828)
    DEPOT = "depot"  # the bank's unsold trains
    HOLDER = "holder"  # a title's own holder (1822's tax haven)
    NOBODY = "nobody"  # out of the game (a rusted train, a closed private)


@dataclass(frozen=True, slots=True)
class Party:
    """Who gives or receives: a player by id, a company by symbol, the bank, the pool."""

    kind: PartyKind
    key: str = ""

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.key}" if self.key else self.kind.value


BANK = Party(PartyKind.BANK)
POOL = Party(PartyKind.POOL)
DEPOT = Party(PartyKind.DEPOT)
NOBODY = Party(PartyKind.NOBODY)


# A party is a frozen value asked for at every money or share move: one instance per player or company serves.
@cache
def player(pid: int) -> Party:
    return Party(PartyKind.PLAYER, str(pid))


@cache
def corporation(sym: str) -> Party:
    return Party(PartyKind.CORPORATION, sym)


class Event:
    """Base of every event. ``RANK`` orders what a cut reply drops first: lower ranks go first."""

    RANK: ClassVar[int] = 5


_E = TypeVar("_E", bound=Event)

_TYPES: dict[str, type[Event]] = {}


def register_event(cls: type[Event]) -> type[Event]:
    """Name an event type (core or a title's) so that renderers and tools can list them."""
    _TYPES[cls.__name__] = cls
    return cls


def event_types() -> dict[str, type[Event]]:
    return dict(_TYPES)


class Why(StrEnum):
    """Why money moved."""

    STARTING_CASH = "starting cash"
    AUCTION = "auction"
    SHARES = "shares"
    SHARE_SALE = "share sale"
    CAPITAL = "capital"  # a company's treasury from its float or issued shares
    TILE = "tile"
    STATION = "station"
    TRAIN = "train"
    CONTRIBUTION = "contribution"  # a president's money for a forced train
    DIVIDEND = "dividend"
    REVENUE = "revenue"  # a company keeps its run
    PRIVATE_REVENUE = "private revenue"
    PRIVATE = "private"  # a private company bought
    LOAN = "loan"
    INTEREST = "interest"
    REPAYMENT = "repayment"
    BANKRUPTCY = "bankruptcy"
    MERGER = "merger"  # cash handed over in a merger or acquisition
    CLOSING = "closing"
    OTHER = "other"


@register_event
@dataclass(frozen=True, slots=True)
class Logged(Event):
    """A line of the game's log, in the order it was written."""

    RANK: ClassVar[int] = 4
    text: str


@register_event
@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A plain pass: ``who`` lets the step named ``step`` go by."""

    RANK: ClassVar[int] = 4
    who: Party
    step: str


@register_event
@dataclass(frozen=True, slots=True)
class MoneyMoved(Event):
    RANK: ClassVar[int] = 2
    payer: Party
    payee: Party
    amount: int
    why: str


@register_event
@dataclass(frozen=True, slots=True)
class ShareMoved(Event):
    RANK: ClassVar[int] = 3
    share: str  # certificate id, "HBR_1"
    corp: str
    percent: int
    president: bool
    giver: Party
    taker: Party


@register_event
@dataclass(frozen=True, slots=True)
class ShareCreated(Event):
    """A certificate that did not exist before (1862's redemption splits certificates); ``gone`` ones end."""

    RANK: ClassVar[int] = 1
    share: str
    corp: str
    percent: int
    holder: Party
    gone: bool = False


@register_event
@dataclass(frozen=True, slots=True)
class PriceMoved(Event):
    """A company's market price: ``old`` None when it is parred, ``new`` None when it leaves the market."""

    RANK: ClassVar[int] = 6
    corp: str
    old: int | None
    new: int | None
    old_cell: tuple[int, int] | None = None
    new_cell: tuple[int, int] | None = None


@register_event
@dataclass(frozen=True, slots=True)
class CompanyFloated(Event):
    RANK: ClassVar[int] = 7
    corp: str


@register_event
@dataclass(frozen=True, slots=True)
class PresidentChanged(Event):
    RANK: ClassVar[int] = 6
    corp: str
    old: Party | None
    new: Party | None


@register_event
@dataclass(frozen=True, slots=True)
class TileLaid(Event):
    RANK: ClassVar[int] = 5
    hex: str
    tile: str  # the tile's name, "57"
    tile_id: str
    rotation: int
    old_tile: str | None
    by: str  # the company (or private) laying it


@register_event
@dataclass(frozen=True, slots=True)
class StationChanged(Event):
    """A station space changed: placed (``corp`` now there), freed (``corp`` None) or turned into a marker."""

    RANK: ClassVar[int] = 5
    hex: str
    city: int
    slot: int
    old: str | None  # who was there
    corp: str | None  # who is there now
    kind: str = "normal"


@dataclass(frozen=True, slots=True)
class Stop:
    hex: str
    value: int


@register_event
@dataclass(frozen=True, slots=True)
class RouteRun(Event):
    RANK: ClassVar[int] = 3
    corp: str
    train: str  # the train's name, "3"
    stops: tuple[Stop, ...]
    revenue: int


class DividendKind(StrEnum):
    FULL = "full"
    HALF = "half"
    WITHHELD = "withheld"


@dataclass(frozen=True, slots=True)
class HolderPart:
    holder: Party
    amount: int


@register_event
@dataclass(frozen=True, slots=True)
class DividendPaid(Event):
    """A run's revenue shared out: each holder's part, and what the company kept."""

    RANK: ClassVar[int] = 7
    corp: str
    kind: DividendKind
    revenue: int
    per_share: int  # paid on one share (``share_percent``); 0 when withheld
    share_percent: int
    parts: tuple[HolderPart, ...]
    kept: int  # to the company's treasury


class TrainHow(StrEnum):
    BOUGHT = "bought"
    RUSTED = "rusted"
    OBSOLETE = "obsolete"
    EXPORTED = "exported"
    DISCARDED = "discarded"
    LEFT = "left"  # left the game with its company (not rusting)
    HANDED = "handed"  # changed hands in a merger or acquisition
    MOVED = "moved"  # within a company (1828's shells)
    CONVERTED = "converted"  # became another train (1822's L to 2)
    REMOVED = "removed"  # out of the game by a rule (a private's train)


@register_event
@dataclass(frozen=True, slots=True)
class TrainMoved(Event):
    RANK: ClassVar[int] = 6
    train: str  # its id, "3-0"
    name: str  # "3"
    giver: Party
    taker: Party
    how: TrainHow
    price: int = 0


@register_event
@dataclass(frozen=True, slots=True)
class CompanyClosed(Event):
    """A corporation leaves the game (with its trains, which is not rusting)."""

    RANK: ClassVar[int] = 7
    corp: str
    why: str = ""


@register_event
@dataclass(frozen=True, slots=True)
class PrivateMoved(Event):
    RANK: ClassVar[int] = 6
    company: str
    giver: Party
    taker: Party
    price: int = 0


@register_event
@dataclass(frozen=True, slots=True)
class PrivateClosed(Event):
    RANK: ClassVar[int] = 6
    company: str
    name: str


@register_event
@dataclass(frozen=True, slots=True)
class LoanChanged(Event):
    """Loans or debt owed to the bank: ``amount`` > 0 taken, < 0 repaid."""

    RANK: ClassVar[int] = 6
    holder: Party
    amount: int
    what: str = "loan"  # "loan", "debt"


@register_event
@dataclass(frozen=True, slots=True)
class Acquired(Event):
    """A merger or an acquisition: what ``taker`` got of ``giver``."""

    RANK: ClassVar[int] = 8
    taker: str
    giver: str
    cash: int
    trains: tuple[str, ...]
    companies: tuple[str, ...]
    stations: tuple[str, ...] = ()


@register_event
@dataclass(frozen=True, slots=True)
class PhaseChanged(Event):
    RANK: ClassVar[int] = 8
    old: str
    new: str


@register_event
@dataclass(frozen=True, slots=True)
class AuctionWon(Event):
    RANK: ClassVar[int] = 9
    item: str
    winner: Party
    price: int


@dataclass(frozen=True, slots=True)
class Score:
    player: Party
    cash: int
    shares: int
    privates: int
    debt: int  # owed, as a positive amount

    @property
    def total(self) -> int:
        return self.cash + self.shares + self.privates - self.debt


@register_event
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    RANK: ClassVar[int] = 10
    reason: str  # a stable code, "bank_broken"
    reason_text: str  # in words
    scores: tuple[Score, ...]


_current: ContextVar[list[Event] | None] = ContextVar("roundhouse_events", default=None)


def emit(event: Event) -> None:
    """Record ``event`` for the action being applied (nothing when no action is recorded)."""
    sink = _current.get()
    if sink is not None:
        sink.append(event)


def recording_now() -> bool:
    return _current.get() is not None


@contextmanager
def recording() -> Iterator[list[Event]]:
    """Collect the events emitted inside the block, in order."""
    sink: list[Event] = []
    token = _current.set(sink)
    try:
        yield sink
    finally:
        _current.reset(token)


@contextmanager
def silenced() -> Iterator[None]:
    """Emit nothing inside the block (a state restored and re-applied is not news)."""
    token = _current.set(None)
    try:
        yield
    finally:
        _current.reset(token)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one processed action did: its events in the order they happened."""

    events: tuple[Event, ...] = ()
    rebuilt: bool = False  # undo or redo: the game was replayed, ``events`` is empty

    @property
    def log_lines(self) -> tuple[str, ...]:
        return tuple(e.text for e in self.events if isinstance(e, Logged))

    def of(self, kind: type[_E]) -> list[_E]:
        """The events of one type, in order."""
        return [e for e in self.events if isinstance(e, kind)]
