"""Share arithmetic in share units: 5% shares with a 10% president's certificate (1862 after redemption), a minor's
single 100% certificate worth two shares (1822), 30% presidencies, limits counted in certificates, capitalization
modes and the title's currency. Corporations are built by hand inside a 1882 game, whose own rules stay as they are.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import new_game
from engine.core import query
from engine.core import shares as units
from engine.core.config import Capitalization, LimitBasis, SellMovement, ShareRules, TitleConfig
from engine.core.entities import Corporation, CorporationKind, Player
from engine.core.errors import ErrorCode, GameError
from engine.core.game import Game
from engine.core.game_setup import issue_certificates
from engine.core.invariants import problems
from tests.engine.test_1882_scenarios import player_action, second_stock_round


def game() -> Game:
    return new_game("1882", [(1, "Ann"), (2, "Bob"), (3, "Cy")], seed=7)


def add_corporation(g: Game, price: int = 100, **data: object) -> Corporation:
    """A corporation from ``data`` added to ``g``, parred at ``price``."""
    corp = Corporation({"sym": "X", "tokens": [0], **data})
    g.corporations[corp.sym] = corp
    issue_certificates(corp)
    cell = next(c for c in g.market.par_cells() if c.price == price)
    g.shares.set_par(corp, cell)
    return corp


def give(g: Game, corp: Corporation, player: Player, percent: int, *, president: bool = False) -> None:
    """Hand ``player`` certificates of ``corp`` from the IPO: the president's first if asked, then ordinary ones."""
    if president:
        pres = corp.shares[0]
        g.shares.transfer_share(pres, player)
        corp.owner = player
        percent -= pres.percent
    while percent > 0:
        share = next(s for s in corp.shares if not s.president)
        g.shares.transfer_share(share, player)
        percent -= share.percent


def with_share_rules(g: Game, **changes: object) -> None:
    g.config = replace(g.config, shares=replace(g.config.shares, **changes))


def five_percent_corporation(g: Game) -> Corporation:
    """1862 after share redemption: a 10% president's certificate and eighteen 5% shares."""
    corp = add_corporation(g, president_percent=10, share_percent=5)
    corp.floated = True
    return corp


# ---------------------------------------------------------------------------------------------------- 5% shares
def test_five_percent_shares_are_issued_as_a_ten_percent_presidents_certificate_and_5_percent_shares() -> None:
    corp = five_percent_corporation(game())
    assert [s.percent for s in corp.shares] == [10] + [5] * 18
    assert [s.id for s in corp.shares[:3]] == ["X_0", "X_1", "X_2"]


def test_overtaking_a_ten_percent_president_with_5_percent_shares_swaps_ten_percent_for_ten_percent() -> None:
    # engine-review.md 1.6: A holds the 10% president's certificate; B reaches 15% with three 5% shares.
    g = game()
    a, b = g.players[0], g.players[1]
    corp = five_percent_corporation(g)
    give(g, corp, a, 10, president=True)
    give(g, corp, b, 10)
    g.shares.buy_shares(b, [next(s for s in corp.shares if not s.president)], 0)
    assert corp.owner is b
    assert any(s.president for s in b.shares_of("X"))
    # B hands back two 5% certificates for the 10% one: each keeps what it held.
    assert a.percent_of("X") == 10 and [s.percent for s in a.shares_of("X")] == [5, 5]
    assert b.percent_of("X") == 15 and sorted(s.percent for s in b.shares_of("X")) == [5, 10]
    assert problems(g, g.total_cash()) == []


def test_a_5_percent_share_sells_for_one_share_price_and_drops_the_price_one_row() -> None:
    g = game()
    a, b = g.players[0], g.players[1]
    corp = five_percent_corporation(g)
    give(g, corp, a, 20, president=True)
    give(g, corp, b, 10)
    cash = b.cash
    paid = g.sell_shares(b, b.shares_of("X")[:1])
    assert paid == 100 and b.cash == cash + 100  # one share at $100, not half of a 10% price
    assert g.market.location["X"].price == 90  # one row down per share sold


def test_selling_a_ten_percent_presidents_certificate_in_part_returns_5_percent_shares() -> None:
    # A holds the 10% president's certificate and a 5% share and sells 10% of the 15%; B (10%) becomes president.
    g = game()
    a, b = g.players[0], g.players[1]
    corp = five_percent_corporation(g)
    give(g, corp, a, 15, president=True)
    give(g, corp, b, 10)
    bundles = [(sorted(s.id for s in shares), percent) for shares, percent in g.shares.sell_bundles(a, corp)]
    assert (["X_0", "X_1"], 10) in bundles and (["X_0", "X_1"], 15) in bundles
    assert g.shares.valid_bundle(a, a.shares_of("X"), 10)
    cash = a.cash
    paid = g.sell_shares(a, a.shares_of("X"), 10)
    assert paid == 200 and a.cash == cash + 200  # two shares' worth at $100
    assert corp.owner is b and b.percent_of("X") == 10 and any(s.president for s in b.shares_of("X"))
    assert a.percent_of("X") == 5 and not any(s.president for s in a.shares_of("X"))
    assert g.pool.percent_of("X") == 10 and len(g.pool.shares_of("X")) == 2
    assert g.market.location["X"].price == 82  # two shares sold: two rows
    assert problems(g, g.total_cash()) == []


