"""Golden-image comparison for the rendering tests.

Two pictures are compared block by block: both are averaged over blocks of ``BLOCK`` x ``BLOCK`` pixels and the
largest difference of one colour channel in one block must stay within the tolerance. Averaging keeps the ink
that anti-aliasing spreads over neighbouring pixels inside the block, so a different FreeType or Pillow build
(softer edges, glyphs a pixel apart) moves a block's mean a little, while anything a player would see (a station
removed from a hex, a run's line, a tile, a price) changes a whole block a lot. A mean over the whole picture
cannot tell those apart: a missing station moved it by 0.06 on a 0-255 scale.

Refresh the files with ``RENDER_UPDATE_GOLDEN=1 pytest tests/rendering`` and review them before committing. On
failure the new picture and a difference map are written to ``$TMPDIR/roundhouse-golden/``.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageChops

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
UPDATE_ENV = "RENDER_UPDATE_GOLDEN"
BLOCK = 12  # pixels; a station token at the smallest scale in use still fills one block
# Block means on a 0-255 scale. Measured on the golden maps: a one-pixel shift of the whole picture reaches 19,
# a Gaussian blur of 0.6 px 10, text laid out without libraqm 41; a hex without its stations 133 and more, the
# last runs' lines removed 60 and more.
DEFAULT_TOLERANCE = 48.0


@dataclass(frozen=True, slots=True)
class BlockDifference:
    """The block whose mean colour moved most: how far (0-255) and where (its top-left pixel)."""

    value: float
    where: tuple[int, int]


def _padded(img: Image.Image, width: int, height: int) -> Image.Image:
    out = Image.new("RGB", (width, height), (255, 255, 255))
    out.paste(img.convert("RGB"), (0, 0))
    return out


def block_difference(a: Image.Image, b: Image.Image, block: int = BLOCK) -> BlockDifference:
    """The largest difference between the two pictures' block means, over the three channels."""
    if a.size != b.size:
        raise ValueError(f"sizes differ: {a.size} vs {b.size}")
    width = -(-a.size[0] // block) * block
    height = -(-a.size[1] // block) * block
    diff = ImageChops.difference(_padded(a, width, height).reduce(block), _padded(b, width, height).reduce(block))
    red, green, blue = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    value = worst.getextrema()[1]
    assert isinstance(value, int)
    bbox = worst.point(lambda v: 255 if v == value else 0).getbbox() or (0, 0, 0, 0)
    return BlockDifference(float(value), (bbox[0] * block, bbox[1] * block))


def updating() -> bool:
    return os.environ.get(UPDATE_ENV, "") not in ("", "0")


def assert_matches_golden(img: Image.Image, name: str, *, tolerance: float = DEFAULT_TOLERANCE) -> None:
    path = GOLDEN_DIR / f"{name}.png"
    if updating():
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        img.convert("RGB").save(path, optimize=True)
        return
    if not path.exists():
        pytest.fail(f"no golden image {path.name}; create it with {UPDATE_ENV}=1 and review it")
    with Image.open(path) as ref_file:
        ref = ref_file.convert("RGB")
    assert_same_picture(ref, img, name, tolerance=tolerance)


def assert_same_picture(ref: Image.Image, img: Image.Image, name: str, *,
                        tolerance: float = DEFAULT_TOLERANCE) -> None:
    """Fail unless ``img`` shows what ``ref`` shows, up to anti-aliasing."""
    if ref.size != img.size:
        _dump(img, None, name)
        pytest.fail(f"{name}: size {img.size} differs from golden {ref.size}")
    worst = block_difference(ref, img)
    if worst.value > tolerance:
        where = _dump(img, ref, name)
        pytest.fail(f"{name}: the {BLOCK}px block at {worst.where} differs by {worst.value:.0f} > {tolerance:.0f} "
                    f"(new picture in {where})")


def _dump(img: Image.Image, ref: Image.Image | None, name: str) -> Path:
    out = Path(tempfile.gettempdir()) / "roundhouse-golden"
    out.mkdir(exist_ok=True)
    img.convert("RGB").save(out / f"{name}.actual.png")
    if ref is not None:
        ImageChops.difference(ref, img.convert("RGB")).save(out / f"{name}.diff.png")
    return out
