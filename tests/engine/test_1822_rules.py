"""1822 rules checked against 18xx.games' behaviour: the bank's end, the tax haven (P16)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import actions as act
from engine.importer import read_game_file
from engine.titles import title_class
from engine.titles.g1822.game import G1822
from tests.conftest import recorded_games

PLUS_GAME = next((p for p in recorded_games("1822") if p.stem == "33845"), None)


def recorded_until(action_id: int) -> tuple[G1822, list[dict[str, Any]]]:
    """The recorded 1822+ game with its standing actions before ``action_id`` applied, and the rest."""
    if PLUS_GAME is None:
        pytest.skip("the recorded 1822+ game is absent")
    gf = read_game_file(PLUS_GAME)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    assert isinstance(game, G1822)
    standing = act.filter_undo(gf.actions)
    for n, action in enumerate(standing):
        if int(action["id"]) >= action_id:
            return game, standing[n:]
        game._apply(action)
    return game, []


def play_on(game: G1822, rest: list[dict[str, Any]], until_id: int | None = None) -> int:
    """Apply (and take off ``rest``) the recorded actions until the game ends or ``until_id`` is next; the
    last id applied."""
    last = 0
    while rest and not game.finished and (until_id is None or int(rest[0]["id"]) < until_id):
        action = rest.pop(0)
        game._apply(action)
        last = int(action["id"])
    return last


# ---------------------------------------------------------------------------------------------- the bank's end
# OR 10.1 of the recorded game runs from action 1577 to NER's pass after its dividend (1642); OR 10.2 ends
# with NER's pass at 1691.

def test_a_bank_paid_down_to_nothing_is_not_broken() -> None:
    game, rest = recorded_until(1582)  # LNWR's payout, the first dividend of OR 10.1
    before = game.bank.cash
    play_on(game, rest, 1583)
    paid = before - game.bank.cash
    assert paid > 0

    game, rest = recorded_until(1582)
    game.bank.cash = paid
    play_on(game, rest, 1583)
    assert game.bank.cash == 0 and not game.bank.broken
    assert game.game_end_timing() is None


def test_a_bank_broken_in_an_operating_round_pays_in_full_and_ends_after_the_set() -> None:
    game, rest = recorded_until(1582)
    game.bank.cash = 10
    lnwr = game.corporation("LNWR")
    holders_before = sum(p.cash for p in game.players) + lnwr.cash
    play_on(game, rest, 1583)
    assert game.bank.broken and game.bank.cash < 0
    assert sum(p.cash for p in game.players) + lnwr.cash - holders_before == 10 - game.bank.cash
    last = play_on(game, rest, 1643)
    assert last == 1642 and not game.finished  # OR 10.1 is over; the set has OR 10.2 still to run
    assert (game.round.kind, game.round.number) == ("operating", 2)
    assert play_on(game, rest) == 1691
    assert game.finished and game.game_end_reason == "bank"


def test_a_bank_broken_in_a_stock_round_ends_the_game_after_the_next_operating_round() -> None:
    game, rest = recorded_until(1571)  # the stock round of turn 10
    assert game.round.kind == "stock"
    game.bank.withdraw(game.bank.cash + 1)
    assert game.bank.broken
    assert play_on(game, rest) == 1642  # the end of OR 10.1, not of the set
    assert game.finished and game.game_end_reason == "bank"
