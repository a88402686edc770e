"""The bot offers exactly what the engine allows (``bot.conformance``), on a few seeds per title, and the
positions the newcomer play-test found stuck."""

from __future__ import annotations

import random

import pytest

from bot.conformance import main, play_checked, same_move
from bot.console.scripted import command_intent
from bot.core.intents import listed_moves
from engine.core import query
from engine.core.entities import Corporation, Player
from engine.playout import _weight
from engine.titles import title_class


@pytest.mark.parametrize(
    ("title", "players", "seed", "rules"),
    [("1882", 3, 1, []), ("1828", 3, 1, []), ("1862", 4, 1, []), ("1822", 3, 2, []),
     ("1822", 3, 1, ["plus_expansion"]), ("1830", 4, 1, [])],
)
def test_every_listed_move_is_accepted_and_every_legal_action_listed(
    title: str, players: int, seed: int, rules: list[str]
) -> None:
    report = play_checked(title, players, seed, optional_rules=rules, max_actions=400)
    assert report.failures == []
    assert report.positions > 100 and report.commands > report.positions


def test_the_proof_command_prints_its_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["1882", "1", "3", "--max-actions", "60", "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1882: 1/1 games conform (first failure: none)"
    assert main(["1822", "1", "3", "--optional-rules", "plus"]) == 2


def _short_of_money(game: object, corp: Corporation) -> bool:
    owner = corp.owner
    cheapest = game.trains.cheapest_train_on_sale()  # type: ignore[attr-defined]
    return (isinstance(owner, Player) and cheapest is not None and game.must_buy_train(corp)  # type: ignore[attr-defined]
            and corp.cash + owner.cash < cheapest.price
            and not game.runs.emergency_bundles(owner, corp))  # type: ignore[attr-defined]


def test_1822_minor_whose_director_cannot_pay_is_offered_the_depot_train_on_a_loan() -> None:
    """F1: a minor that must buy a train its director cannot pay for, while another company holds a train, was
    offered only `train NAME from CORP PRICE`; `train 3` (the depot's, with the director's loan) was refused."""
    rng = random.Random(1)
    game = title_class("1822")([(i + 1, f"Player {i + 1}") for i in range(3)], 1, None)
    seen = 0
    for _ in range(900):
        for corp in [e for e in game.acting() if isinstance(e, Corporation)]:
            if "buy_train" in game.actions_for(corp) and _short_of_money(game, corp):
                cheapest = game.trains.cheapest_train_on_sale()
                owner = corp.owner
                assert isinstance(owner, Player) and cheapest is not None
                listed = [m for m in listed_moves(game, owner) if m.entity is corp]
                assert f"train {cheapest.name}" in [m.command for m in listed], [m.command for m in listed]
                intent = command_intent(game, owner, f"train {cheapest.name}")
                assert intent.action["train"] == cheapest.id or same_move(
                    game, intent.action, next(m.action for m in listed if m.command == f"train {cheapest.name}"))
                seen += 1
        if seen >= 3 or game.finished:
            break
        options = [c for e in query.deciding_entities(game) for c in query.reference_choices(game, e)]
        game.process(rng.choices(options, [_weight(o, "random") for o in options])[0])
    assert seen >= 3, "the playout never reached a minor short of money for its train"


def test_autocomplete_and_buttons_are_checked_against_the_listed_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check 5: an autocomplete entry or a button that reads back to something else is a failure, and the
    enumeration autocomplete offers is the listed moves' spellings."""
    from bot.core import choices
    from bot.core.replies import Button

    report = play_checked("1882", 3, 1, max_actions=30)
    assert report.failures == []
    assert choices.complete([("buy", "CPR"), ("buy", "CPR", "pool"), ("bid", "NWR", "20")], "buy", ["CPR"]) == ["pool"]

    def stray_button(game: object, players: object, at: int) -> list[Button]:
        return [Button("Buy 1 XYZ", f"@{at} buy XYZ", "primary")]

    monkeypatch.setattr(choices, "move_buttons", stray_button)
    report = play_checked("1882", 3, 1, max_actions=30)
    assert report.failures and "button 'Buy 1 XYZ' sends `buy XYZ`, which no listed move spells" in report.failures[0]
    monkeypatch.undo()
    monkeypatch.setattr(choices, "complete", lambda *args, **kwargs: [])
    report = play_checked("1882", 3, 1, max_actions=30)
    assert report.failures and "autocomplete does not offer" in report.failures[0]
