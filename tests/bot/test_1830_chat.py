"""1830's moves in chat words: a player buying another player's private, and the privates' powers."""

from __future__ import annotations

from bot.core.commands import parse
from bot.core.intents import translate
from engine.core import query
from engine.core.entities import Player
from tests.engine.test_1830_rules import BANK_GAME, GAME_29133, before, buy_cheapest_in_turn, three_players


def test_a_player_buys_another_players_private_with_the_sellers_consent() -> None:
    g = three_players()
    buy_cheapest_in_turn(g)
    g.turn = 2
    ent = g.acting()[0]
    sym = str(query.choices(g, ent, "buy_company")[0]["company"])
    intent = translate(g, ent, parse(f"buy {sym} 30"))
    seller = g.companies[sym].owner
    assert isinstance(seller, Player)
    assert intent.action == {"type": "buy_company", "entity": ent.id, "entity_type": "player", "company": sym,
                             "price": 30}
    assert intent.counterparty is seller and intent.deal == f"{ent.name} buys {sym} from {seller.name} for $30"


def test_the_dh_and_cs_powers_are_typed_with_the_private_in_front() -> None:
    g, recorded = before(BANK_GAME, 228)
    player = g.acting_player(g.round.entity())
    lay = translate(g, player, parse("lay F16 57 1"), company="DH").action
    assert (lay["entity"], lay["hex"], lay["tile"], lay["rotation"]) == ("DH", "F16", recorded["tile"], 1)
    g.process(lay)
    token = translate(g, player, parse("token F16"), company="DH").action
    assert token["type"] == "place_token" and token["entity"] == "DH"
    g2, cs = before(GAME_29133, 220)
    player2 = g2.acting_player(g2.round.entity())
    assert translate(g2, player2, parse("lay B20 4 2"), company="CS").action["tile"] == cs["tile"]
