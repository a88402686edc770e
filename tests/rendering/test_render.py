"""The public rendering API: sizes, modes, PNG output, text status and robustness."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

import engine
from engine.core.statusbuild import status_view
from engine.core.viewbuild import board_view, market_view
from engine.core.views import BoardView, HexsideView, HexView, NodeView, PathView
from rendering import MAX_PNG_BYTES, render_map, render_market, render_status, status_text, to_png
from rendering.fonts import BOLD, CONDENSED_BOLD, FONT_DIR, REGULAR, font
from tests.rendering.boards import (
    MAP_1882,
    feature_board,
    late_game_1882,
    lay,
    load_board,
    market_1882,
    parse_tile,
    status_1882,
)
from tests.rendering.imagecompare import DEFAULT_TOLERANCE, block_difference

ENGINE_MAP_1882 = Path(engine.__file__).resolve().parent / "titles" / "g1882" / "map.toml"


@pytest.fixture(scope="module")
def late() -> BoardView:
    return late_game_1882()


@pytest.fixture(scope="module")
def late_img(late: BoardView) -> Image.Image:
    return render_map(late)


def test_fonts_are_shipped_with_the_package() -> None:
    assert (FONT_DIR / REGULAR).is_file() and (FONT_DIR / BOLD).is_file() and (FONT_DIR / CONDENSED_BOLD).is_file()
    assert any(p.name.startswith("LICENSE") for p in FONT_DIR.iterdir())
    assert font(12).path.startswith(str(FONT_DIR))  # type: ignore[union-attr]
    assert font(12, condensed=True).path.endswith(CONDENSED_BOLD)  # type: ignore[union-attr]


def test_late_game_map_is_big_enough_and_small_enough(late_img: Image.Image) -> None:
    assert late_img.mode == "RGB"
    assert max(late_img.size) >= 1200
    png = to_png(late_img)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) <= MAX_PNG_BYTES
    with Image.open(io.BytesIO(png)) as back:
        assert back.size == late_img.size


def test_to_png_keeps_the_picture(late_img: Image.Image) -> None:
    with Image.open(io.BytesIO(to_png(late_img))) as back:
        assert block_difference(back.convert("RGB"), late_img).value < DEFAULT_TOLERANCE / 4
    exact = to_png(late_img, palette=False)
    with Image.open(io.BytesIO(exact)) as back:
        assert block_difference(back.convert("RGB"), late_img).value == 0


def test_to_png_shrinks_to_the_limit() -> None:
    noise = Image.effect_noise((400, 400), 90).convert("RGB")
    data = to_png(noise, max_bytes=60_000)
    assert len(data) <= 60_000
    with pytest.raises(ValueError):
        to_png(noise, max_bytes=10)


def test_scale_changes_the_size(late: BoardView, late_img: Image.Image) -> None:
    half = render_map(late, scale=0.5)
    assert abs(half.width - late_img.width / 2) <= 1 and abs(half.height - late_img.height / 2) <= 1
    with pytest.raises(ValueError):
        render_map(late, scale=0)


def test_highlight_switch(late: BoardView) -> None:
    on = render_map(late, scale=0.4)
    off = render_map(late, scale=0.4, highlight=False)
    assert on.size == off.size
    assert block_difference(on, off).value > DEFAULT_TOLERANCE / 2  # thin lines at this small scale
    assert block_difference(off, render_map(replace(late, last_routes=(), last_tile_hex=None), scale=0.4)).value == 0


def test_render_is_deterministic() -> None:
    board = feature_board()
    assert render_map(board).tobytes() == render_map(board).tobytes()


def test_printed_board_from_test_data_and_pointy_board_render() -> None:
    img = render_map(load_board(MAP_1882), scale=0.5)
    assert img.mode == "RGB" and img.width > 600
    pointy = render_map(feature_board("pointy"), scale=0.5)
    assert pointy.height > pointy.width  # pointy rows stack more steeply than flat ones


def test_engine_1882_map_renders() -> None:
    img = render_map(load_board(ENGINE_MAP_1882), scale=0.5)
    assert img.width > 600


def test_engine_views_render() -> None:
    game = engine.new_game("1882", [(1, "Ann"), (2, "Ben"), (3, "Cy")])
    assert max(render_map(board_view(game)).size) >= 1200
    render_market(market_view(game))
    render_status(status_view(game))
    assert status_text(status_view(game))


def test_empty_and_odd_boards_do_not_crash() -> None:
    assert render_map(BoardView("empty", "flat", "rows", ())).size[0] >= 640
    odd = HexView(
        "A1", 0, 1, "purple",
        nodes=(NodeView(0, "city", 20, slots=7, tokens=("X",) * 3), NodeView(5, "junction", 0),
               NodeView(6, "offboard", 10)),
        paths=(PathView("e0", "n0"), PathView("n9", "e2"), PathView("bogus", "e1"), PathView("e3", "e3"),
               PathView("n0", "n5"), PathView("e4", "n6")),
        label="Y", terrain_kind="swamp", terrain_cost=20, tags=("unknown", "nwr", "fishing"), blocked_by="P9",
        tile="X99", name="A rather long name that will not fit anywhere at all",
    )
    # A hexside to a hex that is not on the board is ignored.
    sides = (HexsideView("A1", "Z9", "water", 10),)
    img = render_map(BoardView("odd", "pointy", "columns", (odd,), hexsides=sides))
    assert img.mode == "RGB"


def test_every_1882_tile_renders_at_every_rotation() -> None:
    from tests.rendering.boards import TILES_1882

    hexes = []
    for i, name in enumerate(TILES_1882):
        for r in range(6):
            # One row of six rotations per tile, on valid doubled coordinates.
            row, col = 4 * i + r % 2, 2 * r + r % 2 * 0
            hexes.append(lay(HexView(f"T{i}R{r}", row, col + row % 2, "white"), name, r))
    img = render_map(BoardView("tiles", "flat", "rows", tuple(hexes)), scale=0.2)
    assert img.width > 0


def test_parse_tile_helper() -> None:
    t = parse_tile("green c30x2 0-n0 1-n0 3-n0 4-n0 label:OO")
    assert t.colour == "green" and t.nodes == (("city", 30, 2),) and t.label == "OO"
    assert t.paths[0] == ("e0", "n0")
    with pytest.raises(ValueError):
        parse_tile("green q5")


def test_market_image() -> None:
    img = render_market(market_1882())
    assert img.mode == "RGB" and max(img.size) >= 1200
    assert len(to_png(img)) <= MAX_PNG_BYTES
    crowded = render_market(market_1882({(3, 3): ("CPR", "GT", "HBR", "CNR", "QLL", "SC", "CN")}))
    assert crowded.size == img.size


def test_status_image_and_text() -> None:
    view = status_1882()
    img = render_status(view)
    assert img.mode == "RGB" and max(img.size) >= 1200
    text = status_text(view)
    for name in ("Alice", "Bob", "Chandra", "Dmitri", "CPR", "Phase 5", "$3,120"):
        assert name in text
    assert "Waiting for: Bob (HBR)" in text
    assert "> Bob" in text  # the acting player is marked
    done = replace(view, finished=True, game_end_reason="bank broken", acting=())
    assert "Game over: bank broken" in status_text(done)
    assert render_status(done).size[0] == img.size[0]
    empty = replace(view, players=(), corporations=(), trains_available=(), pool_trains=())
    assert render_status(empty).mode == "RGB"
    assert "Bank broken (-$2,936)" in status_text(replace(view, bank_cash=-2936))
    assert "Bank $3,120" in status_text(replace(view, bank_cash=3120))


def test_rendering_in_threads_gives_the_same_pictures() -> None:
    from concurrent.futures import ThreadPoolExecutor

    board = feature_board()
    expected = render_map(board, scale=0.5).tobytes()
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: render_map(board, scale=0.5).tobytes(), range(8)))
    assert all(r == expected for r in results)


def test_long_names_are_clipped_on_the_status_card() -> None:
    view = status_1882()
    long = replace(view.players[0], name="Maximilian Alexander von Longname-Smythe the Third")
    img = render_status(replace(view, players=(long, *view.players[1:])))
    assert img.size == render_status(view).size
