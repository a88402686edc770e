"""``python -m engine.routes FILE.json --all --json``: the optimal routes before every run_routes of a game.

For each standing run_routes action of an 18xx.games game, the position before it is rebuilt and the
optimum for the operating company is computed. One JSON line per action:
``{"action_id", "corporation", "trains", "claimed", "optimal", "proven", "seconds"}``, where claimed is the
engine's price of the routes the players ran (None, with ``refused`` saying why, for a run recorded on 18xx.games
that today's rules refuse: it stands as recorded, and the walk goes on). ``--before ACTION_ID`` does one position
and also prints the routes found; ``--check`` also submits the routes found as a run_routes action to a freshly replayed
game and reports the revenue the engine computes for them (``engine``).

Exit 0 when done, 1 when an action of the game is refused, 2 for a file that is not a game.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .core import actions as act
from .core.autoroute import Solution, solve, validate_route, validate_routes
from .core.entities import Corporation
from .core.errors import GameError
from .core.game import Game
from .core.routes import build_route
from .importer import GameFile, ReplayError, read_game_file
from .titles import title_class


@dataclass(slots=True)
class Position:
    """The game just before a run_routes action (``index`` into the standing actions)."""

    game: Game
    action: dict[str, Any]
    index: int
    corp: Corporation


def new_game(gf: GameFile) -> Game:
    return title_class(gf.title)(gf.players, gf.seed, gf.options)


def positions(gf: GameFile, only: Any = None) -> Iterator[Position]:
    """Walk the game, yielding the position before each run_routes (or only before action ``only``).

    The game object is the live replay: use it before advancing the iterator.
    """
    game = new_game(gf)
    for index, action in enumerate(act.filter_undo(gf.actions)):
        wanted = action.get("type") == "run_routes" if only is None else str(action.get("id")) == str(only)
        if wanted:
            corp = game.corporation(action["entity"]) if action.get("type") == "run_routes" else \
                game.round.entity()
            if isinstance(corp, Corporation):
                yield Position(game, action, index, corp)
            if only is not None:
                return
        try:
            game._apply(action)
        except GameError as exc:
            raise ReplayError(action.get("id"), exc) from exc
        game.raw_actions.append(action)


def replay_to(gf: GameFile, index: int) -> Game:
    """A fresh game with the first ``index`` standing actions applied."""
    game = new_game(gf)
    for action in act.filter_undo(gf.actions)[:index]:
        game._apply(action)
    return game


def claimed_revenue(game: Game, corp: Corporation, action: dict[str, Any]) -> int:
    """The engine's price of the routes the players ran (the recorded per-route revenue is ignored).

    A title whose routes are traced and priced by its own step (1822) prices them with ``run_revenue``.
    """
    own = game.run_revenue(corp, action.get("routes") or [])
    if own is not None:
        return own
    total = 0
    for data in action.get("routes") or []:
        train = game.all_trains[str(data["train"])]
        route = build_route(game, corp, train, data)
        total += game.route_revenue(corp, route)
    return total


def recorded_revenue(action: dict[str, Any]) -> int | None:
    routes = action.get("routes") or []
    if not routes or any(r.get("revenue") is None for r in routes):
        return None
    return sum(int(r["revenue"]) for r in routes)


def check_legal(game: Game, corp: Corporation, routes: list[dict[str, Any]]) -> None:
    """Raise GameError unless these run_routes routes pass the autoroute validation (and the title's own
    tracing, for a title that prices runs itself)."""
    if game.run_revenue(corp, routes) is not None:
        # Local runs and runs inside one hex ([HEX]) have no hexside to follow: the title traced them.
        routes = [r for r in routes if all(len(leg) > 1 and leg[0] != "local" for leg in r.get("connections") or [])]
    traced = [validate_route(game, corp, game.all_trains[str(r["train"])], r) for r in routes]
    validate_routes(game, corp, traced)


def engine_revenue(gf: GameFile, pos: Position, sol: Solution) -> int:
    """Submit the routes found to a freshly replayed game's RouteStep and return the revenue it computes."""
    game = replay_to(gf, pos.index)
    action = {"type": "run_routes", "entity": pos.corp.sym, "entity_type": "corporation",
              "routes": sol.action_routes()}
    game._apply(action)
    return sum(int(r["revenue"]) for r in game.last_routes)


def evaluate(gf: GameFile, pos: Position, budget: float | None,
             check: bool = False) -> tuple[dict[str, Any], Solution]:
    game, corp = pos.game, pos.corp
    sol = solve(game, corp, time_budget=budget)
    claimed: int | None = None
    refused: str | None = None
    if pos.action.get("type") == "run_routes":
        try:
            claimed = claimed_revenue(game, corp, pos.action)
        except GameError as exc:
            # A run recorded on 18xx.games that today's rules refuse (it stood as recorded): said, not priced.
            refused = exc.message
    out: dict[str, Any] = {
        "action_id": pos.action.get("id"),
        "corporation": corp.sym,
        "trains": [t.name for t in game.route_trains(corp)],
        "claimed": claimed,
        "optimal": sol.total,
        "proven": sol.proven,
        "seconds": round(sol.seconds, 4),
    }
    if refused is not None:
        out["refused"] = refused
    recorded = recorded_revenue(pos.action)
    if recorded is not None and recorded != out["claimed"]:
        out["recorded"] = recorded
    if check:
        check_legal(game, corp, sol.action_routes())
        out["engine"] = engine_revenue(gf, pos, sol)
    return out, sol


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.routes", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--all", action="store_true", help="every run_routes position")
    which.add_argument("--before", metavar="ACTION_ID", help="the position before this action")
    parser.add_argument("--json", action="store_true", help="JSON lines")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per position (default 10)")
    parser.add_argument("--check", action="store_true", help="also run the routes found through the engine")
    args = parser.parse_args(argv)
    try:
        gf = read_game_file(args.file)
    except GameError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    try:
        found = False
        for pos in positions(gf, None if args.all else args.before):
            found = True
            out, sol = evaluate(gf, pos, args.budget, args.check)
            if args.before is not None:
                out["routes"] = sol.describe()
            if args.json:
                print(json.dumps(out), flush=True)
            else:
                _print_text(out)
        if not found:
            print(f"error: no action {args.before} in this game where a company operates", file=sys.stderr)
            return 2
    except ReplayError as exc:
        print(f"error: action {exc.action_id} refused: {exc.error.message}", file=sys.stderr)
        return 1
    return 0


def _print_text(out: dict[str, Any]) -> None:
    flag = "" if out["proven"] else " (not proven: time ran out)"
    claimed = "" if out["claimed"] is None else f", players ran ${out['claimed']}"
    if "refused" in out:
        claimed = f", the recorded run is refused by today's rules ({out['refused']}) and stood as recorded"
    engine = "" if "engine" not in out else f", the engine prices these routes at ${out['engine']}"
    print(f"action {out['action_id']}: {out['corporation']} [{' '.join(out['trains'])}] optimum "
          f"${out['optimal']}{flag}{claimed}{engine} in {out['seconds']:.3f} s")
    for r in out.get("routes", []):
        legs = "; ".join("-".join(c) for c in r["connections"])
        print(f"  {r['train']}: ${r['revenue']}  {' '.join(r['stops'])}  ({legs})")


if __name__ == "__main__":
    sys.exit(main())
