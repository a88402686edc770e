"""1862, D-22 (rules edition 3): a game in which no company can ever float or operate again ends with the round;
a game in which one still could goes on, and games begun under edition 2 replay as they were played."""

from __future__ import annotations

import signal

from engine import new_game
from engine.core.game_end import end_reason_text
from engine.playout import random_playout
from engine.titles.g1862 import stalemate
from engine.titles.g1862.game import G1862

from .g1862_helpers import act, give, player, sell_privates, stock_round


def frozen_position(*, cash: int = 39, edition: int | None = None, open_private: str | None = None) -> G1862:
    """Every private sold and closed, no company floated; NYH parred at $100 by P4 and fallen to $60; P1 holds a
    10% NYH certificate and ``cash``, the others $10 each. The cheapest certificate of an initial offering is
    NYH's at $100, so with $39 P1 can raise at most $99."""
    options = {"rules_edition": edition} if edition is not None else {}
    game = new_game("1862", [(i, f"P{i}") for i in range(1, 5)], seed=1, options=options)
    assert isinstance(game, G1862)
    sell_privates(game)
    for company in game.companies.values():
        company.closed = company.sym != open_private
    game.market.place("NYH", game.market.cell(7, 7))
    give(game, 1, "NYH_1")
    for p in game.players:
        want = cash if p.id == 1 else 10
        game.bank.cash += p.cash - want
        p.cash = want
    stock_round(game)
    return game


def all_pass(game: G1862) -> None:
    """Every player passes until this stock round is over."""
    stock = game.round
    while not game.finished and game.round is stock:
        act(game, "pass", game.acting()[0].id)


def test_a_frozen_game_ends_when_the_stock_round_ends() -> None:
    game = frozen_position()
    assert stalemate.frozen(game) and not game.finished
    all_pass(game)
    assert game.finished and game.game_end_reason == "frozen"
    assert end_reason_text(game.game_end_reason) == "no company could ever float or operate again"
    # Scored by §10.3: cash plus certificates at their price (NYH at $60; P4's 30% president's certificate $180).
    assert [game.player_value(p) for p in game.players] == [99, 10, 10, 190]


def test_a_player_who_can_pay_for_an_offered_certificate_keeps_the_game_going() -> None:
    game = frozen_position(cash=40)  # a $60 sale brings him to $100: NYH_2 from the initial offering at par
    assert not stalemate.frozen(game)
    turn = game.turn
    all_pass(game)
    assert not game.finished and game.turn > turn  # on to the next stock round


def test_a_private_that_still_pays_keeps_the_game_going() -> None:
    game = frozen_position(open_private="BOM")
    assert not stalemate.frozen(game)
    all_pass(game)
    assert not game.finished


def test_a_floated_company_keeps_the_game_going() -> None:
    game = frozen_position()
    game.corporations["NYH"].floated = True
    assert not stalemate.frozen(game)


def test_an_end_already_due_by_the_rules_keeps_its_name() -> None:
    """With eight companies out (S2's end, due after the next set of operating rounds) the game ends by that
    rule, not as frozen, though nothing could change any more either."""
    game = frozen_position()
    for corp in [c for c in game.corporations.values() if c.sym != "NYH"][:8]:
        corp.closed = True
    all_pass(game)
    assert game.finished and game.game_end_reason == "companies_out"


def test_games_begun_under_edition_2_play_on_as_they_were_played() -> None:
    game = frozen_position(edition=2)
    assert not stalemate.frozen(game)
    all_pass(game)
    assert not game.finished


def test_a_stock_round_nobody_can_act_in_ends_an_edition_2_game_too() -> None:
    """1862-p6-seeker-s120034's actions replayed under edition 2: after its action 772 nobody could act, and the
    engine went round empty stock and operating rounds for ever inside that one action. Edition 2 now ends the
    game there too (no stored game can have got past such a round)."""
    played = random_playout("1862", 6, 120034, policy="seeker").game
    assert played.finished and played.game_end_reason == "frozen" and len(played.raw_actions) == 772

    def hang(signum: int, frame: object) -> None:
        raise TimeoutError("the rounds went round for ever")

    game = new_game("1862", [(i + 1, f"Player {i + 1}") for i in range(6)], seed=120034,
                    options={"rules_edition": 2})
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(120)
    try:
        for action in played.raw_actions:
            game.process(action)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert game.finished and game.game_end_reason == "frozen" and game.rules_edition == 2
    assert isinstance(game, G1862) and game.idle_stock_rounds == 1


def test_a_presidency_that_could_pass_is_not_frozen() -> None:
    """NYH's president's certificate is 30%: a player who could pay for four certificates at the $60 the price
    can fall to could take the presidency, and the certificate would become sellable."""
    game = frozen_position()
    nyh = game.corporations["NYH"]
    players = [p for p in game.players if not p.bankrupt]
    assert not stalemate.presidency_open(game, nyh, players, {p.id: 180 for p in players})
    assert stalemate.presidency_open(game, nyh, players, {p.id: 240 for p in players})
    assert player(game, 4).shares_of("NYH")[0].percent == 30


def test_the_seeded_game_that_never_ended_ends_frozen() -> None:
    """1862-p6-seeker-s120010 ran 5,000 actions to Stock Round 1267 with nothing left that could change."""
    result = random_playout("1862", 6, 120010, policy="seeker")
    assert not result.problems
    assert result.game.finished and result.game.game_end_reason == "frozen"
