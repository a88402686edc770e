"""Companies and privates in words and pictures: `companies`, `help PRIVATE`, the status sections and card."""

from __future__ import annotations

from typing import Any

from bot.core.replies import Reply
from tests.bot.conftest import Table, started
from tests.bot.ux_helpers import Driven, driven


async def test_companies_in_the_auction_show_value_revenue_ability_and_high_bid(table: Table) -> None:
    await started(table, ("alice", "bob", "carol"))
    assert (await table.say("alice", "bid TB 150")).ok
    reply = await table.say("bob", "companies")
    text = reply.text
    assert "Private companies:" in text and "Public companies:" in text
    assert "NWR North West Rebellion: value $80, revenue $15, for sale" in text
    assert "TB Trestle Bridge: value $140, revenue $0, for sale, high bid alice $150" in text
    assert "Owning corporation may once move one of its stations" in text  # the ability text
    assert "CPR Canadian Pacific Railway: not started" in text
    # status carries the private section too; `privates` is the same command.
    assert "Private companies" in (await table.say("carol", "status")).text
    assert (await table.say("carol", "privates")).text == text


async def test_help_names_a_private(table: Table) -> None:
    await started(table)
    text = (await table.say("alice", "help nwr")).text
    assert text.startswith("NWR North West Rebellion: value $80, revenue $15, held by the bank.")
    assert "`nwr VERB ...`" in text
    assert "Did you mean" in (await table.say("alice", "help nwrr")).text


async def test_company_cards_show_cash_trains_stations_and_shares(table: Table) -> None:
    game = await driven(table)
    await game.until(
        lambda g: g.round.name().startswith("Operating") and any(c.trains for c in g.corporations.values())
    )
    mirror = game.mirror
    text = (await table.say("alice", "companies")).text
    corp = next(c for c in mirror.corporations.values() if c.trains)
    line = next(x for x in text.splitlines() if x.strip().startswith(f"{corp.sym} "))
    assert f"cash ${corp.cash:,}" in line and f"trains {', '.join(t.name for t in corp.trains)}" in line
    assert f"IPO {corp.ipo_percent()}%, pool {mirror.pool.percent_of(corp.sym)}%" in line
    placed = [t.hex for t in corp.tokens if t.used]
    assert f"stations {len(placed)} placed at {', '.join(placed)}" in line
    owner: Any = corp.owner
    assert f"president {owner.name}" in line


async def test_status_posts_the_card_and_each_operating_round_end_does_too(table: Table) -> None:
    await started(table)
    replies: list[Reply] = []

    async def say(user: str, text: str) -> None:
        reply = await table.say(user, text)
        assert reply.ok, reply.text
        replies.append(reply)

    game = Driven(say, ("alice", "bob"), 7)
    table.service.images = True
    reply = await table.say("alice", "status")
    assert [a.filename.rsplit("-", 1)[-1] for a in reply.images] == ["status.png", "map.png"]
    table.service.images = False
    await game.until(lambda g: g.round.name().startswith("Operating"))
    name = game.mirror.round.name()
    table.service.images = True
    replies.clear()
    await game.until(lambda g: g.round.name() != name)
    cards = [r for r in replies if any(a.filename.endswith("status.png") for a in r.images)]
    assert cards == [replies[-1]]  # only the move that ended the round carries the card
