"""1830's own private powers as ability types (engine/core/abilities.py ``register``): the C&StL's extra lay,
the D&H's lay-and-station in Scranton, the M&H's exchange for an NYC share. Their steps are in powers.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...core.abilities import Ability, OwnerType, register


@dataclass(slots=True, kw_only=True)
class _TilesInHexes(Ability):
    """A power of the owning corporation to lay one of ``tiles`` in one of ``hexes`` (both required)."""

    NAMED: ClassVar[str] = ""  # the type with its article, for the refusal of a table that lacks a key
    KEYS = ("hexes", "tiles")

    hexes: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()
    owner_type: OwnerType | None = OwnerType.CORPORATION

    @classmethod
    def read(cls, reader: Any) -> Ability:
        hexes, tiles = reader.texts("hexes"), reader.texts("tiles")
        if not hexes or not tiles:
            raise reader.error(f"{cls.NAMED} ability needs hexes = [...] and tiles = [...]")
        return cls(hexes=hexes, tiles=tiles)

    def hexes_named(self) -> tuple[str, ...]:
        return self.hexes


@register
@dataclass(slots=True, kw_only=True)
class ExtraLay(_TilesInHexes):
    """Once, at any time in its owning corporation's turn, a lay of one of ``tiles`` in one of ``hexes``, beyond
    the corporation's own lay, with no connection to its track needed; the terrain is paid."""

    TYPE = "extra_lay"
    NAMED = "an extra_lay"


@register
@dataclass(slots=True, kw_only=True)
class Teleport(_TilesInHexes):
    """Once, the owning corporation lays one of ``tiles`` in one of ``hexes`` (still empty) as its lay of the
    turn, off its network, paying the terrain; then it may place a station there at no cost."""

    TYPE = "teleport"
    NAMED = "a teleport"


@register
@dataclass(slots=True, kw_only=True)
class ShareExchange(Ability):
    """The player owning the private may exchange it for one 10% share of ``corporation`` from the IPO or the
    market, which closes the private."""

    TYPE = "share_exchange"
    KEYS = ("corporation",)

    corporation: str = ""
    owner_type: OwnerType | None = OwnerType.PLAYER

    @classmethod
    def read(cls, reader: Any) -> Ability:
        corporation = reader.text("corporation")
        if not corporation:
            raise reader.error("a share_exchange ability needs corporation")
        return cls(corporation=corporation)

    def corporations_named(self) -> tuple[str, ...]:
        return (self.corporation,)
