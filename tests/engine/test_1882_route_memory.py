"""1882's memory of routes (rules edition 2): a company that once had a route keeps running and must own a
train after its track is cut off, as on 18xx.games; games begun under edition 1 keep the literal rule 11.5."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.core import query
from engine.core.entities import Corporation
from engine.core.errors import ErrorCode, GameError
from engine.core.game import Game
from engine.core.steps.trains import BuyTrain
from engine.titles.g1882.game import G1882

from .test_1882_emergency import connect, corp_action, edited, gt_operating


def gt_after_its_first_train(edition: int | None) -> tuple[Game, Corporation]:
    """GT floated, its home L8 joined to J8 by track, and its first train bought in its first turn."""
    g = gt_operating(None if edition is None else {"rules_edition": edition})
    gt = g.corporations["GT"]
    connect(g, gt, "L8", "J8")
    edited(g)
    while not isinstance(g.round.active_step(), BuyTrain):
        g.process(corp_action("pass", "GT"))
    g.process(query.choices(g, gt, "buy_train")[0])
    assert gt.trains
    return g, gt


def cut_off(g: Game) -> None:
    """Turn J8's track away from L8, as a re-placed station or a filled city would cut it in play."""
    j8 = g.board["J8"]
    j8.tile.rotation = (j8.tile.rotation + 1) % 6
    g.track.board_changed()


def test_new_games_play_the_newest_edition_and_remember_routes() -> None:
    g, gt = gt_after_its_first_train(None)
    assert g.rules_edition == 2 and "GT" in g.routes_seen
    cut_off(g)
    assert not g.track.network(gt).route_possible
    assert g.trains.route_available(gt)  # its route step still waits for a run (of nothing)
    gt.trains.clear()
    assert g.must_buy_train(gt) and g.president_may_contribute(gt)


def test_edition_1_follows_rule_11_5_literally() -> None:
    g, gt = gt_after_its_first_train(1)
    assert g.routes_seen == set()
    cut_off(g)
    assert not g.trains.route_available(gt)
    gt.trains.clear()
    assert not g.must_buy_train(gt)


def test_the_rebellion_makes_every_company_look_afresh() -> None:
    g, gt = gt_after_its_first_train(2)
    cut_off(g)
    assert isinstance(g, G1882)
    g.event_nwr()
    assert not g.trains.route_available(gt)


def test_an_unknown_edition_is_refused_with_the_editions_there_are() -> None:
    for bad in (0, 3, "2", True):
        with pytest.raises(GameError) as err:
            new_game("1882", [(1, "Ann"), (2, "Bob")], seed=1, options={"rules_edition": bad})
        assert err.value.code is ErrorCode.MALFORMED and "1 to 2" in err.value.message
