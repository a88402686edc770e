"""Asset transfer between corporations (1822 acquisitions, 1828 mergers) and the token kinds they leave on the map."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import transfer
from engine.core.autoroute import solve
from engine.core.board import Board
from engine.core.entities import Corporation, Train
from engine.core.errors import GameError
from engine.core.graph import city_blocks, company_network
from engine.core.invariants import problems, total_money
from engine.core.tiles import TokenKind
from engine.core.transfer import TokenFate
from engine.titles.g1882.game import G1882

# Flat hexes, letters are rows; edges: 0=S 3=N. A1 - C1 - E1 - G1 in a column.


def city(value: int, *edges: int, slots: int = 1) -> dict[str, Any]:
    size = f"x{slots}" if slots > 1 else ""
    return {"color": "yellow", "tile": " ".join([f"c{value}{size}"] + [f"{e}-n0" for e in edges])}


def column_game() -> G1882:
    game = G1882([(1, "A"), (2, "B"), (3, "C")], seed=1)
    game.board = Board.from_data({"layout": "flat", "letters": "rows", "hexes": {
        "A1": city(100, 0), "C1": city(30, 3, 0, slots=2), "E1": city(20, 3, 0), "G1": city(10, 3)}})
    game.track.board_changed()
    return game


def station(game: G1882, corp: Corporation, hex_id: str) -> None:
    token = next(t for t in corp.tokens if not t.used and t.corp == corp.sym)
    game.track.place_token(corp, token, game.board[hex_id], 0, free=True)


def give_train(game: G1882, corp: Corporation, name: str, distance: int) -> Train:
    train = Train(f"{name}-x{len(game.all_trains)}", name, distance, 0, owner=corp)
    corp.trains.append(train)
    game.all_trains[train.id] = train
    return train


def test_absorb_moves_cash_trains_privates_and_stations_keeping_the_books() -> None:
    game = column_game()
    money = total_money(game)
    minor, major = game.corporations["GT"], game.corporations["CPR"]
    game.bank.spend(150, minor)
    game.bank.spend(300, major)
    train = give_train(game, minor, "2", 2)
    private = game.companies["TB"]
    game.players[0].companies.remove(private) if private in game.players[0].companies else None
    private.owner = minor
    minor.companies.append(private)
    minor.markers.append("coal")
    station(game, minor, "E1")
    station(game, major, "A1")
    before_unused = len(minor.unused_tokens())

    moved = transfer.absorb(game, minor, major)

    assert moved.cash == 150 and (minor.cash, major.cash) == (0, 450)
    assert moved.trains == [train] and train.owner is major and minor.trains == []
    assert private.owner is major and private in major.companies and not minor.companies
    assert major.markers == ["coal"] and minor.markers == []
    # The minor's station in E1 is now the major's, and the major's network reaches from it.
    assert game.board["E1"].tile.tokens[0] == ["CPR"]
    assert ("E1", 0) in company_network(game.board, "CPR").token_nodes
    assert not minor.tokens and len(major.unused_tokens()) == 3 + before_unused  # CPR had 3 spare
    assert problems(game, money) == []


def test_a_duplicate_station_becomes_a_blocking_marker_that_blocks_everyone() -> None:
    game = column_game()
    a, b = game.corporations["GT"], game.corporations["CPR"]
    station(game, a, "C1")
    station(game, b, "C1")
    station(game, a, "E1")
    assert transfer.shared_hexes(a, b) == {"C1"}
    transfer.move_tokens(game, a, b, transfer.default_fate(a, b))
    tile = game.board["C1"].tile
    assert sorted(s or "" for s in tile.tokens[0]) == ["B", "CPR"]
    assert TokenKind.BLOCKING in tile.kinds[0]
    # One station of CPR in C1 and the blocker: C1 is CPR's, it does not block CPR, it is nobody else's.
    assert tile.holds_station(0, "CPR") and not tile.holds_station(0, "B")
    assert not city_blocks(game.board["C1"], 0, "CPR")
    assert city_blocks(game.board["C1"], 0, "HBR")
    assert ("E1", 0) in company_network(game.board, "CPR").token_nodes


def test_a_blocking_marker_in_a_full_city_blocks_even_the_company_it_was_made_from() -> None:
    game = column_game()
    corp = game.corporations["CPR"]
    give_train(game, corp, "4", 4)
    station(game, corp, "E1")
    tile = game.board["C1"].tile
    tile.tokens[0] = ["B", "B"]
    tile.kinds[0] = [TokenKind.BLOCKING, TokenKind.BLOCKING]
    game.track.board_changed()
    assert city_blocks(game.board["C1"], 0, "CPR")
    sol = solve(game, corp)
    assert sol.total == 60  # G1, E1 and C1, where the route must end: A1 (100) beyond it is out of reach
    # A marker carrying a company's own symbol still blocks it and starts none of its routes.
    tile.tokens[0] = ["CPR", "HBR"]
    tile.kinds[0] = [TokenKind.BLOCKING, TokenKind.NORMAL]
    assert city_blocks(game.board["C1"], 0, "CPR") and not tile.holds_station(0, "CPR")


def test_replace_and_remove_free_or_retake_the_space() -> None:
    game = column_game()
    minor, major = game.corporations["GT"], game.corporations["CPR"]
    station(game, minor, "E1")
    station(game, minor, "C1")
    e1, c1 = (next(t for t in minor.tokens if t.hex == h) for h in ("E1", "C1"))
    spare = len(major.unused_tokens())
    placed = transfer.move_token(game, e1, minor, major, TokenFate.REPLACE)
    assert placed is not None and placed in major.tokens and placed.hex == "E1"
    assert game.board["E1"].tile.tokens[0] == ["CPR"] and len(major.unused_tokens()) == spare - 1
    assert e1 not in minor.tokens and not e1.used
    assert transfer.move_token(game, c1, minor, major, TokenFate.REMOVE) is None
    assert game.board["C1"].tile.tokens[0] == [None, None]
    assert game.can_token_city(major, game.board["C1"], 0)


def test_replace_needs_a_spare_token() -> None:
    game = column_game()
    minor, major = game.corporations["GT"], game.corporations["CPR"]
    station(game, minor, "E1")
    for t in major.tokens:
        t.used = True
    with pytest.raises(GameError, match="no token left"):
        transfer.move_token(game, next(t for t in minor.tokens if t.used), minor, major, TokenFate.REPLACE)


def test_moves_refuse_what_the_giver_does_not_own() -> None:
    game = column_game()
    a, b = game.corporations["GT"], game.corporations["CPR"]
    train = give_train(game, b, "2", 2)
    with pytest.raises(GameError, match="does not own"):
        transfer.move_trains(a, b, [train])
    with pytest.raises(GameError):
        transfer.move_cash(a, b, 10)
    with pytest.raises(GameError, match="negative"):
        transfer.move_cash(b, a, -1)


def test_shares_move_and_return_to_the_ipo_keeping_each_company_at_100_percent() -> None:
    game = column_game()
    money = total_money(game)
    gt, cpr = game.corporations["GT"], game.corporations["CPR"]
    player = game.players[0]
    transfer.move_shares(gt.shares[:3], player)
    transfer.move_shares(gt.shares[:1], cpr)  # a company may hold another's certificate
    assert player.percent_of("GT") == 40 and cpr.percent_of("GT") == 10
    assert problems(game, money) == []
    transfer.return_certificates(game._holders(), gt)
    assert gt.ipo_percent() == 100 and player.percent_of("GT") == 0 and cpr.percent_of("GT") == 0
    assert all(s.owner is gt for s in gt.shares)
    assert problems(game, money) == []


def test_absorb_carries_loans_and_debt_and_the_money_stays_the_same() -> None:
    game = column_game()
    money = total_money(game)
    a, b = game.corporations["GT"], game.corporations["CPR"]
    a.loans, a.debt = 0, 0
    from engine.core import loans
    loans.lend(game.bank, a, 80)
    moved = transfer.absorb(game, a, b)
    assert (moved.debt, b.debt, a.debt, b.cash) == (80, 80, 0, 80)
    assert total_money(game) == money