def test_one_row_per_sale_when_the_title_says_so() -> None:
    g = game()
    a, b = g.players[0], g.players[1]
    corp = five_percent_corporation(g)
    with_share_rules(g, sell_movement=SellMovement.PER_SALE)
    give(g, corp, a, 20, president=True)
    give(g, corp, b, 15)
    assert g.sell_shares(b, b.shares_of("X")) == 300
    assert g.market.location["X"].price == 90  # three shares, one row


# ---------------------------------------------------------------------------------------------------- minors
def test_a_minor_has_one_100_percent_certificate_worth_two_shares() -> None:
    g = game()
    minor = add_corporation(g, price=90, kind="minor")
    assert minor.kind is CorporationKind.MINOR
    assert minor.share_percent == 50 and [(s.id, s.percent, s.president) for s in minor.shares] == [("X_0", 100, True)]
    assert g.par_cost(minor, 90) == 180


def test_a_minor_floats_with_two_shares_of_capital_and_counts_two_shares_in_a_players_value() -> None:
    g = game()
    ann = g.players[0]
    minor = add_corporation(g, price=90, kind="minor")
    bank, cash = g.bank.cash, ann.cash
    g.shares.buy_shares(ann, [minor.shares[0]], g.par_cost(minor, 90))
    assert minor.floated and minor.owner is ann
    assert minor.cash == 180 and g.bank.cash == bank + 180 - 180  # the bank takes the price, then pays it out
    assert g.player_value(ann) == cash - 180 + 2 * 90 + sum(c.value for c in ann.companies)
    assert problems(g, g.total_cash()) == []


# ---------------------------------------------------------------------------------------------------- 30% president
def test_a_30_percent_president_hands_back_three_shares_and_may_sell_part_of_the_certificate() -> None:
    g = game()
    a, b = g.players[0], g.players[1]
    corp = add_corporation(g, president_percent=30)
    corp.floated = True
    assert [s.percent for s in corp.shares] == [30] + [10] * 7
    give(g, corp, a, 30, president=True)
    give(g, corp, b, 30)
    g.shares.buy_shares(b, [corp.shares[1]], 0)
    assert corp.owner is b and b.percent_of("X") == 40 and a.percent_of("X") == 30
    assert [s.percent for s in a.shares_of("X")] == [10, 10, 10]
    # Now B sells two shares' worth of the president's certificate only: A (30%) takes it over, B keeps 20%.
    pres_sales = [p for shares, p in g.shares.sell_bundles(b, corp) if any(s.president for s in shares)]
    assert pres_sales == [20, 30, 40]
    g.sell_shares(b, b.shares_of("X"), 20)
    assert corp.owner is a and b.percent_of("X") == 20 and g.pool.percent_of("X") == 20
    assert problems(g, g.total_cash()) == []


# ---------------------------------------------------------------------------------------------------- limits
def test_the_pool_limit_can_count_certificates() -> None:
    g = game()
    corp = five_percent_corporation(g)
    in_pool = corp.shares[1:5]  # four 5% certificates: 20%
    rules = replace(g.config.shares, pool_limit=5, pool_limit_basis=LimitBasis.CERTIFICATES)
    assert units.pool_accepts(rules, corp, in_pool, corp.shares[5:6], 5)
    assert not units.pool_accepts(rules, corp, in_pool, corp.shares[5:7], 10)  # six certificates
    assert units.pool_accepts(g.config.shares, corp, in_pool, corp.shares[5:7], 10)  # 30% of 50%
    # Part of a 10% president's certificate sold counts as the 5% certificates the new president pays back.
    assert units.certificates_sold(corp, corp.shares[:2], 10) == 2


def gt_sales(g: Game, player: Player) -> list[int]:
    return sorted(c["percent"] for c in query.choices(g, player, "sell_shares") if c["shares"][0].startswith("GT"))


def test_a_stock_round_offers_only_sales_within_a_pool_limit_counted_in_certificates() -> None:
    g = second_stock_round({2: 40, 1: 20}, pool=20)  # Bob president with GT_0, GT_1, GT_2; two in the pool
    bob = g.player_by_id(2)
    g.round.entity_index = g.round.entities.index(bob)
    assert g.acting() == [bob]
    assert gt_sales(g, bob) == [10, 20, 30]  # up to 50% in the pool
    with_share_rules(g, pool_limit=3, pool_limit_basis=LimitBasis.CERTIFICATES)
    assert gt_sales(g, bob) == [10]  # two certificates there: one more
    with pytest.raises(GameError) as err:
        g.process(player_action("sell_shares", 2, shares=["GT_1", "GT_2"], percent=20))
    assert err.value.code is ErrorCode.ILLEGAL


