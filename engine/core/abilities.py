"""Private-company powers as data: each company's ``abilities = [...]`` in game.toml, read into typed records.

A record says *what* a private does (block a hex, bring a certificate, close on a phase, pay for river
crossings, move a station ...); the core's rules and steps read the records generically, so a title's
privates are data and only what data cannot say stays in the title's hooks. The ability types and their
keys follow 18xx.games' ``lib/engine/ability`` where it has one (``blocks_hexes``, ``shares``, ``close``,
``no_buy``, ``tile_income``, ``exchange``, ``token``, ``tile_lay``); the key names are ours, documented in
``engine/data/FORMAT.md``. A title adds types of its own with :func:`register`.

Every record carries its use count: ``count`` (None: unlimited) and ``used``, so one private's several
powers are spent separately (1882's NWR: the station move, then the tile lay).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from .errors import DataError

_E = TypeVar("_E", bound=StrEnum)


class OwnerType(StrEnum):
    """Who must own the private for the power to work."""

    PLAYER = "player"
    CORPORATION = "corporation"


class CloseWhen(StrEnum):
    """Events other than a phase that close a private."""

    TRAIN_BOUGHT = "train_bought"  # the named corporation buys a train (1882's CP: when the CPR buys one)


class ExchangeFrom(StrEnum):
    """Where the certificate a private is exchanged for comes from."""

    PAR = "par"  # the owner starts the corporation: the private is one share of the president's certificate


class Terrain(StrEnum):
    """What a tile lay must pay for to earn tile income."""

    WATER = "water"  # each river (water hexside) crossing the lay completes and pays for


class _Reader:
    """The keys of one ability table, each taken once; whatever is left over is an unknown key."""

    def __init__(self, raw: Mapping[str, Any], where: str) -> None:
        self.raw = dict(raw)
        self.where = where

    def error(self, message: str) -> DataError:
        return DataError(f"{self.where}: {message}")

    def _take(self, key: str) -> Any:
        return self.raw.pop(key, None)

    def text(self, key: str, default: str | None = None) -> str | None:
        value = self._take(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self.error(f"{key} should be a string, not {value!r}")
        return value

    def integer(self, key: str, default: int | None = None) -> int | None:
        value = self._take(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{key} should be a whole number, not {value!r}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._take(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.error(f"{key} should be true or false, not {value!r}")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self._take(key)
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(f"{key} should be a list of strings, not {value!r}")
        return tuple(value)

    def choice(self, key: str, enum: type[_E], default: _E | None = None) -> _E | None:
        value = self.text(key)
        if value is None:
            return default
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(e.value for e in enum)
            raise self.error(f"{key} = {value!r} is not one of {allowed}") from None

    def done(self, type_name: str, allowed: Sequence[str]) -> None:
        if self.raw:
            unknown = ", ".join(sorted(self.raw))
            raise self.error(f"unknown key {unknown} for a {type_name} ability; its keys: "
                             f"{', '.join(['type', *allowed])}")


@dataclass(slots=True, kw_only=True)
class Ability:
    """One power of a private. ``count`` uses (None: as often as it applies); ``used`` so far."""

    TYPE: ClassVar[str] = ""
    KEYS: ClassVar[tuple[str, ...]] = ()  # the keys its table may hold besides "type", "count", "owner_type"

    count: int | None = None
    used: int = 0
    owner_type: OwnerType | None = None  # None: works whoever owns the private

    @classmethod
    def read(cls, reader: _Reader) -> Ability:
        """Build the record from its table's own keys (the common ones are read by :func:`parse_abilities`)."""
        return cls()

    @property
    def left(self) -> bool:
        return self.count is None or self.used < self.count

    def use(self) -> None:
        if not self.left:
            raise ValueError(f"a {self.TYPE} ability used {self.used} of {self.count} times cannot be used again")
        self.used += 1

    def hexes_named(self) -> tuple[str, ...]:
        """Map hexes the record names, checked against the map when the game is built."""
        return ()

    def corporations_named(self) -> tuple[str, ...]:
        """Corporations the record names, checked against the title's corporations."""
        return ()

    def certificates_named(self) -> tuple[str, ...]:
        """Certificate ids ("CPR_0") the record names, checked against the shares."""
        return ()


