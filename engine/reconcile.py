"""Proof that the engine's events say everything an action did.

``python -m engine.reconcile TITLE N SEED_BASE [--players P] [--optional-rules A,B]`` plays N seeded games
(seeds SEED_BASE .. SEED_BASE+N-1, as ``engine.playout``) and after every action compares the events it
returned with the change of state: each holder's cash (the bank's included) changed by the money events, each
certificate moved as the share events say, each price as the price events, each train as the train events,
each tile and station as the board events. The last line reads ``TITLE: K/N games reconcile (first mismatch:
...)``. Exit 0 when every game reconciles, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .core import events as ev
from .core.entities import Holder
from .core.errors import GameError
from .core.game import Game
from .playout import default_players, random_playout, title_and_rules


@dataclass
class Ledger:
    """The parts of a game's state that events account for."""

    cash: dict[ev.Party, int] = field(default_factory=dict)
    shares: dict[str, ev.Party] = field(default_factory=dict)  # certificate id -> holder
    prices: dict[str, tuple[int, int] | None] = field(default_factory=dict)  # corporation -> market cell
    trains: dict[str, ev.Party] = field(default_factory=dict)  # train id -> the company (or pool) holding it
    tiles: dict[str, tuple[str, int]] = field(default_factory=dict)  # hex -> (tile id, rotation)
    stations: dict[str, Counter[str]] = field(default_factory=dict)  # hex -> who holds its station spaces


def _holders(game: Game) -> list[Holder]:
    seen: dict[int, Holder] = {}
    for holder in [game.bank, *game._holders()]:
        seen.setdefault(id(holder), holder)
    for corp in game.corporations.values():
        seen.setdefault(id(corp.treasury), corp.treasury)
    return list(seen.values())


def ledger(game: Game) -> Ledger:
    out = Ledger()
    for holder in _holders(game):
        out.cash[holder.party] = out.cash.get(holder.party, 0) + holder.cash
        for share in holder.shares:
            out.shares[share.id] = holder.party
    for party, cash in game.cash_aside().items():
        out.cash[party] = out.cash.get(party, 0) + cash
    for sym in game.corporations:
        cell = game.market.location.get(sym)
        out.prices[sym] = cell.coords if cell is not None else None
    for corp in game.corporations.values():
        for train in corp.trains:
            out.trains[train.id] = corp.party
    for train in game.pool_trains:
        out.trains[train.id] = ev.POOL
    for hx in game.board.hexes.values():
        out.tiles[hx.id] = (hx.tile.id, hx.tile.rotation)
        held = Counter(owner for slots in hx.tile.tokens.values() for owner in slots if owner is not None)
        if held:
            out.stations[hx.id] = held
    return out


class Mismatch(Exception):
    """An action whose events do not account for its change of state."""


def _expect(ok: bool, what: str) -> None:
    if not ok:
        raise Mismatch(what)


def predict(before: Ledger, events: tuple[ev.Event, ...]) -> Ledger:
    """``before`` changed as ``events`` say (raises Mismatch when an event contradicts the state it meets)."""
    out = Ledger(dict(before.cash), dict(before.shares), dict(before.prices), dict(before.trains),
                 dict(before.tiles), {h: Counter(c) for h, c in before.stations.items()})
    for event in events:
        if isinstance(event, ev.MoneyMoved):
            out.cash[event.payer] = out.cash.get(event.payer, 0) - event.amount
            out.cash[event.payee] = out.cash.get(event.payee, 0) + event.amount
        elif isinstance(event, ev.ShareMoved):
            _expect(out.shares.get(event.share) == event.giver,
                    f"{event.share} moves from {event.giver} but is held by {out.shares.get(event.share)}")
            out.shares[event.share] = event.taker
        elif isinstance(event, ev.ShareCreated):
            if event.gone:
                out.shares.pop(event.share, None)
            else:
                out.shares[event.share] = event.holder
        elif isinstance(event, ev.PriceMoved):
            _expect(out.prices.get(event.corp) == event.old_cell,
                    f"{event.corp}'s price moves from {event.old_cell} but is at {out.prices.get(event.corp)}")
            out.prices[event.corp] = event.new_cell
        elif isinstance(event, ev.TrainMoved):
            held = out.trains.pop(event.train, None)
            if event.giver.kind in (ev.PartyKind.CORPORATION, ev.PartyKind.POOL):
                _expect(held == event.giver, f"train {event.train} leaves {event.giver} but was with {held}")
            if event.taker.kind in (ev.PartyKind.CORPORATION, ev.PartyKind.POOL):
                out.trains[event.train] = event.taker
        elif isinstance(event, ev.TileLaid):
            out.tiles[event.hex] = (event.tile_id, event.rotation)
        elif isinstance(event, ev.StationChanged):
            held_here = out.stations.setdefault(event.hex, Counter())
            if event.old is not None:
                _expect(held_here[event.old] > 0, f"{event.old}'s station in {event.hex} is not there")
                held_here[event.old] -= 1
            if event.corp is not None:
                held_here[event.corp] += 1
            out.stations[event.hex] = +held_here
            if not out.stations[event.hex]:
                del out.stations[event.hex]
    return out


