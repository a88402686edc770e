"""Players, corporations, private companies, shares, trains and the bank."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from .abilities import Ability, OwnerType

_A = TypeVar("_A", bound=Ability)


class Holder:
    """Anything that holds cash and share certificates (player, corporation, bank pool, bank)."""

    name: str
    cash: int
    shares: list[Share]

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


@dataclass(eq=False)
class Train:
    id: str  # "2-0"
    name: str  # "2"
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


@dataclass(eq=False)
class Token:
    corp: str  # whose network it is part of when placed ("CN" for neutral tokens)
    price: int
    neutral: bool = False
    used: bool = False
    hex: str | None = None
    node: int = -1
    slot: int = -1


class Player(Holder):
    def __init__(self, pid: int, name: str, cash: int) -> None:
        self.id = pid
        self.name = name
        self.cash = cash
        self.shares: list[Share] = []
        self.companies: list[Company] = []
        self.passed = False
        self.bankrupt = False

    def __repr__(self) -> str:
        return f"Player({self.name})"


class SharePool(Holder):
    def __init__(self) -> None:
        self.name = "the market"
        self.cash = 0
        self.shares: list[Share] = []


class Bank(Holder):
    def __init__(self, cash: int) -> None:
        self.name = "the bank"
        self.cash = cash
        self.shares: list[Share] = []
        self.broken = False

    def spend(self, amount: int, to: Holder) -> None:
        self.cash -= amount
        to.cash += amount
        if self.cash <= 0:
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
        self.cash = 0  # the company's money is its own ``cash``; this holder only keeps certificates
        self.shares: list[Share] = []


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
        self.home: str | None = data.get("home")
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
        self.data = data

    def __repr__(self) -> str:
        return f"Corp({self.sym})"

    def ipo_percent(self) -> int:
        return sum(s.percent for s in self.shares)

    def sold_percent(self) -> int:
        """Percent held by others than the company (neither in its IPO nor in its treasury): what floats it."""
        return 100 - self.ipo_percent() - self.treasury.percent_of(self.sym)

    def unused_tokens(self) -> list[Token]:
        return [t for t in self.tokens if not t.used]
