"""Deterministic random numbers, identical to the generator 18xx.games seeds from a game's seed.

Recorded games depend on every draw, so each title must draw in the same order as that site.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

_MOD = 2**31


class Lcg:
    """Linear congruential generator (1103515245, 12345, 2**31)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed % _MOD

    def next(self) -> int:
        self.state = (1103515245 * self.state + 12345) % _MOD
        return self.state

    def shuffled(self, items: list[T]) -> list[T]:
        """Order items by one fresh draw each, drawn in list order (like a keyed random sort)."""
        keys = [self.next() for _ in items]
        return [items[i] for _, i in sorted((k, i) for i, k in enumerate(keys))]
