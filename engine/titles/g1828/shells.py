"""A 1828 system's shells: the two charters of its members, each running its own trains (rules 7.5.4)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.entities import Train


@dataclass(eq=False)
class Shell:
    name: str  # the member company's symbol
    trains: list[Train] = field(default_factory=list)
