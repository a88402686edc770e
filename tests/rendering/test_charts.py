"""The history read from a game's log, the charts drawn from it for every title, and the end-of-game summary."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

from engine import new_game
from engine.core.game import Game
from engine.history import GameHistory, Payout, WorthSplit, game_history
from engine.importer import read_game_file, replay
from engine.playout import random_playout
from rendering import theme
from rendering.__main__ import main as cli_main
from rendering.charts import PLAYER_COLOURS, nice_ticks, render_chart
from rendering.summary import PART_COLOURS, duration, fun_numbers, render_summary, summary_text
from tests.conftest import SHARED_FIXTURES

RECORDED = {
    "1882": SHARED_FIXTURES / "1882" / "1882_game_end_stock_market.json",
    "1828": SHARED_FIXTURES / "1828" / "1828Games_game_end_stock_market.json",
    "1822": SHARED_FIXTURES / "1822" / "33845.json",
}


@cache
def recorded(title: str) -> tuple[GameHistory, Game]:
    gf = read_game_file(RECORDED[title])  # fails, not skips, when ../shared/fixtures is missing
    return game_history(new_game(gf.title, gf.players, gf.seed, gf.options), gf.actions), replay(gf)


@cache
def played_1862() -> tuple[GameHistory, Game]:
    """1862 has no recorded game: a short seeded playout, far enough for shares and dividends."""
    result = random_playout("1862", 4, 4, max_actions=600, check=False, policy="steady")
    game = result.game
    fresh = new_game("1862", game.player_specs, game.seed, game.options)
    return game_history(fresh, game.raw_actions), game


def _pixels(img: Image.Image, colour: str) -> int:
    want = theme.rgb(colour)
    return sum(n for n, c in img.getcolors(1 << 22) or () if c == want)


@pytest.mark.parametrize("title", list(RECORDED))
def test_history_samples_every_round_and_ends_as_the_game(title: str) -> None:
    history, game = recorded(title)
    assert history.finished and history.end_reason and history.end_reason != game.game_end_reason  # in words
    assert len(history.rounds) >= 20
    assert history.rounds[-1].startswith("OR") or history.rounds[-1].startswith("SR")
    for series in (*history.values.values(), *history.prices.values()):
        assert len(series) == len(history.rounds)
    # The last sample is the final score, and the split adds up to it.
    result = game.result()
    for p in game.players:
        assert history.values[p.name][-1] == result[str(p.id)]
    for split in history.final:
        assert split.total == result[next(str(p.id) for p in game.players if p.name == split.player)]
        assert split.cash >= 0 and split.shares >= 0 and split.debt >= 0
    assert [s.total for s in history.final] == sorted((s.total for s in history.final), reverse=True)
    # Every company that ended on the market has its price series, ending at its final price.
    for sym, cell in game.market.location.items():
        assert history.prices[sym][-1] == cell.price
    assert {p.kind for p in history.payouts} >= {"payout", "withhold"}
    assert history.moves > 400 and history.longest_hold is not None and history.longest_hold.rounds >= 10


def test_1822_history_has_minors_and_half_payouts() -> None:
    history, _game = recorded("1822")
    minors = {s for s, c in history.companies.items() if c.kind == "minor"}
    assert minors & set(history.prices)
    assert any(p.kind == "half" and p.corp in minors for p in history.payouts)
    assert history.currency.startswith("£")


def test_1828_history_has_systems() -> None:
    history, _game = recorded("1828")
    systems = {s for s, c in history.companies.items() if c.kind == "system"}
    assert systems & set(history.prices)
    assert any(p.corp in systems for p in history.payouts)


def test_1862_history_from_a_playout() -> None:
    history, game = played_1862()
    assert history.title == "1862" and len(history.rounds) >= 3
    assert [history.values[p.name][-1] for p in game.players] == [game.player_value(p) for p in game.players] or \
        not game.finished
    assert history.prices


def test_times_give_each_player_a_median_time_to_move() -> None:
    gf = read_game_file(RECORDED["1882"])
    actions = [dict(a, created_at=0) for a in gf.actions]
    times = [1000.0 + 60.0 * i for i in range(len(actions))]  # one move a minute
    history = game_history(new_game(gf.title, gf.players, gf.seed, gf.options), actions, times)
    assert history.move_seconds and all(v == 60.0 for v in history.move_seconds.values())
    assert history.first_move_at == 1000.0 and history.last_move_at is not None


@pytest.mark.parametrize("title", [*RECORDED, "1862"])
def test_charts_show_players_and_companies_in_their_colours(title: str) -> None:
    history = played_1862()[0] if title == "1862" else recorded(title)[0]
    value = render_chart(history, "value")
    for i in range(len(history.values)):
        assert _pixels(value, PLAYER_COLOURS[i]) > 200, f"player {i} has no line"
    prices = render_chart(history, "prices")
    for sym in history.prices:
        info = history.companies[sym]
        if info.kind != "minor" and theme.luminance(info.colour) <= 0.8:
            assert _pixels(prices, info.colour) > 100, f"{sym} has no line in its colour"
    both = render_chart(history, "all")
    assert both.height > 2.5 * value.height and both.width == value.width


def test_revenue_chart_marks_withheld_payouts() -> None:
    history, _game = recorded("1882")
    paid = replace(history, payouts=tuple(replace(p, kind="payout") for p in history.payouts))
    withheld = render_chart(history, "revenue")
    plain = render_chart(paid, "revenue")
    # The hatching is dark ink over the company colours: the withheld version has more of it.
    assert _pixels(withheld, "#222222") > _pixels(plain, "#222222") + 300


def test_revenue_bars_scale_with_revenue() -> None:
    h = GameHistory("1882", "$%d", ("SR1", "OR1.1", "OR1.2"), {"ann": (0, 0, 0)}, {}, (
        Payout(1, "A", 100, "payout"), Payout(2, "A", 300, "payout")), {}, False, None, (), 3, None, None)
    img = render_chart(h, "revenue")
    cols = [x for x in range(img.width) if img.getpixel((x, img.height - 60)) == theme.rgb("#777777")]
    heights = []
    for x in (cols[0], cols[-1]):
        heights.append(sum(1 for y in range(img.height) if img.getpixel((x, y)) == theme.rgb("#777777")))
    assert 2.5 < heights[1] / heights[0] < 3.5


def test_nice_ticks() -> None:
    assert nice_ticks(0, 4830) == [0, 1000, 2000, 3000, 4000, 5000]
    assert nice_ticks(0, 95) == [0, 20, 40, 60, 80, 100]
    assert nice_ticks(-120, 300)[0] <= -120


# ----------------------------------------------------------------------------- the end-of-game summary


def test_summary_names_the_winner_the_reason_and_the_split() -> None:
    history, game = recorded("1882")
    names = {p.name: f"seat{p.id}" for p in game.players}
    text = summary_text(history, names)
    best = max(game.players, key=game.player_value)
    first = text.splitlines()[0]
    assert first.startswith("1882 is over: a share price reached the end of the market.")
    assert f"seat{best.id} wins with ${game.player_value(best)}" in first
    for p in game.players:
        assert f"seat{p.id} ${game.player_value(p)} (cash ${p.cash}, shares $" in text
    fun = fun_numbers(history, names)
    assert fun.best_run is not None and fun.best_run[1] == max(p.revenue for p in history.payouts)
    assert fun.most_profitable is not None
    for start in ("Best run: ", "Most profitable company: ", "Longest stock hold: seat", f"{history.moves} moves over ",
                  "Median time to move: seat"):
        assert any(line.startswith(start) for line in fun.lines), start


def test_summary_shows_debt_and_minors() -> None:
    history, _game = recorded("1822")
    owing = replace(history, final=(WorthSplit("Player 1", 100, 500, 40, 90), *history.final[1:]))
    assert "Player 1 £550 (cash £100, shares £500, privates £40, debt −£90)" in summary_text(owing)
    assert "minor " in summary_text(history)  # a numbered minor is named as one


def test_summary_card_draws_each_part_in_proportion() -> None:
    history, _game = recorded("1882")
    card = render_summary(history)
    cash = _pixels(card, PART_COLOURS["cash"])
    shares = _pixels(card, PART_COLOURS["shares"])
    total_cash = sum(s.cash for s in history.final)
    total_shares = sum(s.shares for s in history.final)
    assert cash > 0 and shares > 0
    assert abs(cash / shares - total_cash / total_shares) < 0.15 * total_cash / total_shares


def test_durations_read_as_players_say_them() -> None:
    assert [duration(s) for s in (5, 61, 3600, 3660, 90000)] == ["5 s", "1 min", "1 h", "1 h 1 min", "1 day 1 h"]


def test_command_line_draws_the_story_of_a_recorded_game(tmp_path: Path) -> None:
    assert cli_main([str(RECORDED["1882"]), "--story", "--crop", "G11", "--out", str(tmp_path)]) == 0
    for name, width in (("chart", 1200), ("summary", 1200), ("crop", 800)):
        with Image.open(tmp_path / f"{name}.png") as img:
            assert img.width == width
