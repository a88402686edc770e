"""1830 rules no seeded game happened to reach (engine.rule_coverage lists them): the refusals of the privates'
powers and of a private bought from another player, and the M&H's exchange in the orange and brown zones."""

from __future__ import annotations

import pytest

from engine.core import query
from engine.core.entities import Player
from engine.core.errors import GameError

from .test_1830_rules import BANK_GAME, GAME_29133, before, buy_cheapest_in_turn, company_action, three_players


def test_cs_lays_only_its_tiles_in_burlington() -> None:
    g, action = before(GAME_29133, 220)
    with pytest.raises(GameError, match="CS lays tile 3 or 4 or 58 in B20"):
        g.process({**action, "hex": "B18"})
    assert query.choices(g, g.companies["CS"], "pass") == []  # the power offers lays only
    for tile in [t for t in g.tile_supply.values() if t.name == "4"]:
        g.tile_supply.pop(tile.id)
    assert {c["tile"].split("-")[0] for c in query.choices(g, g.companies["CS"], "lay_tile")} == {"3", "58"}


def test_dh_lays_only_on_an_empty_scranton_and_places_its_station_only_there() -> None:
    g, lay = before(BANK_GAME, 228)
    g._checkpoint = None
    with pytest.raises(GameError, match="DH lays tile"):
        g.process({**lay, "hex": "E15"})
    g.process(lay)
    with pytest.raises(GameError, match="DH's station goes in F16"):
        g.process(company_action("place_token", "DH", city=f"{g.board['E19'].tile.id}-0"))
    g2, lay2 = before(BANK_GAME, 228)
    g2.track.lay_tile(g2.companies["DH"].owner, {"hex": "F16", "tile": lay2["tile"], "rotation": lay2["rotation"]},  # type: ignore[arg-type]
                check_connection=False)
    g2._checkpoint = None
    with pytest.raises(GameError, match="DH's lay needs F16 empty"):
        g2.process({**lay2, "tile": next(t.id for t in g2.tile_supply.values() if t.name == "57")})


def test_mh_is_exchanged_only_for_the_share_it_is_offered() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    assert [c["shares"] for c in query.choices(g, g.companies["MH"], "buy_shares")] == [["NYC_1"]]
    g._checkpoint = None
    with pytest.raises(GameError, match="MH is exchanged for one NYC share from the IPO or the market"):
        g.process(company_action("buy_shares", "MH", shares=["NYC_7"], percent=10))
    assert not g.companies["MH"].closed


def test_mh_exchange_above_sixty_percent_is_allowed_in_the_orange_and_brown_zones() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    owner = g.companies["MH"].owner
    assert isinstance(owner, Player)
    nyc = g.corporations["NYC"]
    for share in [s for s in nyc.shares if not s.president][:6]:
        g.shares.transfer_share(share, owner)
    share = next(s for s in nyc.shares if not s.president)
    assert not g.exchange_allowed(owner, share)  # type: ignore[attr-defined]
    orange = next(c for row in g.market.rows for c in row if c is not None and c.zone == "orange")
    g.shares.set_par(nyc, g.market.cell(0, 6))
    g.market._move_to("NYC", orange)
    assert g.exchange_allowed(owner, share)  # type: ignore[attr-defined]


def test_another_players_private_is_bought_for_1_to_all_the_buyers_cash() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    g.turn = 2
    g._checkpoint = None
    ent = g.acting()[0]
    offer = query.choices(g, ent, "buy_company")[0]
    assert g.round.price_range_for(ent, offer) == (1, ent.cash)
    with pytest.raises(GameError, match="a private is bought for at least \\$1"):
        g.process({**offer, "price": 0})
    with pytest.raises(GameError, match=f"{ent.name} has \\$"):
        g.process({**offer, "price": ent.cash + 1})
    own = ent.companies[0].sym
    with pytest.raises(GameError, match=f"cannot buy {own} now"):
        g.process({**offer, "company": own})
    with pytest.raises(GameError, match="CA cannot change hands while a player holds the certificate"):
        g.process({**offer, "company": "CA"})


def test_of_two_trains_of_one_type_in_the_pool_the_first_discarded_is_sold_first() -> None:
    g, buy = before(BANK_GAME, 33)  # NYNH buys its first train
    first, second = (t for t in g.depot[:2])
    for train in (first, second):
        g.depot.remove(train)
        train.owner = g.pool
        g.pool_trains.append(train)
    g._checkpoint = None
    nynh = buy["entity"]
    offered = {c["train"] for c in query.choices(g, g.corporations[nynh], "buy_train")}
    assert first.id in offered and second.id not in offered
    with pytest.raises(GameError, match=f"the first discarded {second.name} train is sold before {second.id}"):
        g.process({**buy, "train": second.id, "price": second.price})
    g.process({**buy, "train": first.id, "price": first.price})
    assert [t.id for t in g.corporations[nynh].trains] == [first.id]  # a refusal restored copies: compare ids
    assert [t.id for t in g.pool_trains] == [second.id]
