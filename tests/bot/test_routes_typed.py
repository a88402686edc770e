"""Routes typed as 18xx.games writes them (stop to stop), broken paths named by their missing link, and runs
written back in the typed form."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.core.commands import CommandError, parse
from bot.core.intents import translate
from tests.bot.conftest import Table
from tests.bot.test_manual_routes import _path, _recorded_positions
from tests.bot.ux_helpers import driven


def _stops(connections: list[list[str]]) -> list[str]:
    path = _path(connections)
    legs = [list(c) for c in connections]
    ends = {c[0] for c in legs} | {c[-1] for c in legs}
    return [h for i, h in enumerate(path) if h in ends and (i == 0 or path[i - 1] != h)]


def test_recorded_routes_typed_as_stop_lists_earn_the_recorded_revenue() -> None:
    tried = 0
    for pos in _recorded_positions(3):
        game, corp = pos.game, pos.corp
        words = []
        for route in pos.action["routes"]:
            words += [game.all_trains[route["train"]].name, "-".join(_stops(route["connections"]))]
        intent = translate(game, game.acting_player(corp), parse("run " + " ".join(words)))
        game.process(json.loads(json.dumps(intent.action)))
        assert game.round.revenue == sum(int(r["revenue"]) for r in pos.action["routes"])  # type: ignore[attr-defined]
        tried += 1
    assert tried >= 1


def test_a_broken_path_names_its_missing_link() -> None:
    pos = _recorded_positions(1)[0]
    game, corp = pos.game, pos.corp
    player = game.acting_player(corp)
    route = pos.action["routes"][0]
    train = game.all_trains[route["train"]].name
    path = _path(route["connections"])
    # Walk on from the route's end into a neighbour with no track towards it.
    end = game.board.hexes[path[-1]]
    _edge, beyond = next(
        (e, n) for e, n in sorted(end.neighbors.items()) if e not in end.tile.exits() and n not in path
    )
    with pytest.raises(CommandError, match=rf"no track between {path[-1]} and {beyond}"):
        translate(game, player, parse(f"run {train} {'-'.join([*path, beyond])}"))
    # Two stops that no track of the company joins: the leg is named.
    far = next(
        h.id for h in game.board.hexes.values()
        if h.tile.tdef.cities and not h.tile.exits() and h.id not in path and h.id != path[0]
    )
    with pytest.raises(CommandError, match=rf"no track from {path[0]} to {far}"):
        translate(game, player, parse(f"run {train} {path[0]}-{far}"))


async def test_run_auto_answers_in_the_typed_form_that_runs_again(table: Table) -> None:
    game = await driven(table)

    def may_run(g: Any) -> bool:
        return any("run_routes" in g.actions_for(e) for e in g.acting())

    await game.until(may_run)
    user = game.acting_user()
    auto = await table.say(user, "run auto")
    assert auto.ok, auto.text
    typed = re.search(r"as typed: `(run [^`]+)`", auto.text)
    assert typed is not None, auto.text
    total = re.search(r"runs for (\$\d+)", auto.text)
    assert total is not None
    assert "-train: " in auto.text
    assert (await table.say(user, "undo")).ok
    again = await table.say(user, typed.group(1))
    assert again.ok, again.text
    assert f"runs for {total.group(1)}" in again.text


async def test_token_costs_show_before_placing(table: Table) -> None:
    game = await driven(table)

    def may_token(g: Any) -> bool:
        return any("place_token" in g.actions_for(e) for e in g.acting()) and g.round.name().startswith("Oper")

    await game.until(may_token)
    user = game.acting_user()
    listing = await table.say(user, "token")
    assert not listing.ok and "you can place: token " in listing.text
    assert re.search(r"token [A-Z]+\d+( \d)? \(\$\d+\)", listing.text), listing.text
    moves = await table.say(user, "moves")
    assert re.search(r"token [A-Z]+\d+( \d)? \(\$\d+\)", moves.text), moves.text


def test_two_city_hexes_are_numbered_on_the_map(monkeypatch: pytest.MonkeyPatch) -> None:
    """The map draws 1, 2, ... beside the cities of a hex with several, in the order `token HEX N` uses."""
    import engine
    from engine.core import viewbuild
    from rendering import map as map_module

    drawn: list[tuple[int, int]] = []
    real = map_module._draw_city_number

    def spy(ctx: Any, n: Any, centre: Any, number: int) -> None:
        drawn.append((n.index, number))
        real(ctx, n, centre, number)

    monkeypatch.setattr(map_module, "_draw_city_number", spy)
    g = engine.new_game("1882", [(1, "A"), (2, "B"), (3, "C")])
    board = viewbuild.board_view(g)
    map_module.render_map(board)
    expected = [
        (n.index, k + 1)
        for h in board.hexes
        if sum(x.kind == "city" for x in h.nodes) > 1
        for k, n in enumerate(x for x in h.nodes if x.kind == "city")
    ]
    assert expected and sorted(drawn) == sorted(expected)
