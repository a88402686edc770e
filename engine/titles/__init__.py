"""Registered titles. Each entry maps the title name (as 18xx.games spells it) to its game class."""

from __future__ import annotations

from ..core.game import Game
from .g1822.game import G1822
from .g1862.game import G1862
from .g1882.game import G1882

TITLES: dict[str, type[Game]] = {
    "1882": G1882,
    "1822": G1822,
    "1862": G1862,
}


def title_class(name: str) -> type[Game]:
    from ..core.errors import malformed

    key = str(name).strip()
    if key in TITLES:
        return TITLES[key]
    squashed = "".join(ch for ch in key if ch.isalnum()).lower()
    for title, cls in TITLES.items():
        if "".join(ch for ch in title if ch.isalnum()).lower() == squashed:
            return cls
    raise malformed(f"unknown title {name!r}; available: {', '.join(TITLES)}")
