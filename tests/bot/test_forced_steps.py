"""Forced steps say what must be done and why; `who` names the player finishing a private's power."""

from __future__ import annotations

import re
from typing import Any

from bot.core.notify import acting_player_ids
from engine.core import query
from engine.core.entities import Corporation, Player
from tests.bot.conftest import Table, started
from tests.bot.ux_helpers import Driven


async def test_par_after_a_private_with_the_presidents_certificate(table: Table) -> None:
    await started(table, ("alice", "bob", "carol", "dave"))
    for user, move in (("alice", "buy HB"), ("bob", "buy SC"), ("carol", "buy NWR"), ("dave", "buy TB")):
        assert (await table.say(user, move)).ok
    reply = await table.say("alice", "buy CP")
    assert "Next: alice" in reply.text
    assert (
        "alice must set CPR's par price (bought CP, which comes with CPR's president's certificate): "
        "`par CPR PRICE` ($67, $71, $76, $82, $90, $100)" in reply.text
    ), reply.text
    assert "must set CPR's par price" in (await table.say("bob", "who")).text


def _forced(game: Any) -> dict[str, str]:
    """The forced steps in a position: entity -> what kind (the hint each one must carry)."""
    out: dict[str, str] = {}
    for ent in query.deciding_entities(game):
        kinds = game.actions_for(ent)
        if kinds == ["discard_train"]:
            out[game.describe(ent)] = "over the train limit of"
        elif isinstance(ent, Corporation) and "buy_train" in kinds and game.must_buy_train(ent):
            out[game.describe(ent)] = "has no train and must buy one"
        elif kinds == ["sell_shares"] and isinstance(ent, Player) and game.round.name().startswith("Stock"):
            out[game.describe(ent)] = "must sell"
        elif kinds == ["par"] and isinstance(ent, Player):
            out[game.describe(ent)] = "must set"
    return out


async def test_a_whole_game_says_what_forced_steps_need_and_what_moves_did(table: Table) -> None:
    """Forced steps carry their line; payouts, price moves and rusting are told; the end names the winner."""
    await started(table, ("alice", "bob", "carol"), seed=5)
    seen: dict[str, int] = {}
    said: list[tuple[str, str]] = []

    async def say(user: str, text: str) -> None:
        reply = await table.say(user, text)
        assert reply.ok, (text, reply.text)
        said.append((text, reply.text))
        if game.mirror.finished:
            return
        for who, words in _forced(game.mirror).items():
            assert words in reply.text and who in reply.text, (text, reply.text)
            seen[words] = seen.get(words, 0) + 1

    game = Driven(say, ("alice", "bob", "carol"), 5)
    await game.until(lambda g: g.finished, max_moves=3000)
    assert "has no train and must buy one" in seen or "over the train limit of" in seen, seen

    # Payouts: the amount per share and what each holder got.
    payouts = [r for t, r in said if t == "pay" and " pays out " in r]
    assert payouts and all(re.search(r"pays \$\d+ per 10% share: ", r) for r in payouts)
    assert any(re.search(r"Share price: [A-Z]+ \$\d+ → \$\d+", r) for _, r in said)
    rusts = [r for _, r in said if "All 2-trains rust: " in r]
    assert rusts and re.search(r"All 2-trains rust: [A-Z]+ loses \d", rusts[0])

    # The end names the winner and splits every player's worth, with the reason in words.
    final = said[-1][1]
    ranked = sorted(game.mirror.players, key=lambda p: -game.mirror.player_value(p))
    top = ranked[0]
    assert f"{top.name} wins with ${game.mirror.player_value(top):,} (cash ${top.cash:,}" in final, final
    assert "Game over: " in final and "_" not in final.split("Game over: ")[1].split(".")[0]
    # The game stays findable: games --finished and history #N.
    finished = (await table.say("alice", "games --finished")).text
    assert "#1 1882" in finished and f"{top.name} wins" in finished
    assert (await table.say("alice", "games")).text.startswith("You are not in any game")
    log = await table.say("bob", "history #1")
    assert log.ok and "Game #1 log, page 1 of" in log.text


async def test_the_lobby_lists_games_with_free_seats(table: Table) -> None:
    assert (await table.say("alice", "new 1882 players=3")).ok
    assert (await table.say("bob", "join")).ok
    assert (await table.say("carol", "new 1882 players=2", channel="other")).ok
    assert (await table.say("dave", "join", channel="other")).ok  # full now
    lobby = (await table.say("eve", "games --open")).text
    assert "#1 1882 in general: 2/3 seated (alice, bob)" in lobby and "#2" not in lobby


async def test_bankrupt_asks_first_and_only_where_allowed(table: Table) -> None:
    await started(table, ("alice", "bob", "carol"), seed=5)
    game = Driven(_say_ok(table), ("alice", "bob", "carol"), 5)
    await game.until(lambda g: any("lay_tile" in g.actions_for(e) for e in g.acting()))
    refused = await table.say(game.acting_user(), "bankrupt")
    assert refused.outcome.value == "illegal" and "cannot bankrupt now" in refused.text

    def may_go_bankrupt(g: Any) -> bool:
        return any("bankrupt" in g.actions_for(e) for e in g.acting())

    await game.until(may_go_bankrupt, max_moves=3000)
    stored = len(await table.service.storage.load_actions(1))
    user = game.acting_user()
    asked = await table.say(user, "bankrupt")
    assert asked.outcome.value == "pending" and "`bankrupt confirm`" in asked.text
    assert len(await table.service.storage.load_actions(1)) == stored  # nothing stored by asking
    done = await table.say(user, "bankrupt confirm")
    assert done.ok and len(await table.service.storage.load_actions(1)) == stored + 1


def _say_ok(table: Table) -> Any:
    async def say(user: str, text: str) -> None:
        reply = await table.say(user, text)
        assert reply.ok, (text, reply.text)

    return say


async def test_who_names_and_pings_the_player_finishing_a_private_power(table: Table) -> None:
    from tests.engine.test_1882_nwr import game_where_nwr_can_move_a_station, nwr_choices

    g = game_where_nwr_can_move_a_station()
    g.process(nwr_choices(g, "remove_token")[0])  # half way: the station is lifted, not yet placed
    names = ("A", "B", "C", "D")
    game_id = await started(table, names, seed=g.seed)
    storage = table.service.storage
    for seq, action in enumerate(g.raw_actions, start=1):
        await storage.append_action(game_id, seq, action, "import")
    owner = g.companies["NWR"].owner.owner
    assert owner.id in acting_player_ids(g)
    who = (await table.say("A", "who")).text
    # The seat that plays the owner's engine id is named (seat names need not match the mirror's).
    live = table.service._cache.get(game_id)
    assert live is not None
    name = live.name_of(owner.id)
    assert f"NWR ({name})" in who and "(?)" not in who
    assert f"{name} must finish NWR's power" in who
