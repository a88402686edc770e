"""A network known in part (``company_network(lazy=True)``) answers every question as the whole network does.

The track part walks again only the stations whose walks a change dropped, and only as far as a question needs
(``Network.sides_allow``, ``node_wanted``, the route flags). These tests take the boards of recorded games at
their end, where networks are largest, and ask each question of a network known in nothing but its stations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.board import Board
from engine.core.game import Game
from engine.core.graph import Network, company_network
from engine.importer import read_game_file, replay

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
GAMES = ["1822/33845.json", "1828/23366.json", "1882/1882_game_end_stock_market.json"]


def final_game(name: str) -> Game:
    return replay(read_game_file(FIXTURES / name))


def stationed(game: Game) -> list[str]:
    return [sym for sym, corp in game.corporations.items() if any(t.used for t in corp.tokens) and not corp.closed]


def part(board: Board, sym: str, optional: frozenset[tuple[str, int]]) -> Network:
    net = company_network(board, sym, optional_stops=optional, lazy=True)
    assert net.missing == sorted(net.token_nodes)  # nothing walked yet
    return net


@pytest.mark.parametrize("name", GAMES)
def test_a_network_known_in_part_answers_as_the_whole_network(name: str) -> None:
    game = final_game(name)
    board, optional = game.board, game.board.optional_stops
    cities = [(hx.id, node) for hx in board.hexes.values() for node in hx.tile.tokens]
    for sym in stationed(game):
        whole = company_network(board, sym, optional_stops=optional)
        for hex_id in board.hexes:
            assert part(board, sym, optional).sides_allow(hex_id, bool) == bool(whole.hex_edges.get(hex_id)), \
                (sym, hex_id)
        for city in cities:
            assert part(board, sym, optional).node_wanted(lambda ref, city=city: ref == city) == \
                (city in whole.nodes), (sym, city)
        net = part(board, sym, optional)
        assert net.route_possible == whole.route_possible
        assert part(board, sym, optional).route_with_optional == whole.route_with_optional
        net.complete()
        assert (net.nodes, net.hex_edges, net.missing) == (whole.nodes, whole.hex_edges, [])


def test_a_walk_stopped_part_way_is_dropped_by_a_change_on_its_way() -> None:
    game = final_game(GAMES[0])
    cities = {(hx.id, node) for hx in game.board.hexes.values() for node in hx.tile.tokens}
    found = 0
    for sym in stationed(game):
        corp = game.corporations[sym]
        other = game.corporations[next(s for s in stationed(game) if s != sym)]
        game.networks.clear()
        net = game.track.reach(corp)
        if not net.node_wanted(lambda ref, net=net: ref in cities - net.token_nodes) or net.walks:
            continue
        # The first walk stopped at a city: what it found is in the network, and its station is still to walk.
        stopped = next(iter(net.partial.values()))
        assert stopped.start in net.missing and stopped.nodes <= net.nodes

        def unrelated(hex_id: str, net: Network = net, sym: str = sym) -> bool:
            hx = game.board.hexes[hex_id]
            return all(h != hex_id for h, _ in net.token_nodes) and sym not in {
                o for slots in hx.tile.tokens.values() for o in slots}

        away = next(hx for hx in game.board.hexes.values() if unrelated(hx.id) and not stopped.may_change(hx))
        game.track.hex_changed(away, other)
        assert not net.stale  # a change nowhere near it leaves it be
        on_way = [h for h in sorted(stopped.walked) if unrelated(h)]
        if not on_way:
            continue
        game.track.hex_changed(game.board.hexes[on_way[0]], other)
        assert net.stale
        found += 1
    assert found  # the game's end has walks to stop part way
