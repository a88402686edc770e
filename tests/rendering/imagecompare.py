"""Golden-image comparison for the rendering tests.

Images are compared to PNG files under ``tests/rendering/golden/`` by their mean absolute
difference per channel (0-255), so that small anti-aliasing or FreeType changes pass while a moved
hex or a missing token fails. Refresh the files with ``RENDER_UPDATE_GOLDEN=1 pytest tests/rendering``
and review them before committing. On failure the new picture and a difference map are written to
``$TMPDIR/roundhouse-golden/``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
UPDATE_ENV = "RENDER_UPDATE_GOLDEN"
DEFAULT_TOLERANCE = 1.0  # mean absolute difference, 0-255 scale


def updating() -> bool:
    return os.environ.get(UPDATE_ENV, "") not in ("", "0")


def mean_abs_diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute per-channel difference of two RGB images of the same size."""
    if a.size != b.size:
        raise ValueError(f"sizes differ: {a.size} vs {b.size}")
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3.0


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
    if ref.size != img.size:
        _dump(img, None, name)
        pytest.fail(f"{name}: size {img.size} differs from golden {ref.size}")
    mad = mean_abs_diff(ref, img)
    if mad > tolerance:
        where = _dump(img, ref, name)
        pytest.fail(f"{name}: mean abs difference {mad:.3f} > {tolerance} (new picture in {where})")


def _dump(img: Image.Image, ref: Image.Image | None, name: str) -> Path:
    out = Path(tempfile.gettempdir()) / "roundhouse-golden"
    out.mkdir(exist_ok=True)
    img.convert("RGB").save(out / f"{name}.actual.png")
    if ref is not None:
        ImageChops.difference(ref, img.convert("RGB")).save(out / f"{name}.diff.png")
    return out
