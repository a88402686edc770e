"""Players, corporations, private companies, shares, trains and the bank."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from . import events as ev
from .abilities import Ability, OwnerType
from .errors import illegal
from .tiles import TokenKind

_A = TypeVar("_A", bound=Ability)


class Holder:
    """Anything that holds cash and share certificates (player, corporation, bank pool, bank)."""

    name: str
    cash: int
    shares: list[Share]

    @property
    def party(self) -> ev.Party:
        """Who this holder is in events."""
        return ev.Party(ev.PartyKind.HOLDER, self.name)

    def percent_of(self, corp: str) -> int:
        return sum(s.percent for s in self.shares if s.corp == corp)

    def shares_of(self, corp: str) -> list[Share]:
        return [s for s in self.shares if s.corp == corp]


@dataclass(eq=False)
class Share:
    id: str  # "CPR_0"; _0 is the president's certificate
    corp: str
    percent: int
    president: bool
    owner: Holder

    def __repr__(self) -> str:
        return self.id


@dataclass(eq=False)
class Company:
    sym: str
    name: str
    value: int
    revenue: int
    desc: str = ""
    owner: Holder | None = None
    closed: bool = False
    discount: int = 0  # waterfall auction price reduction
    data: dict[str, Any] = field(default_factory=dict)
    abilities: list[Ability] = field(default_factory=list)  # its powers, from game.toml (core/abilities.py)

    @property
    def min_bid(self) -> int:
        return self.value - self.discount

    def abilities_of(self, kind: type[_A]) -> list[_A]:
        """Its abilities of one type, spent or not, open or closed, in data order."""
        return [a for a in self.abilities if isinstance(a, kind)]

    def active(self, kind: type[_A]) -> list[_A]:
        """Its abilities of one type that work now: it is open, its owner is of the kind they need, uses are left."""
        if self.closed:
            return []
        return [a for a in self.abilities_of(kind) if a.left and self._owner_fits(a.owner_type)]

    def _owner_fits(self, owner_type: OwnerType | None) -> bool:
        if owner_type is OwnerType.PLAYER:
            return isinstance(self.owner, Player)
        if owner_type is OwnerType.CORPORATION:
            return isinstance(self.owner, Corporation)
        return self.owner is not None


@dataclass(frozen=True, slots=True)
class TrainVariant:
    """One way a train may be bought: 1822's L or 2, 3 or 3+, 7 or E."""

    name: str
    distance: int
    price: int
    rusts_on: str | None = None


@dataclass(eq=False)
class Train:
    id: str  # "2-0": the type's name and the copy's index, whichever variant is bought
    name: str  # "2"; the chosen variant's name once bought as another variant
    distance: int
    price: int
    rusts_on: str | None = None
    owner: Holder | None = None
    rusted: bool = False
    operated: bool = False
    events: list[str] = field(default_factory=list)
    discount: dict[str, int] = field(default_factory=dict)
    available_on: str | None = None
    reserved: bool = False
    # The ways it may be bought, the type's own first; empty when it has only one.
    variants: list[TrainVariant] = field(default_factory=list)
    # False for trains outside the train limit (1822's permanent 2P, LP and 5P from privates).
    counts_for_limit: bool = True
    sym: str = ""  # the type's name, as in ``id``; set from ``name`` when not given

    def __post_init__(self) -> None:
        if not self.sym:
            self.sym = self.name

    def variant(self, name: str) -> TrainVariant | None:
        return next((v for v in self.variants if v.name == name), None)

    def choose_variant(self, name: str) -> None:
        """Become the variant ``name`` (on purchase; 18xx.games keeps the id and changes the name).

        Raises:
            GameError: (illegal) the train has no such variant.
        """
        chosen = self.variant(name)
        if chosen is None:
            names = ", ".join(v.name for v in self.variants) or self.name
            raise illegal(f"a {self.sym} train is bought as {names}, not {name}")
        self.name, self.distance, self.price, self.rusts_on = chosen.name, chosen.distance, chosen.price, \
            chosen.rusts_on


