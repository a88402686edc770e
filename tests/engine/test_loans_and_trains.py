"""Loans and debts as entity data, train variants and trains outside the limit, several homes, token kinds."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import loans
from engine.core.config import LoanRules, TitleConfig
from engine.core.entities import Corporation, Token, Train
from engine.core.errors import GameError
from engine.core.invariants import problems, total_money, total_owed
from engine.core.play_trains import train_variants
from engine.core.tiles import TokenKind
from engine.fingerprint import train_id
from engine.titles.g1882.game import G1882

RULES = LoanRules(size=100, interest_percent=10, limit=2)


def game() -> G1882:
    return G1882([(1, "A"), (2, "B"), (3, "C")], seed=1)


def test_a_company_loan_of_the_titles_size_is_a_liability() -> None:
    g = game()
    g.config = TitleConfig(loans=RULES)
    money = total_money(g)
    corp = g.corporations["CPR"]
    corp.loans = 2
    assert g.shares.liabilities(corp) == 200 and total_owed(g) == 200
    assert problems(g, money) == []
    corp.loans = 3
    assert any("over the limit" in p for p in problems(g, money))


def test_interest_rounds_up() -> None:
    assert LoanRules(size=50, interest_percent=5).interest(3) == 8  # 7.5 rounds up


def test_a_players_debt_is_subtracted_from_their_value() -> None:
    g = game()
    money = total_money(g)
    player = g.players[0]
    worth = g.player_value(player)
    loans.lend(g.bank, player, 150)
    assert player.debt == 150 and total_money(g) == money
    assert g.player_value(player) == worth  # 150 more cash, 150 owed
    loans.repay_debt(g.bank, player, 100)
    assert player.debt == 50 and g.player_value(player) == worth
    player.cash -= 60
    g.bank.cash += 60
    assert g.player_value(player) == worth - 60
    with pytest.raises(GameError):
        loans.repay_debt(g.bank, player, 51)


def test_a_loan_may_owe_more_than_it_lends() -> None:
    g = game()
    money = total_money(g)
    player = g.players[0]
    loans.lend(g.bank, player, 40, owed=60, what="loan")  # 1822's director's loan at 50% interest
    assert (player.debt, total_money(g)) == (60, money)
    with pytest.raises(GameError, match="positive amount"):
        loans.lend(g.bank, player, -1)


def test_loans_table_is_read_and_checked() -> None:
    assert TitleConfig.from_data({"loans": {"size": 100, "interest_percent": 10}}).loans == LoanRules(100, 10, 0)
    with pytest.raises(GameError, match="unknown \\[loans\\] keys"):
        TitleConfig.from_data({"loans": {"sise": 100}})
    assert TitleConfig.from_data({}).loans.size == 0


L_SPEC: dict[str, Any] = {"name": "L", "distance": 1, "price": 60, "count": 2,
                          "variants": [{"name": "2", "distance": 2, "price": 120}]}


def test_train_variants_read_from_data() -> None:
    variants = train_variants(L_SPEC)
    assert [(v.name, v.distance, v.price) for v in variants] == [("L", 1, 60), ("2", 2, 120)]
    assert train_variants({"name": "2", "distance": 2, "price": 80}) == []
    with pytest.raises(GameError, match="repeat"):
        train_variants({**L_SPEC, "variants": [{"name": "L", "distance": 2, "price": 1}]})
    with pytest.raises(GameError, match="no price"):
        train_variants({**L_SPEC, "variants": [{"name": "2", "distance": 2}]})


def l_train(g: G1882) -> Train:
    train = g.trains.new_train(L_SPEC, 4)
    g.depot.remove(train)
    g.depot.insert(0, train)
    return train


def test_buying_a_variant_renames_the_train_and_shows_in_its_fingerprint_id() -> None:
    g = game()
    corp = g.corporations["CPR"]
    g.bank.spend(500, corp)
    train = l_train(g)
    assert train_id(train) == "L-4"
    with pytest.raises(GameError, match="bought as L, 2"):
        g.trains.buy_train_action(corp, train, 120, exchange=None, must_buy=False, variant="3")
    with pytest.raises(GameError, match="costs"):
        g.trains.buy_train_action(corp, train, 60, exchange=None, must_buy=False, variant="2")
    g.trains.buy_train_action(corp, train, 120, exchange=None, must_buy=False, variant="2")
    assert (train.name, train.distance, train.sym, train.id) == ("2", 2, "L", "L-4")
    assert train_id(train) == "L-4=2" and corp.cash == 380


def test_the_buy_step_offers_each_variant() -> None:
    from engine.core.steps.trains import BuyTrain
    g = game()
    corp = g.corporations["CPR"]
    g.bank.spend(500, corp)
    train = l_train(g)
    step = BuyTrain.__new__(BuyTrain)
    step.game, step.last_sale_price = g, None
    offers = [c for c in step.choices(corp, "buy_train") if c["train"] == train.id]
    assert sorted((c["price"], c.get("variant")) for c in offers) == [(60, None), (120, "2")]


def test_trains_outside_the_limit_are_not_counted() -> None:
    g = game()
    money = total_money(g)
    corp = g.corporations["CPR"]
    limit = g.train_limit(corp)
    for i in range(limit):
        corp.trains.append(Train(f"2-z{i}", "2", 2, 80, owner=corp))
    permanent = Train("2P-0", "2P", 2, 0, owner=corp, counts_for_limit=False)
    corp.trains.append(permanent)
    assert corp.trains_in_limit() == limit and corp not in g.crowded_corporations()
    assert problems(g, money) == []
    corp.trains.append(Train("2-z9", "2", 2, 80, owner=corp))
    assert corp in g.crowded_corporations()
    # A permanent train may still be bought at the limit: it takes no place in it.
    extra = Train("LP-0", "LP", 1, 0, counts_for_limit=False)
    g.depot.insert(0, extra)
    corp.trains.pop()
    g.trains.buy_train_action(corp, extra, 0, exchange=None, must_buy=False)
    assert extra.owner is corp and corp.trains_in_limit() == limit


def test_a_system_lists_several_homes_the_first_being_home() -> None:
    system = Corporation({"sym": "S", "kind": "system", "homes": ["D8", "G11"]})
    assert system.home == "D8" and system.homes == ["D8", "G11"]
    assert Corporation({"sym": "A", "home": "I5"}).homes == ["I5"]
    assert Corporation({"sym": "N"}).home is None
    system.home = "E5"
    assert system.homes == ["E5", "G11"]


def test_token_kind_replaces_the_neutral_flag() -> None:
    g = game()
    cn = next(t for t in g.corporations["CNR"].tokens if t.corp == "CN")
    assert cn.kind is TokenKind.NEUTRAL and cn.neutral
    assert not Token("CPR", 40).neutral
    tile = next(hx.tile for hx in g.board.hexes.values() if hx.tile.tokens)
    node = next(iter(tile.tokens))
    tile.neutral[node][0] = True  # the bool view writes the slot's kind
    assert tile.kinds[node][0] is TokenKind.NEUTRAL and tile.neutral[node][0]
    tile.neutral[node][0] = False
    assert tile.kinds[node][0] is TokenKind.NORMAL


def test_a_destination_token_is_its_companys_station() -> None:
    g = game()
    hx = next(hx for hx in g.board.hexes.values() if hx.tile.tokens)
    node = next(iter(hx.tile.tokens))
    hx.tile.tokens[node][0] = "CPR"
    hx.tile.kinds[node][0] = TokenKind.DESTINATION
    assert hx.tile.holds_station(node, "CPR")
