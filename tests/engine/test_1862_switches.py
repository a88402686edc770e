"""The spec's configuration switches (§14.2): each optional rule puts one switch in its alternative position."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.core.errors import GameError
from engine.core.tiles import TokenKind
from engine.titles.g1862 import privates, shares
from engine.titles.g1862.game import G1862

from .g1862_helpers import act, choices, player, sell_privates, start


def switched(*rules: str) -> G1862:
    game = new_game("1862", [(i, f"P{i}") for i in range(1, 5)], seed=1, options={"optional_rules": list(rules)})
    assert isinstance(game, G1862)
    return game


def test_every_switch_is_an_optional_rule_and_off_by_default() -> None:
    assert set(G1862.OPTIONAL_RULES) == {"rmc_revenue_20", "no_bonus_hexes", "nyh_par_locked",
                                         "group2_after_group1_floats", "privates_close_on_first_5",
                                         "forced_purchase_always", "price_zero_markers_removed"}
    g = switched()
    assert g.companies["RMC"].revenue == 15
    assert any(hx.bonus for hx in g.board.hexes.values())


def test_rmc_revenue_and_bonus_hexes() -> None:
    g = switched("rmc_revenue_20", "no_bonus_hexes")
    assert g.companies["RMC"].revenue == 20
    assert not any(hx.bonus for hx in g.board.hexes.values())


def test_nyh_par_locked_to_100() -> None:
    g = switched("nyh_par_locked")
    for i, sym in enumerate(("BOM", "ERIE", "B&O", "RMC", "PSC", "FNY", "SOC", "NYSH")):
        price = {"BOM": 20, "ERIE": 40, "B&O": 70, "RMC": 100, "PSC": 150, "FNY": 180, "SOC": 220, "NYSH": 280}[sym]
        act(g, "bid", i % 4 + 1, company=sym, price=price)
    buyer = player(g, 4)
    offered = choices(g, buyer, "par")
    assert offered and all(o["share_price"].startswith("100") for o in offered)
    other = next(cell.text for cell in g.market.par_cells() if cell.price != 100)
    with pytest.raises(GameError, match="locked"):
        act(g, "par", 4, corporation="NYH", share_price=other)
    act(g, "par", 4, corporation="NYH", share_price=offered[0]["share_price"])
    assert g.corporations["NYH"].par_price is not None


def test_group_2_waits_for_group_1_to_float() -> None:
    g = switched("group2_after_group1_floats")
    sell_privates(g)
    for corp in g.groups[1]:
        for share in list(corp.shares):
            g.shares.transfer_share(share, player(g, 1))
    assert not shares.group_open(g, 2)  # sold out, but not every group-1 company has floated
    for corp in g.groups[1]:
        corp.floated = True
    assert shares.group_open(g, 2)


def test_d20_privates_close_when_phase_5_starts() -> None:
    g = switched("privates_close_on_first_5")
    sell_privates(g)
    g.phase_index = 3  # phase 5, as the first 5 train starts it
    g.phase_changed()
    assert all(c.closed for c in g.companies.values())
    assert privates.erie_placed(g)
    assert g.board.hexes["G30"].tile.tokens[0] == ["B&O"]  # the marker stays as a blocker, as in D-13


@pytest.mark.parametrize("always", [False, True])
def test_forced_purchase_without_a_route(always: bool) -> None:
    g = switched(*(["forced_purchase_always"] if always else []))
    sell_privates(g)
    corp = start(g, "ATS", 1, cash=0, col=10)
    assert not g.track.network(corp).route_possible
    assert g.must_buy_train(corp) is always


def test_d21_price_zero_markers_leave_the_map() -> None:
    g = switched("price_zero_markers_removed")
    sell_privates(g)
    q = start(g, "NYC", 1, row=9, col=0, cash=77)
    g.track.place_home_token(q)
    g.pay_dividend(q, 0, "withhold")
    assert q.closed
    tile = g.board.hexes["F31"].tile
    assert "NYC" not in tile.tokens[0] and TokenKind.BLOCKING not in tile.kinds[0]


def test_views_show_bonus_hexes_and_debts() -> None:
    from engine.core import statusbuild, viewbuild
    from rendering import status_text

    g = switched()
    sell_privates(g)
    nyc = start(g, "NYC", 1)
    nyc.debt = 300
    player(g, 2).debt = 120
    bonus = {h.id: h.bonus for h in viewbuild.board_view(g).hexes if h.bonus}
    assert bonus == {"G6": (("yellow", 20), ("brown", 30)), "G12": (("yellow", 20), ("brown", 30)),
                     "F17": (("yellow", 20), ("brown", 30))}
    assert not any(h.bonus for h in viewbuild.board_view(switched("no_bonus_hexes")).hexes)
    text = status_text(statusbuild.status_view(g))
    assert "debt $300" in text and "debt $120" in text