def differences(want: Ledger, got: Ledger) -> list[str]:
    """What the events left out or said wrongly, as ``what: events say X, state says Y``."""
    out = []
    for party in sorted(set(want.cash) | set(got.cash), key=str):
        if want.cash.get(party, 0) != got.cash.get(party, 0):
            out.append(f"cash of {party}: events say {want.cash.get(party, 0)}, state says {got.cash.get(party, 0)}")
    for name, a, b in (("certificate", want.shares, got.shares), ("price", want.prices, got.prices),
                       ("train", want.trains, got.trains), ("tile", want.tiles, got.tiles),
                       ("stations", want.stations, got.stations)):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                out.append(f"{name} {key}: events say {a.get(key)}, state says {b.get(key)}")
    return out


def check_action(before: Ledger, outcome: ev.Outcome, game: Game) -> list[str]:
    """Differences between the change the events of one action describe and the change of ``game``."""
    try:
        want = predict(before, outcome.events)
    except Mismatch as exc:
        return [str(exc)]
    return differences(want, ledger(game))


@dataclass
class GameCheck:
    seed: int
    actions: int = 0
    mismatch: str | None = None


def reconcile_game(title: str, players: int, seed: int, *, optional_rules: list[str] | None = None,
                   max_actions: int = 5000) -> GameCheck:
    """Play one seeded game and check every action's events against its change of state."""
    check = GameCheck(seed)
    state: dict[str, Ledger] = {}

    def before(game: Game, action: dict[str, Any]) -> None:
        state["before"] = ledger(game)

    def after(game: Game, action: dict[str, Any], outcome: ev.Outcome) -> None:
        check.actions += 1
        if check.mismatch is not None or outcome.rebuilt:
            return
        found = check_action(state["before"], outcome, game)
        if found:
            check.mismatch = (f"seed {seed}, action {len(game.raw_actions)} ({action.get('type')}): "
                              + "; ".join(found[:3]) + (f" (+{len(found) - 3} more)" if len(found) > 3 else ""))

    result = random_playout(title, players, seed, max_actions=max_actions, check=False,
                            optional_rules=optional_rules, before=before, after=after)
    if check.mismatch is None and result.problems:
        check.mismatch = f"seed {seed}: the playout stopped: {result.problems[0]}"
    return check


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.reconcile",
                                     description="Check over seeded games that every action's events account for "
                                                 "its change of state.")
    parser.add_argument("title")
    parser.add_argument("games", type=int)
    parser.add_argument("seed_base", type=int)
    parser.add_argument("--players", type=int, default=None, help="players per game (default: the title's "
                                                                  "smallest number, up to 4)")
    parser.add_argument("--optional-rules", default="", help="comma-separated optional rules")
    parser.add_argument("--max-actions", type=int, default=5000)
    args = parser.parse_args(argv)
    try:
        cls, rules = title_and_rules(args.title, args.optional_rules)
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    players = args.players or default_players(cls)
    good = 0
    first: str | None = None
    name = cls.TITLE + (f" ({','.join(rules)})" if rules else "")
    for seed in range(args.seed_base, args.seed_base + args.games):
        result = reconcile_game(cls.TITLE, players, seed, optional_rules=rules, max_actions=args.max_actions)
        if result.mismatch is None:
            good += 1
        else:
            first = first or result.mismatch
            print(f"mismatch: {result.mismatch}")
        print(f"seed {seed}: {result.actions} actions, {'reconciles' if result.mismatch is None else 'MISMATCH'}",
              flush=True)
    print(f"{name}: {good}/{args.games} games reconcile (first mismatch: {first or 'none'})")
    return 0 if good == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
