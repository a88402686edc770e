"""1822(+): a company that must buy a train always has a way out (1822 reference §7: the director pays, sells, then
borrows for the cheapest train of the bank or the bank pool); issue 28's dead-end shape: a minor with £40 and no
train, its director with £0 and nothing to sell, only a 7-train at £750 on sale."""

from __future__ import annotations

import random

import pytest

from engine.core import query
from engine.core.entities import Corporation, CorporationKind, Player
from engine.core.invariants import forced_purchase_problems, liveness_problems
from engine.playout import _weight, random_playout
from engine.titles.g1822.game import G1822


def minor_at_track(plus: bool) -> G1822:
    """A seeded 1822 game played on until a minor starts its operating turn."""
    game = random_playout("1822", 4, 1, max_actions=150, check=False,
                          optional_rules=["plus_expansion"] if plus else None).game
    assert isinstance(game, G1822)
    rng = random.Random(5)
    for _ in range(3000):
        ent = game.round.entity() if hasattr(game.round, "entity") else None
        step = game.round.active_step()
        if isinstance(ent, Corporation) and ent.kind is CorporationKind.MINOR and step is not None \
                and step.name.lower().startswith("lay track"):
            return game
        options = [o for e in query.deciding_entities(game) for o in query.reference_choices(game, e, limit=200)]
        game.process(rng.choices(options, [_weight(o, "steady") for o in options])[0])
    raise AssertionError("no minor operated")


def dead_end_shape(game: G1822, in_pool: bool) -> tuple[Corporation, Player]:
    minor = game.round.entity()
    assert isinstance(minor, Corporation)
    director = minor.owner
    assert isinstance(director, Player)
    for t in list(minor.trains):
        minor.trains.remove(t)
        t.owner = None
    for corp in game.corporations.values():
        if corp is not minor and corp.owner is director:
            for t in list(corp.trains):
                corp.trains.remove(t)
                t.owner = None
    game.bank.cash += minor.cash - 40 + director.cash
    minor.cash, director.cash = 40, 0
    for share in [s for s in director.shares if s.corp != minor.sym]:
        game.shares.transfer_share(share, game.pool)
    seven = next(t for t in game.depot if t.name == "7")
    for t in list(game.depot):
        game.depot.remove(t)
        t.owner = None
    if in_pool:
        seven.owner = game.pool
        game.pool_trains.append(seven)
    else:
        game.depot.append(seven)
        seven.owner = None
    game._checkpoint = None
    while game.round.active_step().name != "Buy trains":  # type: ignore[union-attr]
        game.process({"type": "pass", "entity": minor.sym, "entity_type": "corporation"})
    return minor, director


@pytest.mark.parametrize("plus", [False, True], ids=["1822", "1822+"])
def test_the_director_borrows_for_the_only_train(plus: bool) -> None:
    game = minor_at_track(plus)
    minor, director = dead_end_shape(game, in_pool=False)
    assert liveness_problems(game) == [] and forced_purchase_problems(game) == []
    offered = query.choices(game, minor, "buy_train")
    seven = next(t for t in game.depot if t.name == "7")
    assert [(a["train"], a["price"]) for a in offered] == [(seven.id, seven.price)]
    assert "pass" not in game.actions_for(minor)
    game.process(offered[0])
    loan = seven.price - 40
    assert seven.owner is minor and minor.cash == 0 and director.cash == 0
    assert director.debt == loan + -(-loan // 2)  # 50% interest, rounded up


def test_the_director_borrows_for_a_train_of_the_bank_pool() -> None:
    """The only train on sale lies in the bank pool: the minor must still buy it (rules edition 4), with the
    director's loan; edition 3 let it end its turn without a train."""
    game = minor_at_track(True)
    minor, director = dead_end_shape(game, in_pool=True)
    assert liveness_problems(game) == [] and forced_purchase_problems(game) == []
    seven = game.pool_trains[0]
    offered = query.choices(game, minor, "buy_train")
    assert [(a["train"], a["price"]) for a in offered] == [(seven.id, seven.price)]
    assert "pass" not in game.actions_for(minor)
    game.process(offered[0])
    assert seven.owner is minor and director.debt == (seven.price - 40) * 3 // 2


def test_edition_3_lets_a_company_pass_the_pool_train() -> None:
    game = minor_at_track(True)
    minor = game.round.entity()
    assert isinstance(minor, Corporation)
    for t in list(minor.trains):
        minor.trains.remove(t)
    seven = next(t for t in game.depot if t.name == "7")
    game.depot.clear()
    seven.owner = game.pool
    game.pool_trains.append(seven)
    assert game.must_buy_train(minor)
    game.rules_edition = 3  # a stored game begun under edition 3 replays as it was played
    assert not game.must_buy_train(minor)
