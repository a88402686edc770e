"""A replay remembers its steps' answers between two actions (core.memory); it must change nothing."""

from __future__ import annotations

import pytest

from engine.core.memory import replaying
from engine.importer import parse_game_json, read_game_file, replay
from engine.playout import default_players, game_document, random_playout
from engine.replay_check import first_difference
from engine.titles import title_class
from tests.conftest import SHARED_FIXTURES as FIXTURES


@pytest.mark.parametrize("path", ["1882/1882_game_end_stock_market.json", "1828/23366.json", "1822/33845.json"])
def test_a_recorded_game_replays_the_same_with_and_without_the_memory(path: str) -> None:
    gf = read_game_file(FIXTURES / path)
    count, differs = first_difference(gf)
    assert count > 500
    assert differs is None


@pytest.mark.parametrize(("title", "rules"), [("1862", []), ("1830", []), ("1822", ["plus_expansion"])])
def test_a_playout_replays_the_same_with_and_without_the_memory(title: str, rules: list[str]) -> None:
    result = random_playout(title, default_players(title_class(title)), 3, optional_rules=rules, max_actions=400)
    doc = game_document(title, result.game, 3, rules)
    count, differs = first_difference(parse_game_json(doc))
    assert count == len(result.game.raw_actions)
    assert differs is None


def test_the_memory_lasts_only_while_the_game_replays() -> None:
    gf = read_game_file(FIXTURES / "1882" / "5585.json")
    game = replay(gf)
    assert game.round.memory is None  # the caller may change the game now: nothing is remembered
    with replaying(game):
        memory = game.round.memory
        assert memory is not None and memory.game is game
        game.round.settle()
        assert memory.open
        game.round.forget()
        assert not memory.open and not memory.answers
    assert game.round.memory is None


@pytest.mark.parametrize("path", ["1822/33845.json", "1828/1828Games_game_end_stock_market.json", "1830/26855.json"])
def test_a_step_offers_exactly_the_kinds_its_actions_list(path: str) -> None:
    # The stock steps of 1822, 1828 and 1830 answer offers(kind) without listing their actions: at every position
    # of a recorded game, for each player, private and acting entity, the two agree on every action type.
    from engine.core.actions import filter_undo, known_types
    from engine.core.round import Step

    gf = read_game_file(FIXTURES / path)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    kinds = [*known_types(), "buy_company"]
    checked = 0
    for action in filter_undo(gf.actions):
        game._apply(action)
        if game.finished:
            break
        entities = {*game.players, *game.companies.values(), *game.round.active_entities()}
        for step in game.round.steps:
            if type(step).offers is Step.offers:
                continue
            for entity in entities:
                listed = step.actions(entity)
                assert [k for k in kinds if step.offers(entity, k)] == [k for k in kinds if k in listed], (
                    action.get("id"), type(step).__name__, entity)
                checked += 1
    assert checked > 1000