@dataclass(eq=False)
class Token:
    corp: str  # whose network it is part of when placed ("CN" for neutral tokens; the marker's own for blocking)
    price: int
    kind: TokenKind = TokenKind.NORMAL
    used: bool = False
    hex: str | None = None
    node: int = -1
    slot: int = -1

    @property
    def neutral(self) -> bool:
        return self.kind is TokenKind.NEUTRAL


def pay(payer: Holder, payee: Holder, amount: int, why: str) -> None:
    """Move ``amount`` from ``payer`` to ``payee`` (no check: the rule checked what may be paid)."""
    payer.cash -= amount
    payee.cash += amount
    if ev.recording_now():
        ev.emit(ev.MoneyMoved(payer.party, payee.party, amount, why))


class Player(Holder):
    def __init__(self, pid: int, name: str, cash: int) -> None:
        self.id = pid
        self.name = name
        self.cash = cash
        self.shares: list[Share] = []
        self.companies: list[Company] = []
        self.passed = False
        self.bankrupt = False
        # Money owed to the bank (1822's emergency loans): paid in cash, subtracted from the player's value.
        self.debt = 0

    def __repr__(self) -> str:
        return f"Player({self.name})"

    @property
    def party(self) -> ev.Party:
        return ev.player(self.id)


class SharePool(Holder):
    def __init__(self) -> None:
        self.name = "the market"
        self.cash = 0
        self.shares: list[Share] = []

    @property
    def party(self) -> ev.Party:
        return ev.POOL


class Bank(Holder):
    def __init__(self, cash: int) -> None:
        self.name = "the bank"
        self.cash = cash
        self.shares: list[Share] = []
        self.broken = False

    @property
    def party(self) -> ev.Party:
        return ev.BANK

    def spend(self, amount: int, to: Holder, why: str = ev.Why.OTHER) -> None:
        self.withdraw(amount)
        to.cash += amount
        if ev.recording_now():
            ev.emit(ev.MoneyMoved(ev.BANK, to.party, amount, why))

    def withdraw(self, amount: int) -> None:
        """Pay ``amount`` out of the bank. It breaks once a payment takes it below zero (a bank paid down to
        exactly nothing is not broken yet, as in 18xx.games) and keeps paying in full after that."""
        self.cash -= amount
        if self.cash < 0:
            self.broken = True


class CorporationKind(StrEnum):
    MAJOR = "major"
    MINOR = "minor"  # one 100% certificate (1822 minors)
    SYSTEM = "system"  # formed by a merger (1828)


class Treasury(Holder):
    """Certificates a company holds in itself, apart from its unsold IPO: 1862's redeemed 50%, 1828's
    donated share. They were issued, so they do not return to sale with the IPO."""

    def __init__(self, corp: str) -> None:
        self.name = f"{corp}'s treasury"
        self.corp = corp
        self.cash = 0  # the company's money is its own ``cash``; this holder only keeps certificates
        self.shares: list[Share] = []

    @property
    def party(self) -> ev.Party:
        return ev.Party(ev.PartyKind.TREASURY, self.corp)


