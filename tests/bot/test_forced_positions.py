"""Forced steps met in seeded engine games, brought into the service: each says what and why."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from engine import new_game
from engine.core import query
from engine.core.entities import Corporation, Player
from engine.playout import _weight
from tests.bot.conftest import Table, started


def _play_until(wanted: Callable[[Any], bool], seeds: Iterable[int]) -> Any:
    """A seeded 4-player game played (shares and privates bought eagerly) until ``wanted`` holds."""
    for seed in seeds:
        rng = random.Random(seed)
        g = new_game("1882", [(i, f"P{i}") for i in range(1, 5)], seed=seed)
        for _ in range(2500):
            if g.finished:
                break
            if wanted(g):
                return g
            options = [o for e in query.deciding_entities(g) for o in query.all_choices(g, e, limit=200)]
            eager = ("buy_company", "buy_shares")
            weights = [_weight(o, "steady") * (30 if o["type"] in eager else 1) for o in options]
            g.process(rng.choices(options, weights)[0])
    raise AssertionError("no seed reached the wanted position")


async def _into_service(table: Table, g: Any) -> None:
    await started(table, tuple(p.name for p in g.players), seed=g.seed)
    for seq, action in enumerate(g.raw_actions, start=1):
        await table.service.storage.append_action(1, seq, action, "import")


def _choosing_home(g: Any) -> bool:
    for e in g.acting():
        step = query.step_for(g, e, "place_token")
        if isinstance(e, Corporation) and g.actions_for(e) == ["place_token"] and "home" in step.name.lower():
            return True
    return False


def _over_the_certificate_limit(g: Any) -> bool:
    return g.round.name().startswith("Stock") and any(
        isinstance(e, Player) and g.actions_for(e) == ["sell_shares"] and g.num_certs(e) > g.cert_limit
        for e in g.acting()
    )


async def test_choosing_a_home_station_says_so(table: Table) -> None:
    g = _play_until(_choosing_home, [1, *range(2, 40)])
    await _into_service(table, g)
    corp = next(e for e in g.acting() if isinstance(e, Corporation))
    text = (await table.say("P1", "who")).text
    assert f"{corp.sym} must choose its home station: `token " in text, text


async def test_selling_down_to_the_certificate_limit_says_so(table: Table) -> None:
    g = _play_until(_over_the_certificate_limit, [5, *range(6, 40)])
    await _into_service(table, g)
    player = next(e for e in g.acting() if isinstance(e, Player))
    text = (await table.say("P1", "who")).text
    # (seat names may map to other engine ids than the mirror's P1..P4: the numbers are what matter)
    assert f"holds {g.num_certs(player):g} certificates, over the limit of {g.cert_limit}" in text
    assert "must sell (`sell " in text


async def test_a_refused_pass_says_why(table: Table) -> None:
    g = _play_until(_over_the_certificate_limit, [5, *range(6, 40)])
    await _into_service(table, g)
    live = table.service._cache.get(1)
    assert live is not None
    player = next(e for e in g.acting() if isinstance(e, Player))
    seat = live.user_of(player.id)
    assert seat is not None
    reply = await table.say(seat.display_name, "pass")
    assert reply.outcome.value == "illegal" and "cannot pass now; you can: `sell " in reply.text
    assert "certificates, over the limit of" in reply.text