@dataclass(slots=True, kw_only=True)
class BlocksHexes(Ability):
    """No tile may be laid in these hexes while the private stays open (by default: while a player owns it)."""

    TYPE = "blocks_hexes"
    KEYS = ("hexes",)

    hexes: tuple[str, ...] = ()
    owner_type: OwnerType | None = OwnerType.PLAYER

    @classmethod
    def read(cls, reader: _Reader) -> Ability:
        hexes = reader.texts("hexes")
        if not hexes:
            raise reader.error("a blocks_hexes ability needs hexes = [...]")
        return cls(hexes=hexes)

    def hexes_named(self) -> tuple[str, ...]:
        return self.hexes


@dataclass(slots=True, kw_only=True)
class Shares(Ability):
    """Certificates that come with the private when a player buys it: the listed ones, or one ordinary certificate
    of a corporation drawn at setup from ``random_from``. A president's certificate makes the buyer set its par."""

    TYPE = "shares"
    KEYS = ("shares", "random_from")

    shares: tuple[str, ...] = ()
    random_from: tuple[str, ...] = ()
    # The certificate ids the private brings: ``shares`` as given, or the one drawn at setup.
    certificates: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, reader: _Reader) -> Ability:
        shares, pool = reader.texts("shares"), reader.texts("random_from")
        if bool(shares) == bool(pool):
            raise reader.error("a shares ability needs either shares = [certificate ids] or random_from = "
                               "[corporations], not both")
        return cls(shares=shares, random_from=pool, certificates=list(shares))

    def draw(self, next_random: Callable[[], int], first_ordinary: Callable[[str], str]) -> None:
        """Draw the random certificate with the game's generator (one number, as 18xx.games draws it)."""
        if self.random_from:
            corp = self.random_from[next_random() % len(self.random_from)]
            self.certificates = [first_ordinary(corp)]

    def corporations_named(self) -> tuple[str, ...]:
        return self.random_from

    def certificates_named(self) -> tuple[str, ...]:
        return self.shares


@dataclass(slots=True, kw_only=True)
class Close(Ability):
    """The private closes when phase ``on_phase`` begins, or when ``corporation`` does what ``when`` says."""

    TYPE = "close"
    KEYS = ("on_phase", "when", "corporation")

    on_phase: str | None = None
    when: CloseWhen | None = None
    corporation: str | None = None

    @classmethod
    def read(cls, reader: _Reader) -> Ability:
        on_phase = reader.text("on_phase")
        when = reader.choice("when", CloseWhen)
        corporation = reader.text("corporation")
        if (on_phase is None) == (when is None):
            raise reader.error("a close ability needs either on_phase or when, not both")
        if when is not None and corporation is None:
            raise reader.error(f"a close ability with when = {when.value!r} needs corporation")
        if when is None and corporation is not None:
            raise reader.error("corporation belongs to a close ability with when")
        return cls(on_phase=on_phase, when=when, corporation=corporation)

    def corporations_named(self) -> tuple[str, ...]:
        return (self.corporation,) if self.corporation else ()


@dataclass(slots=True, kw_only=True)
class NoBuy(Ability):
    """No corporation may buy the private from its owner."""

    TYPE = "no_buy"


@dataclass(slots=True, kw_only=True)
class TileIncome(Ability):
    """The private's owner earns ``income`` from the bank for each ``terrain`` crossing any company pays for."""

    TYPE = "tile_income"
    KEYS = ("income", "terrain")

    income: int = 0
    terrain: Terrain = Terrain.WATER

    @classmethod
    def read(cls, reader: _Reader) -> Ability:
        income = reader.integer("income")
        if income is None:
            raise reader.error("a tile_income ability needs income")
        terrain = reader.choice("terrain", Terrain, Terrain.WATER)
        assert terrain is not None
        return cls(income=income, terrain=terrain)


@dataclass(slots=True, kw_only=True)
class Exchange(Ability):
    """The private's player owner may exchange it for a certificate of one of ``corporations``."""

    TYPE = "exchange"
    KEYS = ("corporations", "from")

    corporations: tuple[str, ...] = ()
    source: ExchangeFrom = ExchangeFrom.PAR
    owner_type: OwnerType | None = OwnerType.PLAYER

    @classmethod
    def read(cls, reader: _Reader) -> Ability:
        corporations = reader.texts("corporations")
        if not corporations:
            raise reader.error("an exchange ability needs corporations = [...]")
        source = reader.choice("from", ExchangeFrom)
        if source is None:
            raise reader.error("an exchange ability needs from")
        return cls(corporations=corporations, source=source)

    def corporations_named(self) -> tuple[str, ...]:
        return self.corporations