class Corporation(Holder):
    def __init__(self, data: dict[str, Any]) -> None:
        self.sym: str = data["sym"]
        self.name = self.sym
        self.full_name: str = data.get("name", self.sym)
        self.kind = CorporationKind(data.get("kind", CorporationKind.MAJOR))
        minor = self.kind is CorporationKind.MINOR
        self.president_percent: int = int(data.get("president_percent", 100 if minor else 20))
        # The size of one share, in percent: a certificate counts as percent / share_percent shares for its
        # value, sale price and price drops. A minor's 100% certificate is two shares (tobymao corporation.rb).
        self.share_percent: int = int(data.get("share_percent", self.president_percent // 2 if minor else 10))
        self.cash = 0
        self.shares: list[Share] = []  # its own unsold (IPO) certificates
        self.treasury = Treasury(self.sym)
        self.tokens: list[Token] = [Token(self.sym, int(p)) for p in data.get("tokens", [])]
        # A system formed by a merger has its members' homes (1828); the first is the one tokened at float.
        homes = data.get("homes")
        self.homes: list[str] = [str(h) for h in homes] if homes else ([str(data["home"])] if data.get("home")
                                                                          else [])
        home_city = data.get("home_city")
        self.home_city: int | None = home_city if isinstance(home_city, int) else None
        self.colour: str = data.get("color", "#888888")
        self.text_colour: str = data.get("text_color", "#ffffff")
        self.float_percent: int = int(data.get("float_percent", 60))
        self.trains: list[Train] = []
        self.companies: list[Company] = []
        self.ipoed = False
        self.floated = False
        self.operated = False
        self.closed = False
        self.owner: Player | None = None  # the president
        self.par_price: int | None = None
        self.last_revenue: int | None = None
        self.loans = 0  # loans taken from the bank, each of the title's loan size (``[loans]`` in game.toml)
        self.debt = 0  # other money owed to the bank (1862's debt certificates)
        self.markers: list[str] = []  # named markers it holds, as 1828's coal marker
        # A company without certificates (1828's C&P minor, run by the owner of a private) has no share to sum.
        self.issues_shares: bool = bool(data.get("shares", True))
        # How 18xx.games documents name its type in actions ("corporation"; 1828: "minor", "system").
        self.entity_type: str = str(data.get("entity_type", "corporation"))
        self.data = data

    def __repr__(self) -> str:
        return f"Corp({self.sym})"

    @property
    def party(self) -> ev.Party:
        return ev.corporation(self.sym)

    @property
    def home(self) -> str | None:
        return self.homes[0] if self.homes else None

    @home.setter
    def home(self, hex_id: str | None) -> None:
        self.homes = [hex_id, *self.homes[1:]] if hex_id else self.homes[1:]

    def trains_in_limit(self) -> int:
        """Trains the train limit counts (permanent trains outside the limit do not)."""
        return sum(1 for t in self.trains if t.counts_for_limit)

    def ipo_percent(self) -> int:
        return sum(s.percent for s in self.shares)

    def sold_percent(self) -> int:
        """Percent held by others than the company (neither in its IPO nor in its treasury): what floats it."""
        return 100 - self.ipo_percent() - self.treasury.percent_of(self.sym)

    def unused_tokens(self) -> list[Token]:
        """Stations it may still place in its token step (a destination station goes only to its destination)."""
        return [t for t in self.tokens if not t.used and t.kind is not TokenKind.DESTINATION]


# Who may act: a player, a corporation (1822's minors and 1828's systems included) or a private acting for its
# owner. Rounds and steps take this; a step that acts for one kind alone narrows it with ``as_corporation``,
# ``as_player``, ``as_company`` or ``sym_of`` below, which refuse another kind as an illegal move.
Entity = Player | Corporation | Company


def as_corporation(entity: object) -> Corporation:
    """``entity`` where only a corporation can be acting: a step offered the action to a corporation alone, or an
    operating round's entity."""
    if isinstance(entity, Corporation):
        return entity
    raise illegal(f"{_named(entity)} is not a corporation")


def as_player(entity: object) -> Player:
    """``entity`` where only a player can be acting (a stock round's, an auction's)."""
    if isinstance(entity, Player):
        return entity
    raise illegal(f"{_named(entity)} is not a player")


def as_company(entity: object) -> Company:
    """``entity`` where only a private can be acting (its power's step)."""
    if isinstance(entity, Company):
        return entity
    raise illegal(f"{_named(entity)} is not a private company")


def sym_of(entity: object) -> str:
    """The symbol of the corporation or private acting (a player has none)."""
    if isinstance(entity, Corporation | Company):
        return entity.sym
    raise illegal(f"{_named(entity)} is not a company")


def _named(entity: object) -> str:
    return "nobody" if entity is None else str(getattr(entity, "name", entity))
