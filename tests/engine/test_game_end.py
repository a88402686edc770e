"""End conditions as data: [game_end] is checked when the title loads, and each timing ends the game when
1882's rules (section 12) and 18xx.games say."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import pytest

from engine.core.errors import DataError
from engine.core.game import Game
from engine.core.game_end import EndConditions, EndLatch, EndTiming, EndTrigger, end_now, met
from engine.titles.g1882.game import G1882

REASONS = ("bankrupt", "bank", "stock_market")


class BadData(G1882):
    DATA_PACKAGE = "tests.engine.bad_game_end"


def load_with(monkeypatch: pytest.MonkeyPatch, game_end: object) -> Game:
    data: dict[str, Any] = copy.deepcopy(G1882.data())
    data["game"]["game_end"] = game_end
    monkeypatch.setitem(Game._data_cache, BadData.DATA_PACKAGE, data)
    return BadData([(1, "A"), (2, "B")])


def test_1882_reads_its_end_conditions_in_the_data_order() -> None:
    game = G1882([(1, "A"), (2, "B")])
    assert game.end_conditions == EndConditions((
        EndTrigger("bankrupt", EndTiming.IMMEDIATE),
        EndTrigger("stock_market", EndTiming.CURRENT_ROUND),
        EndTrigger("bank", EndTiming.FULL_OR),
    ))


@pytest.mark.parametrize(("table", "words"), [
    ({"bank_broke": "full_or"}, ["game.toml", "[game_end]", "unknown reason 'bank_broke'",
                                 "bank, bankrupt, stock_market"]),
    ({"bank": "full_set"}, ["[game_end] bank = 'full_set' is not a timing",
                            "immediate, current_round, current_or, full_or, one_more_full_or_set"]),
    ({"bank": 3}, ["[game_end] bank = 3 is not a timing"]),
    ({"lock_first_trigger": "yes"}, ["lock_first_trigger should be true or false"]),
    ("bank", ["[game_end] should be a table"]),
])
def test_bad_end_data_is_refused_when_the_title_loads(monkeypatch: pytest.MonkeyPatch, table: object,
                                                     words: list[str]) -> None:
    with pytest.raises(DataError) as caught:
        load_with(monkeypatch, table)
    for word in words:
        assert word in str(caught.value)


def test_a_title_without_end_conditions_never_ends_by_itself() -> None:
    assert EndConditions.from_data({}, REASONS) == EndConditions()
    assert met(EndConditions(), {}, EndLatch()) is None


# ----------------------------------------------------------------------------- timings


@dataclass
class R:
    kind: str
    number: int = 1


CONDITIONS = EndConditions.from_data({"bankrupt": "immediate", "stock_market": "current_round", "bank": "full_or"},
                                     REASONS)


def trigger(**hit: bool) -> EndTrigger | None:
    return met(CONDITIONS, {r: (lambda r=r: hit.get(r, False)) for r in REASONS}, EndLatch())


def test_the_soonest_met_condition_decides() -> None:
    assert trigger() is None
    assert trigger(bank=True) == ("bank", "full_or")
    assert trigger(bank=True, stock_market=True) == ("stock_market", "current_round")
    assert trigger(bank=True, stock_market=True, bankrupt=True) == ("bankrupt", "immediate")


def test_a_locked_first_trigger_takes_the_first_listed_of_several_met_at_once() -> None:
    # 1822: the bank (full_or) and a price at the end (current_or) in the same payout: the bank ends the game.
    locked = EndConditions((EndTrigger("bank", EndTiming.FULL_OR), EndTrigger("stock_market", EndTiming.CURRENT_OR)),
                           lock_first_trigger=True)
    latch = EndLatch()
    both = {"bank": lambda: True, "stock_market": lambda: True}
    assert met(locked, both, latch) == ("bank", "full_or")
    latch.record(EndTrigger("stock_market", EndTiming.CURRENT_OR), 1)
    assert met(locked, both, latch) == ("stock_market", "current_or")  # once met, it stays


def test_1882_rules_12_timings() -> None:
    latch = EndLatch()
    # A share price at the top right: at the end of that operating round, or of the stock round it rose in.
    assert end_now(EndTiming.CURRENT_ROUND, R("operating", 1), 3, 4, latch)
    assert end_now(EndTiming.CURRENT_ROUND, R("stock"), 3, 4, latch)
    # The bank breaks: after the set of operating rounds in progress, or the next whole set after a stock round.
    assert not end_now(EndTiming.FULL_OR, R("operating", 2), 3, 4, latch)
    assert end_now(EndTiming.FULL_OR, R("operating", 3), 3, 4, latch)
    assert not end_now(EndTiming.FULL_OR, R("stock"), 3, 4, latch)
    # current_or (1822's stock market): the operating round in progress, or the next one.
    assert end_now(EndTiming.CURRENT_OR, R("operating", 1), 3, 4, latch)
    assert not end_now(EndTiming.CURRENT_OR, R("stock"), 3, 4, latch)


def test_one_more_full_set_counts_from_the_turn_it_was_met() -> None:
    latch = EndLatch()
    final_phase = EndTrigger("final_phase", EndTiming.ONE_MORE_FULL_OR_SET)
    latch.record(final_phase, turn=5)
    latch.record(final_phase, turn=6)  # still met a turn later: the last set stays the one of turn 6
    assert latch.final_turn == 6
    assert not end_now(EndTiming.ONE_MORE_FULL_OR_SET, R("operating", 2), 2, 5, latch)
    assert not end_now(EndTiming.ONE_MORE_FULL_OR_SET, R("operating", 1), 2, 6, latch)
    assert end_now(EndTiming.ONE_MORE_FULL_OR_SET, R("operating", 2), 2, 6, latch)
