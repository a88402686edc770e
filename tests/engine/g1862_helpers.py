"""Building 1862 positions for the scenario checks (spec §13): real actions where the spec plays them, direct
set-up of holdings, prices and treasuries where it only describes a position."""

from __future__ import annotations

from typing import Any

from engine import new_game
from engine.core.entities import Corporation, Player, Share
from engine.titles.g1862.game import G1862

# The privates bought in seat order, one a turn, at printed prices: P1 BOM, P2 ERIE, P3 B&O, P4 RMC, ...
PRIVATES = ("BOM", "ERIE", "B&O", "RMC", "PSC", "FNY", "SOC", "NYSH")
PRICES = {"BOM": 20, "ERIE": 40, "B&O": 70, "RMC": 100, "PSC": 150, "FNY": 180, "SOC": 220, "NYSH": 280}


def new(players: int = 4, seed: int = 1) -> G1862:
    game = new_game("1862", [(i, f"P{i}") for i in range(1, players + 1)], seed=seed)
    assert isinstance(game, G1862)
    return game


def act(game: G1862, kind: str, pid: int, **fields: Any) -> None:
    # Positions are partly set up by hand, outside the action log: a refused action must restore this state,
    # not replay the log from an older snapshot.
    game._checkpoint = None
    game.process({"type": kind, "entity": pid, "entity_type": "player", **fields})


def corp_act(game: G1862, kind: str, sym: str, **fields: Any) -> None:
    game._checkpoint = None
    game.process({"type": kind, "entity": sym, "entity_type": "corporation", **fields})


def player(game: G1862, pid: int) -> Player:
    return game.player_by_id(pid)


def sell_privates(game: G1862, nyh_par: str = "100,0,7") -> None:
    """Every private bought in seat order at its printed price; the NYSH buyer pars NYH."""
    n = len(game.players)
    for i, sym in enumerate(PRIVATES):
        act(game, "bid", i % n + 1, company=sym, price=PRICES[sym])
    act(game, "par", (len(PRIVATES) - 1) % n + 1, corporation="NYH", share_price=nyh_par)


def stock_round(game: G1862) -> None:
    """Start a normal stock round now (the position before it was set up by hand)."""
    game.round = game.stock_round()
    game.round.start()


def operating_round(game: G1862, number: int = 1) -> None:
    game.round = game.operating_round(number)
    game.round.start()


def give(game: G1862, pid: int, *share_ids: str) -> None:
    for sid in share_ids:
        game.shares.transfer_share(game.share_by_id(sid), player(game, pid))


def to_pool(game: G1862, *share_ids: str) -> None:
    for sid in share_ids:
        game.shares.transfer_share(game.share_by_id(sid), game.pool)


def start(game: G1862, sym: str, president: int, *, row: int = 0, col: int = 7, floated: bool = True,
          cash: int | None = None) -> Corporation:
    """Par ``sym`` with ``president`` holding the president's certificate; place its marker at (row, col)."""
    corp = game.corporations[sym]
    par = game.market.cell(0, 7) if row > 5 else game.market.cell(row, 7)
    game.shares.set_par(corp, par)
    give(game, president, f"{sym}_0")
    corp.owner = player(game, president)
    game.market.place(sym, game.market.cell(row, col))
    if floated:
        corp.floated = True
        if cash:
            game.bank.spend(cash, corp)
    return corp


def shares_of(game: G1862, pid: int, sym: str) -> list[Share]:
    return player(game, pid).shares_of(sym)


def choices(game: G1862, entity: Any, kind: str) -> list[dict[str, Any]]:
    return game.round.choices_for(entity, kind)


def lay(g: G1862, corp: str, hex_id: str, tile: str, rotation: int) -> None:
    """Build track the scenario takes as given (no connection needed, terrain paid by the company)."""
    g.track.lay_tile(g.corporations[corp], {"hex": hex_id, "tile": f"{tile}-{_free_copy(g, tile)}",
                                      "rotation": rotation}, check_connection=False)


def _free_copy(g: G1862, tile: str) -> int:
    return min(int(t.id.rsplit("-", 1)[1]) for t in g.tile_supply.values() if t.name == tile)


def own_trains(g: G1862, sym: str, *names: str) -> None:
    corp = g.corporations[sym]
    for name in names:
        train = next(t for t in g.depot if t.name == name)
        g.depot.remove(train)
        train.owner = corp
        corp.trains.append(train)


def only_a_pool_three(g: G1862) -> None:
    """Phase 3 with the bank's 2- and 3-trains gone and one 3-train for sale in the pool."""
    g.phase_index = 2
    g.depot = [t for t in g.depot if t.name not in ("2", "3")]
    three = g.all_trains["3-5"]
    three.owner = g.pool
    g.pool_trains.append(three)
