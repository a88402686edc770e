"""1828 rules no seeded game happened to reach (engine.rule_coverage lists them): a company's purchase of a
private refused by phase, owner, price and treasury (rules 13.2)."""

from __future__ import annotations

import pytest

from engine.core.errors import GameError
from engine.titles import title_class
from engine.titles.g1828.game import G1828


def test_a_company_buys_a_private_from_green_from_a_player_for_1_to_twice_its_value_within_its_treasury() -> None:
    g = title_class("1828")([(1, "a"), (2, "b"), (3, "c")], 5, {})
    assert isinstance(g, G1828)
    corp = g.corporations["NYC"]
    g.bank.spend(100, corp)
    dh = g.companies["D&H"]  # face value $80
    with pytest.raises(GameError, match="companies cannot buy privates in phase Yellow"):
        g.runs.corporation_buys_company(corp, dh, 80)
    g.phase_index = next(i for i, p in enumerate(g.phases) if p.get("can_buy_companies"))
    with pytest.raises(GameError, match="D&H is not owned by a player"):  # no player owns it yet
        g.runs.corporation_buys_company(corp, dh, 80)
    dh.owner = g.players[0]
    g.players[0].companies.append(dh)
    with pytest.raises(GameError, match="D&H may be bought for \\$1 to \\$160"):
        g.runs.corporation_buys_company(corp, dh, 161)
    with pytest.raises(GameError, match="NYC cannot pay \\$150: treasury \\$100"):
        g.runs.corporation_buys_company(corp, dh, 150)
    seller_cash = g.players[0].cash
    g.runs.corporation_buys_company(corp, dh, 1)
    assert dh.owner is corp and corp.cash == 99 and g.players[0].cash == seller_cash + 1
