"""Colours and sizes shared by the map, market and status images.

Sizes are in *logical* pixels, i.e. output pixels at ``scale=1``; drawing happens at
``SUPERSAMPLE`` times that and is scaled down at the end for smooth edges.
"""

from __future__ import annotations

from functools import lru_cache

RGB = tuple[int, int, int]

SUPERSAMPLE = 2

# ----------------------------------------------------------------- palette

BACKGROUND = "#ffffff"
INK = "#1b1b1b"  # text and track
MUTED = "#5f6368"  # coordinates, secondary text
GRID_LINE = "#8a8a80"  # hex outlines
PANEL = "#f4f2ec"  # header / footer strips

# Hex and tile colours, close to the printed games and 18xx.games.
HEX_COLOURS: dict[str, str] = {
    "white": "#efe6cc",
    "yellow": "#fde25a",
    "green": "#7cc36a",
    "brown": "#c9884f",
    "gray": "#b9bbbe",
    "grey": "#b9bbbe",
    "red": "#d94a3d",
    "blue": "#5aa9e6",
}
# Text drawn on a hex of that colour.
HEX_TEXT: dict[str, str] = {"red": "#ffffff", "blue": "#ffffff", "brown": INK}

TRACK = "#1b1b1b"
CITY_FILL = "#ffffff"
WATER = "#2f7fd1"
WATER_TEXT = "#ffffff"
IMPASSABLE = "#8b1a1a"
MOUNTAIN = "#7a5230"
NWR = "#a3231f"
BLOCKED_FILL = "#3c3c3c"
BLOCKED_TEXT = "#ffffff"
NEUTRAL_TOKEN = "#d8d8d8"
HIGHLIGHT_TILE = "#e0119d"
HIGHLIGHT_LAY = "#12a150"  # hexes where the acting company may lay track

# Routes: one colour per train, distinct from the hex colours.
ROUTE_COLOURS = ("#1f4fd6", "#e8590c", "#8e24aa", "#00897b", "#c2185b", "#5d4037")
ROUTE_ALPHA = 140

# Stock market zones.
MARKET_COLOURS: dict[str, str] = {
    "plain": "#f7f3e6",
    "white": "#f7f3e6",
    "yellow": "#fbe67a",
    "orange": "#f6b25e",
    "brown": "#c58a5a",
    "red": "#e57368",
    "gray": "#c8c8c8",
    "blue": "#8fc3ee",
    "green": "#9fd39a",
}
PAR_OUTLINE = "#d11f1f"
END_FILL = "#2b2b2b"
END_TEXT = "#ffffff"

# ----------------------------------------------------------------- map sizes
# Chat clients first show a picture about 800 px wide, roughly half its size: the fonts below are
# the smallest that stay readable there (token names, revenues, tile numbers ~7 px in the preview).

HEX_SIZE = 72.0  # centre to corner
TRACK_WIDTH = 0.115  # fraction of HEX_SIZE
CITY_RADIUS = 0.265
TOWN_DOT = 0.085
REVENUE_RADIUS = 0.165
MAP_MARGIN = 34  # coordinate band around the hexes
MAP_HEADER = 48
MAP_MAX_SIDE = 2400.0  # the map's long side at most, in output pixels
MAP_FOOTER = 40

FONT_COORD = 18
FONT_NAME = 11
FONT_REVENUE = 15  # condensed bold
FONT_LABEL = 18
FONT_TILE = 12
FONT_TOKEN = 15  # condensed bold
FONT_SMALL = 11  # condensed bold: hexside costs, markers
FONT_HEADER = 22
FONT_TEXT = 16

ROUTE_WIDTH = 0.15  # fraction of HEX_SIZE

DESTINATION_RING = "#d4a017"  # 1822's destination stations
COAL = "#222222"  # 1828's coal markers
COAL_TEXT = "#5a3a1a"
INSET_FRAME = "#3f6fb5"  # the frame of an enlarged hex and of its place on the map


def currency_sign(money_format: str) -> str:
    """The sign in front of amounts, from a view's money format ("£%d" gives "£"; "%d ¥" gives "¥").

    Pictures put the sign before the amount in every title, to keep labels short and aligned."""
    if "%d" not in money_format:
        return money_format.strip()
    before, after = money_format.split("%d", 1)
    return before.strip() or after.strip()


@lru_cache(maxsize=512)
def rgb(colour: str) -> RGB:
    """``#rrggbb``/``#rgb`` or a palette name to an RGB triple."""
    c = HEX_COLOURS.get(colour, colour)
    c = c.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    if len(c) != 6:
        return (128, 128, 128)
    try:
        return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))
    except ValueError:
        return (128, 128, 128)


def mix(a: str | RGB, b: str | RGB, t: float) -> RGB:
    """Blend ``a`` toward ``b`` by ``t`` (0 = a, 1 = b)."""
    ra = rgb(a) if isinstance(a, str) else a
    rb = rgb(b) if isinstance(b, str) else b
    return (
        round(ra[0] + (rb[0] - ra[0]) * t),
        round(ra[1] + (rb[1] - ra[1]) * t),
        round(ra[2] + (rb[2] - ra[2]) * t),
    )


def luminance(colour: str | RGB) -> float:
    r, g, b = rgb(colour) if isinstance(colour, str) else colour
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255.0


def readable_on(colour: str | RGB) -> str:
    """Black or white, whichever reads better on ``colour``."""
    return INK if luminance(colour) > 0.55 else "#ffffff"


def hex_fill(colour: str) -> str:
    return HEX_COLOURS.get(colour, colour if colour.startswith("#") else HEX_COLOURS["white"])


def hex_text(colour: str) -> str:
    return HEX_TEXT.get(colour, INK)
