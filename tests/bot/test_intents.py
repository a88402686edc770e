"""Moves in the command language: every legal engine choice has a command that reads back as that choice."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.console.scripted import Policy, command_intent, next_move
from bot.core.commands import CommandError, parse
from bot.core.intents import deciding_player, to_command, translate
from bot.core.replies import Outcome
from engine import new_game
from engine.core import query


def _new(seed: int = 3) -> Any:
    return new_game("1882", [(1, "alice"), (2, "bob")], seed=seed)


def _advance(game: Any, until: Callable[[Any], bool], seed: int = 3, limit: int = 2000) -> None:
    policy = Policy(seed)
    names = {1: "alice", 2: "bob"}
    for _ in range(limit):
        if until(game):
            return
        assert next_move(game, policy, names) is not None
    pytest.fail("the state was never reached")


def _equivalent(game: Any, a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a == b:
        return True
    if a["type"] != b["type"] or a["entity"] != b["entity"]:
        return False
    if a["type"] in ("buy_train", "discard_train"):
        ta, tb = game.all_trains[a["train"]], game.all_trains[b["train"]]
        return (ta.name, ta.owner, a.get("price"), a.get("exchange")) == (
            tb.name,
            tb.owner,
            b.get("price"),
            b.get("exchange"),
        )
    if a["type"] == "place_token":  # several free slots in one city are the same move
        return (a["city"], a.get("token_type")) == (b["city"], b.get("token_type"))
    return False


@pytest.mark.parametrize("seed", [1, 2])
def test_every_choice_round_trips_through_its_command(seed: int) -> None:
    game = _new(seed)
    policy = Policy(seed)
    rng = random.Random(seed)
    names = {1: "alice", 2: "bob"}
    checked = 0
    kinds: set[str] = set()
    while not game.finished:
        for ent in query.deciding_entities(game):
            player = deciding_player(game, ent)
            options = query.all_choices(game, ent)
            for choice in rng.sample(options, min(4, len(options))):
                text = to_command(game, choice)
                intent = command_intent(game, player, text)
                assert _equivalent(game, intent.action, choice), (text, intent.action, choice)
                checked += 1
                kinds.add(choice["type"])
        if next_move(game, policy, names) is None:
            break
    assert checked > 300
    assert {"bid", "par", "buy_shares", "lay_tile", "run_routes", "dividend", "buy_train", "pass"} <= kinds


def _in_stock_round_with_shares(game: Any) -> bool:
    return game.round.name().startswith("Stock") and any(
        "buy_shares" in game.actions_for(e) for e in game.acting()
    )


def test_near_miss_names_get_a_suggestion() -> None:
    game = _new()
    _advance(game, _in_stock_round_with_shares)
    player = deciding_player(game, game.acting()[0])
    with pytest.raises(CommandError, match=r"no company CRP, did you mean CPR\?") as info:
        translate(game, player, parse("buy CRP"))
    assert info.value.outcome == Outcome.MALFORMED


def test_names_are_case_insensitive() -> None:
    game = _new()
    _advance(game, _in_stock_round_with_shares)
    player = deciding_player(game, game.acting()[0])
    choice = query.choices(game, game.acting()[0], "buy_shares")[0]
    text = to_command(game, choice)
    assert command_intent(game, player, text.lower()).action == choice
    assert command_intent(game, player, text.upper()).action == choice


def test_out_of_turn_and_spectator_are_refused() -> None:
    game = _new()
    acting = deciding_player(game, game.acting()[0])
    other = next(p for p in game.players if p is not acting)
    with pytest.raises(CommandError) as info:
        translate(game, other, parse("pass"))
    assert info.value.outcome == Outcome.NOT_YOUR_TURN
    assert "waiting for" in info.value.message
    with pytest.raises(CommandError) as info:
        translate(game, None, parse("pass"))
    assert info.value.outcome == Outcome.NOT_SEATED


def test_wrong_kind_of_move_lists_what_is_possible() -> None:
    game = _new()
    acting = deciding_player(game, game.acting()[0])
    with pytest.raises(CommandError, match=r"you can: `buy HB`, `bid SC 55`, .*`pass`") as info:
        translate(game, acting, parse("lay E9 57 2"))
    assert info.value.outcome == Outcome.ILLEGAL


def test_bad_numbers_and_missing_arguments_are_malformed() -> None:
    game = _new()
    acting = deciding_player(game, game.acting()[0])
    for text, message in [
        ("bid TB", "not enough to go on"),
        ("bid TB lots", "must be a number"),
        ("bid TB 99999999999999999999", "far too large"),
    ]:
        with pytest.raises(CommandError, match=message) as info:
            translate(game, acting, parse(text))
        assert info.value.outcome == Outcome.MALFORMED


def test_auction_buy_means_the_cheapest_at_face_value() -> None:
    game = _new()
    acting = deciding_player(game, game.acting()[0])
    cheapest = min(game.companies.values(), key=lambda c: c.value)
    action = translate(game, acting, parse(f"buy {cheapest.sym.lower()}")).action
    assert action["type"] == "bid" and action["company"] == cheapest.sym and action["price"] == cheapest.value
    dearest = max(game.companies.values(), key=lambda c: c.value)
    with pytest.raises(CommandError, match="is not sold at a fixed price now, it goes to the highest bid"):
        translate(game, acting, parse(f"buy {dearest.sym}"))


def test_lay_without_rotation_lists_the_legal_ones_and_bad_ones_are_explained() -> None:
    game = _new()
    _advance(game, lambda g: any(len(query.choices(g, e, "lay_tile")) > 3 for e in g.acting()))
    corp = next(e for e in game.acting() if query.choices(game, e, "lay_tile"))
    player = deciding_player(game, corp)
    options = query.choices(game, corp, "lay_tile")
    by_tile: dict[tuple[str, str], set[int]] = {}
    for c in options:
        by_tile.setdefault((c["hex"], c["tile"].rsplit("-", 1)[0]), set()).add(c["rotation"])
    (hex_id, tile), rotations = max(by_tile.items(), key=lambda kv: len(kv[1]))
    if len(rotations) > 1:
        with pytest.raises(CommandError, match="give a rotation"):
            translate(game, player, parse(f"lay {hex_id} {tile}"))
    wrong = next(r for r in range(6) if r not in rotations)
    with pytest.raises(CommandError, match="fits at rotation"):
        translate(game, player, parse(f"lay {hex_id} {tile} {wrong}"))
    with pytest.raises(CommandError, match="no hex Z99"):
        translate(game, player, parse("lay Z99 57 1"))
