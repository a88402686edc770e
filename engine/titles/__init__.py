"""Registered titles. Each entry maps the title name (as 18xx.games spells it) to its game class."""

from __future__ import annotations

from ..core.game import Game
from .g1822.game import G1822
from .g1828.game import G1828
from .g1830.game import G1830
from .g1862.game import G1862
from .g1882.game import G1882

TITLES: dict[str, type[Game]] = {
    "1882": G1882,
    "1822": G1822,
    "1862": G1862,
    "1828": G1828,
    "1830": G1830,
}
# Names 18xx.games gives titles that differ from ours: its documents map to our title, and exports write them.
ALIASES: dict[str, str] = {
    "1828.Games": "1828",
}


def title_class(name: str) -> type[Game]:
    from ..core.errors import malformed

    key = str(name).strip()
    key = ALIASES.get(key, key)
    if key in TITLES:
        return TITLES[key]
    squashed = "".join(ch for ch in key if ch.isalnum()).lower()
    for title, cls in TITLES.items():
        if "".join(ch for ch in title if ch.isalnum()).lower() == squashed:
            return cls
    raise malformed(f"unknown title {name!r}; available: {', '.join(TITLES)}")


def export_title(name: str) -> str:
    """The name 18xx.games gives our title ``name`` (what exports write): ``1828`` is ``1828.Games``."""
    for theirs, ours in ALIASES.items():
        if ours == name:
            return theirs
    return name
