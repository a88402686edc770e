"""1862: seeded playouts (shared with the title conformance test) redeem shares and go bankrupt, and a game
round-trips through our own JSON document."""

from __future__ import annotations

import json

from engine.importer import parse_game_json, replay
from engine.playout import game_document, random_playout
from engine.titles.g1862.game import G1862

from .test_title_conformance import RANDOM, STEADY, played


def test_playouts_redeem_and_go_bankrupt(capsys: object) -> None:
    games = [(policy, seed, players, played(title, seed, players, policy).game)
             for policy, group in (("random", RANDOM), ("steady", STEADY))
             for title, seed, players in group if title == "1862"]
    assert {players for _, _, players, _ in games} == {4, 5, 6, 7}
    redemptions = sum(g.redemptions for *_, g in games if isinstance(g, G1862))
    bankruptcies = sum(g.bankruptcies for *_, g in games if isinstance(g, G1862))
    ends = sorted(str(g.game_end_reason) for *_, g in games)
    print(f"1862 playouts: {len(games)} games, ends {ends}, {redemptions} redemptions, {bankruptcies} bankruptcies")
    assert redemptions > 0 and bankruptcies > 0
    for *_, g in games:
        assert all(c.debt == 0 for c in g.corporations.values())  # repaid at the end (or cancelled)


def test_a_game_round_trips_through_its_json_document() -> None:
    result = random_playout("1862", 5, 101, max_actions=1200, policy="steady", check=False)
    game = result.game
    doc = json.loads(json.dumps(game_document("1862", game, 101, [])))
    again = replay(parse_game_json(doc))
    assert [{k: v for k, v in a.items() if k != "created_at"} for a in again.raw_actions] == game.raw_actions
    assert again.result() == game.result() and again.finished == game.finished
    assert again.game_end_reason == game.game_end_reason
    assert {s: c.coords for s, c in again.market.location.items()} == \
        {s: c.coords for s, c in game.market.location.items()}
    assert [(p.id, p.cash, sorted(s.id for s in p.shares)) for p in again.players] == \
        [(p.id, p.cash, sorted(s.id for s in p.shares)) for p in game.players]
    assert {h.id: (h.tile.id, h.tile.rotation) for h in again.board.hexes.values()} == \
        {h.id: (h.tile.id, h.tile.rotation) for h in game.board.hexes.values()}
    assert isinstance(again, G1862) and isinstance(game, G1862)
    assert again.redeemed == game.redeemed
    assert {c.sym: c.debt for c in again.corporations.values()} == {c.sym: c.debt for c in game.corporations.values()}


def test_the_game_says_it_is_a_reconstructed_edition() -> None:
    from engine.titles import title_class

    label = G1862.edition_label()
    assert "reconstructed edition" in label and "1862 USA & Canada" in label
    # The label is title data (game.toml), read by the core's default: the other titles say none.
    assert {t: title_class(t).edition_label() for t in ("1882", "1828", "1822", "1830")} == dict.fromkeys(
        ("1882", "1828", "1822", "1830"), "")


def test_the_pictures_carry_the_reconstructed_edition_in_their_heading() -> None:
    from engine import new_game
    from engine.core.statusbuild import status_view
    from engine.core.viewbuild import board_view

    game = new_game("1862", [(1, "a"), (2, "b"), (3, "c"), (4, "d")])
    assert "reconstructed edition" in status_view(game).title
    assert "reconstructed edition" in board_view(game).title