def test_the_holding_limit_can_count_certificates() -> None:
    g = game()
    corp = five_percent_corporation(g)
    rules = replace(g.config.shares, hold_limit=3, hold_limit_basis=LimitBasis.CERTIFICATES)
    assert units.holding_allows(rules, corp.shares[1:3], corp.shares[3:4])
    assert not units.holding_allows(rules, corp.shares[1:4], corp.shares[4:5])
    assert units.holding_allows(g.config.shares, corp.shares[1:4], corp.shares[4:5])  # 20% of 60%


# ---------------------------------------------------------------------------------------------------- treasury
def test_treasury_shares_are_the_companys_own_and_not_for_sale_in_the_ipo() -> None:
    g = game()
    corp = five_percent_corporation(g)
    for share in corp.shares[-10:]:  # 1862 redemption leaves the company holding 50%
        g.shares.transfer_share(share, corp.treasury)
    give(g, corp, g.players[0], 30, president=True)
    assert corp.ipo_percent() == 20 and corp.treasury.percent_of("X") == 50
    assert corp.sold_percent() == 30  # the company's own shares do not float it
    assert g.corporations["X"].percent_of("X") == 20  # the IPO, as the state fingerprint reads it
    assert g.share_by_id(corp.treasury.shares[0].id).owner is corp.treasury
    assert problems(g, g.total_cash()) == []


# ---------------------------------------------------------------------------------------------------- capitalization
def test_full_capitalization_pays_par_for_every_share_at_float() -> None:
    g = game()
    ann = g.players[0]
    corp = add_corporation(g, president_percent=20, float_percent=20)
    assert g.config.shares.capitalization is Capitalization.FULL
    g.shares.buy_shares(ann, [corp.shares[0]], g.par_cost(corp, 100))
    assert corp.floated and corp.cash == 1000


def test_incremental_capitalization_pays_the_company_as_ipo_shares_sell() -> None:
    g = game()
    ann, bob = g.players[0], g.players[1]
    with_share_rules(g, capitalization=Capitalization.INCREMENTAL)
    corp = add_corporation(g, float_percent=30)
    g.shares.buy_shares(ann, [corp.shares[0]], g.par_cost(corp, 100))
    assert corp.cash == 200 and not corp.floated
    g.shares.buy_shares(bob, [corp.shares[1]], 100)
    assert corp.floated and corp.cash == 300  # nothing more from the bank at float
    assert problems(g, g.total_cash()) == []


def test_capitalization_is_read_from_game_toml_and_checked() -> None:
    assert TitleConfig.from_data({"capitalization": "incremental"}).shares.capitalization is Capitalization.INCREMENTAL
    assert TitleConfig.from_data({}).shares.capitalization is Capitalization.FULL
    with pytest.raises(GameError) as err:
        TitleConfig.from_data({"capitalization": "partial"})
    assert err.value.code is ErrorCode.MALFORMED and "full, incremental" in err.value.message
    with pytest.raises(GameError):
        TitleConfig.from_data({"shares": {"pool_limt": 5}})  # a typo is not silently the default
    rules = TitleConfig.from_data({"shares": {"pool_limit": 5, "pool_limit_basis": "certificates",
                                              "sell_movement": "per_sale"}}).shares
    assert (rules.pool_limit, rules.pool_limit_basis, rules.sell_movement) == (
        5, LimitBasis.CERTIFICATES, SellMovement.PER_SALE)


def test_1882_reads_its_share_rules_from_its_data() -> None:
    rules = game().config.shares
    assert rules == ShareRules(capitalization=Capitalization.FULL, sell_movement=SellMovement.PER_SHARE,
                                     pool_limit=50, pool_limit_basis=LimitBasis.PERCENT, hold_limit=60,
                                     hold_limit_basis=LimitBasis.PERCENT)


# ---------------------------------------------------------------------------------------------------- currency
def test_money_is_formatted_in_the_titles_currency() -> None:
    assert game().format_money(76) == "$76"
    assert TitleConfig.from_data({"currency": "£%d"}).format_money(100) == "£100"
    assert TitleConfig.from_data({"currency": "%d ¥"}).format_money(5) == "5 ¥"
    with pytest.raises(GameError):
        TitleConfig.from_data({"currency": "£"})


def test_messages_and_log_lines_use_the_titles_currency() -> None:
    g = game()
    g.config = replace(g.config, currency="£%d")
    with pytest.raises(GameError) as err:
        g.process(player_action("bid", 1, company="SC", price=1000))
    assert "£" in err.value.message and "$" not in err.value.message
    g.process(player_action("bid", 1, company="HB", price=20))
    assert g.log_lines[-1].endswith("£20") and "$" not in "".join(g.log_lines)
