"""The engine's events say what each action did: they account for every change of state (reconciliation over
seeded playouts), and the events that name a move's meaning carry the details the rules decided."""

from __future__ import annotations

import json

import pytest

from engine.core import events as ev
from engine.importer import parse_game_json, replay
from engine.reconcile import check_action, ledger, main, reconcile_game
from engine.titles import title_class
from engine.titles.g1862.bankruptcy import remove_corporation
from tests.conftest import SHARED_FIXTURES

CONFIGS = [("1882", []), ("1828", []), ("1822", []), ("1822", ["plus_expansion"]), ("1862", []), ("1830", [])]


@pytest.mark.parametrize(("title", "rules"), CONFIGS, ids=["1882", "1828", "1822", "1822+", "1862", "1830"])
@pytest.mark.parametrize("seed", [11, 12])
def test_every_action_of_a_seeded_game_is_accounted_for_by_its_events(title: str, rules: list[str],
                                                                        seed: int) -> None:
    check = reconcile_game(title, 4 if title != "1822" or rules else 3, seed, optional_rules=rules)
    assert check.mismatch is None, check.mismatch
    assert check.actions > 100


def test_a_change_no_event_names_is_a_mismatch() -> None:
    game = title_class("1882")([(1, "a"), (2, "b"), (3, "c")], 1)
    before = ledger(game)
    game.players[0].cash += 5  # a change of state that no event describes
    found = check_action(before, ev.Outcome(()), game)
    cash = game.players[0].cash
    assert found == [f"cash of player:1: events say {cash - 5}, state says {cash}"]


def test_reconcile_prints_its_summary_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["1882", "1", "5"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1882: 1/1 games reconcile (first mismatch: none)"


def _recorded(title: str, name: str, count: int) -> object:
    path = SHARED_FIXTURES / title / name
    doc = json.loads(path.read_text("utf-8"))  # a missing fixture fails the test
    return replay(parse_game_json({**doc, "actions": doc["actions"][:count]})), doc["actions"][count]


def test_1822_half_payout_names_each_holders_part_and_what_the_company_keeps() -> None:
    path = SHARED_FIXTURES / "1822" / "33845.json"
    actions = json.loads(path.read_text("utf-8"))["actions"]
    index = next(i for i, a in enumerate(actions) if a["type"] == "dividend" and a.get("kind") == "half")
    game, action = _recorded("1822", "33845.json", index)
    cash = {p.id: p.cash for p in game.players}  # type: ignore[attr-defined]
    outcome = game.process(action)  # type: ignore[attr-defined]
    paid = outcome.of(ev.DividendPaid)
    assert len(paid) == 1
    dividend = paid[0]
    assert dividend.kind is ev.DividendKind.HALF
    assert dividend.kept > 0 and dividend.parts
    gained = {p.id: p.cash - cash[p.id] for p in game.players if p.cash != cash[p.id]}  # type: ignore[attr-defined]
    assert {int(part.holder.key): part.amount for part in dividend.parts
            if part.holder.kind is ev.PartyKind.PLAYER} == gained


def test_1862_a_company_leaving_the_game_takes_its_trains_without_rusting() -> None:
    game = title_class("1862")([(1, "a"), (2, "b"), (3, "c"), (4, "d")], 3)
    corp = next(iter(game.corporations.values()))
    train = game.depot[0]
    game.depot.remove(train)
    train.owner = corp
    corp.trains.append(train)
    with ev.recording() as events:
        remove_corporation(game, corp, compensate=False)  # type: ignore[arg-type]
    moved = [e for e in events if isinstance(e, ev.TrainMoved)]
    assert [(m.train, m.how) for m in moved] == [(train.id, ev.TrainHow.LEFT)]
    assert any(isinstance(e, ev.CompanyClosed) and e.corp == corp.sym for e in events)


def test_game_end_scores_split_debt_from_shares_and_say_the_reason_in_words() -> None:
    game = title_class("1822")([(1, "a"), (2, "b"), (3, "c")], 1)
    game.players[0].debt = 120
    with ev.recording() as events:
        game.end_game("players_out")
    ended = next(e for e in events if isinstance(e, ev.GameEnded))
    score = ended.scores[0]
    assert (score.cash, score.shares, score.debt) == (game.players[0].cash, 0, 120)
    assert score.total == game.player_value(game.players[0])
    assert ended.reason_text == "too few players were left in the game"
