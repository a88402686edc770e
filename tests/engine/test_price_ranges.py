"""Choices whose price a player names (bids, privates bought by a company, trains bought from another company)
carry the range the rules accept, from the step that would take them: the chat layer offers prices from it."""

from __future__ import annotations

from typing import Any

import pytest

from engine import new_game
from engine.core import query
from engine.core.entities import Company, Corporation
from engine.core.errors import GameError
from engine.core.game import Game
from engine.titles.g1882.game import G1882

from .test_1882_emergency import corp_action, cy_sold_for_a_train_cpr_owns, edited, gt_must_buy


def test_a_bid_ranges_from_the_minimum_to_the_cash_not_already_committed() -> None:
    g = new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)
    ann = g.players[0]
    g.process({"type": "bid", "entity": 1, "entity_type": "player", "company": "SC", "price": 55})
    g.process({"type": "pass", "entity": 2, "entity_type": "player"})
    g.process({"type": "pass", "entity": 3, "entity_type": "player"})
    cp_bid = next(c for c in query.choices(g, ann, "bid") if c["company"] == "CP")
    low, high = query.price_range(g, ann, cp_bid) or (0, 0)
    # CP is not the cheapest private, so a bid must beat its face value (the choice suggests the lowest bid).
    assert low == cp_bid["price"] > g.companies["CP"].value
    assert high == ann.cash - 55  # the $55 bid on SC stays committed
    assert query.price_range(g, ann, query.choices(g, ann, "pass")[0]) is None


class OneToTwice(G1882):
    """1882 with 1828's price range for privates."""

    def company_price_range(self, corp: Corporation, company: Company) -> tuple[int, int]:
        return 1, company.value * 2


def company_may_buy_a_private() -> tuple[Game, Corporation, Company]:
    g, gt, _cy = gt_must_buy(to_train_step=False)
    g.phases = [dict(p) for p in g.phases]  # the title's phase table is shared by every game in the process
    g.phases[g.phase_index]["can_buy_companies"] = True
    comp = next(c for c in g.companies.values() if g.runs.company_for_sale(c))
    return g, gt, comp


def test_a_private_costs_half_to_twice_its_face_value_capped_by_the_treasury() -> None:
    g, gt, comp = company_may_buy_a_private()
    gt.cash = comp.value  # less than twice the face value
    edited(g)
    choice = next(c for c in query.choices(g, gt, "buy_company") if c["company"] == comp.sym)
    assert query.price_range(g, gt, choice) == ((comp.value + 1) // 2, comp.value)


def test_a_title_hook_sets_the_private_price_range_for_choices_and_for_legality() -> None:
    g, gt, comp = company_may_buy_a_private()
    g.__class__ = OneToTwice
    gt.cash = 1000
    choice = next(c for c in query.choices(g, gt, "buy_company") if c["company"] == comp.sym)
    assert query.price_range(g, gt, choice) == (1, comp.value * 2)
    with pytest.raises(GameError, match="may be bought for"):
        g.process(corp_action("buy_company", "GT", company=comp.sym, price=comp.value * 2 + 1))
    g.process(corp_action("buy_company", "GT", company=comp.sym, price=1))
    assert g.companies[comp.sym].owner is g.corporations["GT"]


def test_a_train_from_another_company_ranges_up_to_what_the_sale_made_necessary() -> None:
    g, gt, _cy, train = cy_sold_for_a_train_cpr_owns()
    offered: dict[str, Any] = next(c for c in query.choices(g, gt, "buy_train") if c["train"] == train.id)
    assert query.price_range(g, gt, offered) == (71, 80)
    depot = next(c for c in query.choices(g, gt, "buy_train") if c["train"] != train.id)
    assert query.price_range(g, gt, depot) is None
