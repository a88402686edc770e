"""TrueType fonts shipped with the package (DejaVu Sans, see ``fonts/LICENSE-DejaVu.txt``)."""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
# Narrow bold for labels that must fit a small disc (station tokens, revenues, market markers).
CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"
# Used only when the packaged copies went missing (for example a stripped install).
_SYSTEM_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/TTF"))


def font_path(bold: bool = False, condensed: bool = False) -> Path:
    """Path of the regular, bold or condensed bold TTF, preferring the copy inside the package.

    Raises:
        FileNotFoundError: neither the packaged nor a system copy exists.
    """
    name = CONDENSED_BOLD if condensed else BOLD if bold else REGULAR
    for folder in (FONT_DIR, *_SYSTEM_DIRS):
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"font {name} is missing from {FONT_DIR}")


_local = threading.local()


def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The DejaVu Sans font at ``size`` pixels (``condensed`` is always bold).

    Fonts are cached per thread: loading a TTF costs about a millisecond, and a FreeType face
    must not be used by two threads at once (the bot renders in ``asyncio.to_thread`` workers).
    """
    cache: dict[tuple[int, bool, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (max(1, int(size)), bold or condensed, condensed)
    f = cache.get(key)
    if f is None:
        f = cache[key] = ImageFont.truetype(str(font_path(key[1], condensed)), key[0])
    return f