@dataclass(slots=True, kw_only=True)
class TokenAbility(Ability):
    """The owning corporation places a station in one of ``hexes`` for ``price``, during its turn.

    ``teleport``: the hex need not be on its network. ``move``: the station is one of its own already on the map,
    taken up from a hex outside ``hexes`` (1882's NWR; its title step carries out the move)."""

    TYPE = "token"
    KEYS = ("hexes", "price", "teleport", "move")

    hexes: tuple[str, ...] = ()
    price: int = 0
    teleport: bool = False
    move: bool = False
    owner_type: OwnerType | None = OwnerType.CORPORATION

    @classmethod
    def read(cls, reader: _Reader) -> Ability:
        hexes = reader.texts("hexes")
        if not hexes:
            raise reader.error("a token ability needs hexes = [...]")
        price = reader.integer("price", 0)
        assert price is not None
        return cls(hexes=hexes, price=price, teleport=reader.flag("teleport"), move=reader.flag("move"))

    def hexes_named(self) -> tuple[str, ...]:
        return self.hexes


@dataclass(slots=True, kw_only=True)
class TileLay(Ability):
    """An extra tile lay or upgrade for the owning corporation during its turn: in ``hexes`` (empty: anywhere),
    or, with ``token_hex``, only in the hex where this private's token ability has just placed a station."""

    TYPE = "tile_lay"
    KEYS = ("hexes", "token_hex")

    hexes: tuple[str, ...] = ()
    token_hex: bool = False
    owner_type: OwnerType | None = OwnerType.CORPORATION

    @classmethod
    def read(cls, reader: _Reader) -> Ability:
        hexes = reader.texts("hexes")
        token_hex = reader.flag("token_hex")
        if hexes and token_hex:
            raise reader.error("a tile_lay ability takes hexes or token_hex, not both")
        return cls(hexes=hexes, token_hex=token_hex)

    def hexes_named(self) -> tuple[str, ...]:
        return self.hexes


# Turn powers: used by the owning corporation during its own operating turn.
TURN_ABILITIES: tuple[type[Ability], ...] = (TokenAbility, TileLay)

_TYPES: dict[str, type[Ability]] = {
    kind.TYPE: kind for kind in (BlocksHexes, Shares, Close, NoBuy, TileIncome, Exchange, TokenAbility, TileLay)
}


def register(kind: type[Ability]) -> type[Ability]:
    """Add a title's own ability type (usable as a class decorator); its ``TYPE`` must be new."""
    if not kind.TYPE or (kind.TYPE in _TYPES and _TYPES[kind.TYPE] is not kind):
        raise ValueError(f"ability type {kind.TYPE!r} is empty or taken")
    _TYPES[kind.TYPE] = kind
    return kind


def ability_types() -> tuple[str, ...]:
    return tuple(_TYPES)


def parse_abilities(company: str, raw: object, *, where: str = "game.toml") -> list[Ability]:
    """Read one company's ``abilities`` list.

    Raises:
        DataError: for an unknown type, an unknown key, a missing key or a value of the wrong type; the message
            names the file, the company and the ability.
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise DataError(f"{where}: company {company}: abilities should be a list of tables, not {raw!r}")
    out: list[Ability] = []
    for i, table in enumerate(raw):
        here = f"{where}: company {company}: ability {i + 1}"
        if not isinstance(table, Mapping):
            raise DataError(f"{here} should be a table with a type, not {table!r}")
        kind_name = table.get("type")
        kind = _TYPES.get(kind_name) if isinstance(kind_name, str) else None
        if kind is None:
            raise DataError(f"{here} has an unknown type {kind_name!r}; types: {', '.join(_TYPES)}")
        reader = _Reader({k: v for k, v in table.items() if k != "type"}, f"{here} ({kind.TYPE})")
        count = reader.integer("count")
        if count is not None and count < 1:
            raise reader.error(f"count should be at least 1, not {count}")
        owner_type = reader.choice("owner_type", OwnerType)
        ability = kind.read(reader)
        reader.done(kind.TYPE, (*kind.KEYS, "count", "owner_type"))
        ability.count = count
        if owner_type is not None:
            ability.owner_type = owner_type
        out.append(ability)
    return out
