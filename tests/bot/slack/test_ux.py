"""Player-experience answers through the Slack app: tile options, grouped moves, company cards, results."""

from __future__ import annotations

from typing import Any

from tests.bot.slack.conftest import CHANNEL, Slack, start_game
from tests.bot.ux_helpers import Driven, in_lay_step, lay_choices

IDS = {"alice": "U1", "bob": "U2"}


def _text(call: Any) -> str:
    return str(call.params.get("text", ""))


async def slack_game(slack: Slack, seed: int = 7) -> Driven:
    await start_game(slack, ("U1", "U2"), seed)

    async def say(user: str, text: str) -> None:
        mark = slack.fake.mark()
        await slack.command(IDS[user], text)
        refused = [c for c in slack.fake.since(mark, "chat.postEphemeral") if "[" in _text(c)[:3]]
        assert not refused, [_text(c) for c in refused]

    return Driven(say, ("alice", "bob"), seed)


async def test_lay_hex_on_slack_lists_the_tiles_privately(slack: Slack) -> None:
    game = await slack_game(slack)
    await game.until(in_lay_step)
    hex_id = lay_choices(game.mirror)[0]["hex"]
    n = len([c for c in lay_choices(game.mirror) if c["hex"] == hex_id])
    mark = slack.fake.mark()
    await slack.command(IDS[game.acting_user()], f"lay {hex_id}")
    [answer] = slack.fake.since(mark, "chat.postEphemeral")
    assert f"Tiles that fit on {hex_id} ({n} lays)" in _text(answer)
    assert not slack.fake.since(mark, "chat.postMessage")  # nothing posted to the channel, nothing stored
    mark = slack.fake.mark()
    await slack.command(IDS[game.acting_user()], "moves")
    [answer] = slack.fake.since(mark, "chat.postEphemeral")
    assert f"lay {hex_id}: " in _text(answer) and answer.params["channel"] == CHANNEL


async def test_run_auto_on_slack_gives_the_typed_route(slack: Slack) -> None:
    game = await slack_game(slack)
    await game.until(lambda g: any("run_routes" in g.actions_for(e) for e in g.acting()))
    mark = slack.fake.mark()
    await slack.command(IDS[game.acting_user()], "run auto")
    [posted] = slack.fake.since(mark, "chat.postMessage")
    assert "as typed: `run " in _text(posted) and "-train: " in _text(posted)


async def test_companies_on_slack(slack: Slack) -> None:
    await start_game(slack, ("U1", "U2"))
    await slack.command("U1", "bid TB 150")
    mark = slack.fake.mark()
    await slack.command("U2", "companies")
    [posted] = slack.fake.since(mark, "chat.postMessage")
    assert "high bid alice $150" in _text(posted) and "Public companies:" in _text(posted)


async def test_the_board_is_pinned_and_updated_in_place_on_slack(slack: Slack) -> None:
    await start_game(slack, ("U1", "U2"))
    [posted] = [c for c in slack.fake.boards() if c.method == "chat.postMessage"]
    assert [p.params["timestamp"] for p in slack.fake.of("pins.add")] == [posted.result["ts"]]
    await slack.command("U1", "buy HB")
    updates = [c for c in slack.fake.boards() if c.method == "chat.update"]
    assert [u.params["ts"] for u in updates] == [posted.result["ts"]]
    assert "Waiting for bob" in _text(updates[-1])
    assert len([c for c in slack.fake.boards() if c.method == "chat.postMessage"]) == 1


async def test_who_on_slack_shows_a_reader_local_date(slack: Slack) -> None:
    await start_game(slack, ("U1", "U2"))
    await slack.command("U1", "buy HB")
    mark = slack.fake.mark()
    await slack.command("U2", "who")
    [posted] = slack.fake.since(mark, "chat.postMessage")
    assert "(since <!date^" in _text(posted)
