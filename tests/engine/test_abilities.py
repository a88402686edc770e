"""Private-company abilities as data: each company's ``abilities`` list in game.toml is read into typed records,
refused with a DataError naming the company when it says something unknown, and read by the core's rules, so a
private made of a new combination of existing abilities works from data alone."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core.abilities import (
    BlocksHexes,
    Close,
    CloseWhen,
    Exchange,
    ExchangeFrom,
    NoBuy,
    Shares,
    TileIncome,
    TileLay,
    TokenAbility,
    parse_abilities,
)
from engine.core.entities import Company, Corporation, Player
from engine.core.errors import DataError, GameError
from engine.core.game import Game
from engine.titles.g1882.game import G1882

PLAYERS = [(1, "A"), (2, "B"), (3, "C")]


def new_1882(seed: int = 1) -> G1882:
    return G1882(PLAYERS, seed=seed)


def give(game: Game, company: Company, owner: Player | Corporation) -> None:
    """Hand a private to an owner without an auction (the abilities read only the owner)."""
    company.owner = owner
    owner.companies.append(company)


def enter_phase(game: Game, name: str) -> None:
    while game.phase["name"] != name:
        game.phase_index += 1
        game.phase_changed()


# ------------------------------------------------------------------ parsing


def test_1882_privates_are_read_into_typed_abilities() -> None:
    g = new_1882()
    kinds = {sym: [a.TYPE for a in c.abilities] for sym, c in g.companies.items()}
    assert kinds == {
        "HB": ["blocks_hexes", "close"],
        "SC": ["blocks_hexes", "exchange", "close"],
        "NWR": ["token", "tile_lay", "close"],
        "TB": ["blocks_hexes", "tile_income", "shares", "close"],
        "CP": ["shares", "no_buy", "close", "close"],
    }
    nwr = g.companies["NWR"]
    token = nwr.abilities_of(TokenAbility)[0]
    assert (token.hexes, token.price, token.count, token.move, token.teleport) == (
        ("C3", "D4", "D6", "E5"), 0, 1, True, True)
    assert nwr.abilities_of(TileLay)[0].token_hex and nwr.abilities_of(TileLay)[0].count == 1
    assert g.companies["CP"].abilities_of(Close)[1] == Close(when=CloseWhen.TRAIN_BOUGHT, corporation="CPR")
    assert g.companies["SC"].abilities_of(Exchange)[0].source is ExchangeFrom.PAR
    assert g.companies["TB"].abilities_of(TileIncome)[0].income == 10
    # The old ad-hoc keys are gone from the company's free data.
    assert all(set(c.data) == {"sym", "name", "value", "revenue", "desc"} for c in g.companies.values())


@pytest.mark.parametrize(("raw", "words"), [
    ([{"type": "blocks_hex", "hexes": ["C11"]}], ["company XX", "unknown type 'blocks_hex'", "blocks_hexes"]),
    ([{"hexes": ["C11"]}], ["company XX", "unknown type None"]),
    ([{"type": "no_buy", "forever": True}], ["company XX", "unknown key forever for a no_buy ability"]),
    ([{"type": "blocks_hexes", "hexes": ["C11"], "owner": "player"}], ["company XX", "unknown key owner"]),
    ([{"type": "blocks_hexes"}], ["company XX", "needs hexes"]),
    ([{"type": "blocks_hexes", "hexes": "C11", "owner_type": "bank"}], ["owner_type = 'bank' is not one of"]),
    ([{"type": "close", "on_phase": "5", "when": "train_bought"}], ["either on_phase or when"]),
    ([{"type": "close", "when": "train_bought"}], ["needs corporation"]),
    ([{"type": "close", "when": "floated", "corporation": "CPR"}], ["when = 'floated' is not one of train_bought"]),
    ([{"type": "shares", "shares": ["CPR_0"], "random_from": ["GT"]}], ["either shares", "not both"]),
    ([{"type": "tile_income", "income": "10"}], ["income should be a whole number"]),
    ([{"type": "tile_income", "income": 10, "terrain": "mountain"}], ["terrain = 'mountain'"]),
    ([{"type": "exchange", "corporations": ["SC"], "from": "market"}], ["from = 'market' is not one of par"]),
    ([{"type": "token", "hexes": ["C3"], "count": 0}], ["count should be at least 1"]),
    ([{"type": "token", "hexes": ["C3"], "move": "yes"}], ["move should be true or false"]),
    ([{"type": "tile_lay", "hexes": ["C3"], "token_hex": True}], ["hexes or token_hex, not both"]),
    ({"type": "no_buy"}, ["company XX", "abilities should be a list"]),
])
def test_bad_abilities_are_refused_naming_the_company(raw: object, words: list[str]) -> None:
    with pytest.raises(DataError) as caught:
        parse_abilities("XX", raw, where="engine/titles/gx/game.toml")
    assert "engine/titles/gx/game.toml" in str(caught.value)
    for word in words:
        assert word in str(caught.value)


def test_keys_are_typed_and_owner_types_defaulted() -> None:
    [block, token, income] = parse_abilities("XX", [
        {"type": "blocks_hexes", "hexes": "C11", "owner_type": "corporation"},
        {"type": "token", "hexes": ["C3"], "price": 40, "count": 2},
        {"type": "tile_income", "income": 20},
    ])
    assert block == BlocksHexes(hexes=("C11",), owner_type=block.owner_type) and block.owner_type == "corporation"
    assert isinstance(token, TokenAbility) and (token.price, token.count, token.owner_type) == (40, 2, "corporation")
    assert isinstance(income, TileIncome) and income.owner_type is None and income.terrain == "water"


def test_uses_are_counted_per_ability() -> None:
    [token, lay] = parse_abilities("XX", [{"type": "token", "hexes": ["C3"], "count": 2},
                                          {"type": "tile_lay", "count": 1}])
    token.use()
    assert token.left and lay.left
    lay.use()
    assert token.left and not lay.left
    token.use()
    assert not token.left
    with pytest.raises(ValueError, match="cannot be used again"):
        token.use()


class Variant(G1882):
    DATA_PACKAGE = "tests.engine.abilities_variant"


def load_variant(monkeypatch: pytest.MonkeyPatch, companies: list[dict[str, Any]], seed: int = 1) -> Game:
    """1882 with extra privates (the title's rules and steps, other data)."""
    data: dict[str, Any] = copy.deepcopy(G1882.data())
    data["game"]["companies"] += companies
    monkeypatch.setitem(Game._data_cache, Variant.DATA_PACKAGE, data)
    return Variant(PLAYERS, seed=seed)


@pytest.mark.parametrize(("ability", "words"), [
    ({"type": "blocks_hexes", "hexes": ["Z99"]}, ["company XX", "blocks_hexes ability names no such hex Z99"]),
    ({"type": "close", "when": "train_bought", "corporation": "NYC"}, ["no such corporation NYC"]),
    ({"type": "shares", "shares": ["CPR_9"]}, ["no such certificate CPR_9"]),
    ({"type": "shares", "random_from": ["GT", "PRR"]}, ["no such corporation PRR"]),
])
def test_names_in_abilities_must_exist_in_the_title(monkeypatch: pytest.MonkeyPatch, ability: dict[str, Any],
                                                    words: list[str]) -> None:
    with pytest.raises(DataError) as caught:
        load_variant(monkeypatch, [{"sym": "XX", "name": "X", "value": 10, "abilities": [ability]}])
    assert "tests/engine/abilities_variant/game.toml" in str(caught.value)
    for word in words:
        assert word in str(caught.value)


# ------------------------------------------------------------------ each ability's effect in 1882


def test_blocks_hexes_while_a_player_owns_the_private() -> None:
    g = new_1882()
    hb, c11 = g.companies["HB"], g.board["C11"]
    assert g.track.blocked_hex(c11) is None  # unowned
    give(g, hb, g.players[0])
    assert g.track.blocked_hex(c11) is hb and g.track.blocked_hex(g.board["G9"]) is None
    g.shares.close_company(hb)
    assert g.track.blocked_hex(c11) is None
    tb = g.companies["TB"]
    give(g, tb, g.corporations["CPR"])
    assert g.track.blocked_hex(g.board["G9"]) is None  # a corporation's private blocks nothing


def test_the_random_share_is_drawn_with_the_games_generator() -> None:
    drawn = {seed: new_1882(seed).companies["TB"].abilities_of(Shares)[0].certificates for seed in range(1, 30)}
    assert all(len(c) == 1 and c[0].rsplit("_", 1)[0] in ("CNR", "CPR", "GT", "HBR", "QLL") and c[0].endswith("_1")
               for c in drawn.values())
    assert len({c[0] for c in drawn.values()}) > 1  # the draw depends on the seed ...
    assert drawn == {seed: new_1882(seed).companies["TB"].abilities_of(Shares)[0].certificates
                     for seed in range(1, 30)}  # ... and only on it


def test_shares_come_with_the_private() -> None:
    g = new_1882()
    player = g.players[0]
    tb = g.companies["TB"]
    [share_id] = tb.abilities_of(Shares)[0].certificates
    g.after_buy_company(player, tb, 140)
    assert [s.id for s in player.shares] == [share_id]
    # A president's certificate makes the buyer set the par first (the auction's CompanyPendingPar step).
    give(g, g.companies["CP"], player)
    g.after_buy_company(player, g.companies["CP"], 180)
    assert g.round.pending_par == [(g.companies["CP"], "CPR")]  # type: ignore[attr-defined]
    assert g.actions_for(player) == ["par"]


def test_closings_on_phase_and_on_a_train_purchase() -> None:
    g = new_1882()
    for comp in g.companies.values():
        give(g, comp, g.players[0])
    g.close_on_train_bought(g.corporations["GT"])
    assert not any(c.closed for c in g.companies.values())
    g.close_on_train_bought(g.corporations["CPR"])
    assert [c.sym for c in g.companies.values() if c.closed] == ["CP"]
    enter_phase(g, "5")
    assert [c.sym for c in g.companies.values() if not c.closed] == ["SC"]
    enter_phase(g, "6")
    assert all(c.closed for c in g.companies.values())


def test_no_buy_keeps_the_private_from_corporations() -> None:
    g = new_1882()
    cp, tb = g.companies["CP"], g.companies["TB"]
    give(g, cp, g.players[0])
    give(g, tb, g.players[1])
    assert not g.runs.company_for_sale(cp) and g.runs.company_for_sale(tb)
    enter_phase(g, "3")
    cpr = g.corporations["CPR"]
    cpr.cash = 1000
    with pytest.raises(GameError, match="CP cannot be bought by a company"):
        g.runs.corporation_buys_company(cpr, cp, 180)
    g.runs.corporation_buys_company(cpr, tb, 140)
    assert tb.owner is cpr


def test_tile_income_pays_the_owner_per_water_crossing() -> None:
    g = new_1882()
    tb, owner = g.companies["TB"], g.players[1]
    g.track.pay_tile_income(2)
    give(g, tb, owner)
    cash, bank = owner.cash, g.bank.cash
    g.track.pay_tile_income(0)
    g.track.pay_tile_income(2)
    assert (owner.cash - cash, bank - g.bank.cash) == (20, 20)
    assert g._log[-1] == "B earns $20 from TB"
    g.shares.close_company(tb)
    g.track.pay_tile_income(3)
    assert owner.cash - cash == 20


def test_the_par_exchange_starts_only_by_the_privates_owner_for_one_share() -> None:
    g = new_1882()
    sc, corp = g.companies["SC"], g.corporations["SC"]
    a, b = g.players[0], g.players[1]
    assert not g.can_par(corp, a)  # nobody owns the private
    give(g, sc, a)
    assert g.can_par(corp, a) and not g.can_par(corp, b)
    assert g.par_cost(corp, 100) == 100 and g.par_cost(g.corporations["CPR"], 100) == 200
    cell = next(c for c in g.market.par_cells() if c.price == 100)
    g.shares.par_corporation(a, corp, cell)
    assert sc.closed and corp.owner is a and a.percent_of("SC") == 20


def test_turn_powers_price_a_station_and_are_spent_separately() -> None:
    g = new_1882()
    nwr, cnr = g.companies["NWR"], g.corporations["CNR"]
    assert g.track.token_ability_prices(cnr) == [] and not g.has_turn_ability(cnr)
    give(g, nwr, g.players[0])
    assert not g.has_turn_ability(cnr)  # a player's private has no turn for a corporation
    nwr.owner = cnr
    assert g.track.token_ability_prices(cnr) == [0] and g.has_turn_ability(cnr)
    nwr.abilities_of(TokenAbility)[0].use()
    assert g.track.token_ability_prices(cnr) == [] and g.has_turn_ability(cnr)  # the tile lay is left
    nwr.abilities_of(TileLay)[0].use()
    assert not g.has_turn_ability(cnr)


# ------------------------------------------------------------------ a made-up private, from data alone

MADE_UP = {
    "sym": "XX", "name": "Made-up Express", "value": 60, "revenue": 10,
    "abilities": [
        {"type": "shares", "random_from": ["GT"]},
        {"type": "blocks_hexes", "hexes": ["E5", "L2"]},
        {"type": "tile_income", "income": 25},
        {"type": "no_buy"},
        {"type": "close", "when": "train_bought", "corporation": "GT"},
        {"type": "close", "on_phase": "4"},
    ],
}
CONVERTER = {
    "sym": "YY", "name": "Made-up Conversion", "value": 70, "revenue": 0,
    "abilities": [
        {"type": "exchange", "corporations": ["QLL"], "from": "par"},
        {"type": "token", "hexes": ["H4"], "price": 40, "count": 2},
    ],
}


def test_a_made_up_private_works_from_data_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    g = load_variant(monkeypatch, [MADE_UP, CONVERTER])
    xx, yy = g.companies["XX"], g.companies["YY"]
    assert xx.abilities_of(Shares)[0].certificates == ["GT_1"]
    player = g.players[2]
    give(g, xx, player)
    g.after_buy_company(player, xx, 60)
    assert [s.id for s in player.shares] == ["GT_1"]
    assert g.track.blocked_hex(g.board["E5"]) is xx and g.track.blocked_hex(g.board["L2"]) is xx
    with pytest.raises(GameError, match="L2 is blocked by XX"):
        g.track.lay_tile(g.corporations["GT"], {"hex": "L2", "tile": "57-0", "rotation": 0}, check_connection=False)
    cash = player.cash
    g.track.pay_tile_income(2)
    assert player.cash - cash == 50
    assert not g.runs.company_for_sale(xx)
    g.close_on_train_bought(g.corporations["CPR"])
    assert not xx.closed
    g.close_on_train_bought(g.corporations["GT"])
    assert xx.closed and g.track.blocked_hex(g.board["L2"]) is None

    # The converter: QLL starts only by YY's owner, for one share, and YY closes; its token power is the owner's.
    qll = g.corporations["QLL"]
    assert not g.can_par(qll, player)
    give(g, yy, player)
    assert g.can_par(qll, player) and not g.can_par(qll, g.players[0])
    g.shares.par_corporation(player, qll, next(c for c in g.market.par_cells() if c.price == 90))
    assert yy.closed and player.percent_of("QLL") == 20 and g._log[-1] == "YY closes"
    assert g.track.token_ability_prices(qll) == []  # closed with the exchange


def test_a_made_up_token_private_offers_its_price_until_used_up(monkeypatch: pytest.MonkeyPatch) -> None:
    g = load_variant(monkeypatch, [CONVERTER])
    yy, gt = g.companies["YY"], g.corporations["GT"]
    give(g, yy, gt)
    token = yy.abilities_of(TokenAbility)[0]
    assert g.track.token_ability_prices(gt) == [40] and g.has_turn_ability(gt)
    token.use()
    assert g.track.token_ability_prices(gt) == [40]
    token.use()
    assert g.track.token_ability_prices(gt) == [] and not g.has_turn_ability(gt)


def test_the_closing_phase_of_a_made_up_private(monkeypatch: pytest.MonkeyPatch) -> None:
    g = load_variant(monkeypatch, [MADE_UP])
    xx = g.companies["XX"]
    give(g, xx, g.players[0])
    assert g.trains.closing_phase(xx) == "4"
    enter_phase(g, "3")
    assert not xx.closed
    enter_phase(g, "4")
    assert xx.closed and not g.companies["HB"].closed  # phase 4 closes only what says so
    assert NoBuy() in xx.abilities
