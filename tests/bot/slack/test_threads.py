"""Several games in one Slack channel: a second game lives in a thread the bot starts, addressed by
``@Roundhouse`` mentions in that thread or by ``/18xx #N ...`` in the channel."""

from __future__ import annotations

import itertools
import json

from bot.slack.app import SlackBot
from tests.bot.slack.conftest import CHANNEL, Slack, signed_headers, start_game
from tests.bot.slack.fake_slack import FakeSlack

_events = itertools.count(100)


async def _mention(slack: Slack, user: str, text: str, thread_ts: str) -> None:
    body = json.dumps(
        {
            "token": "legacy",
            "team_id": "T1",
            "api_app_id": "A1",
            "type": "event_callback",
            "event_id": f"Ev{next(_events)}",
            "event_time": 1_700_000_000,
            "event": {
                "type": "app_mention",
                "user": user,
                "text": f"<@UBOT> {text}",
                "channel": CHANNEL,
                "ts": f"1700000500.{next(_events):06d}",
                "thread_ts": thread_ts,
            },
        }
    )
    response = await slack.dispatch(body, {"content-type": "application/json", **signed_headers(body)})
    assert response.status == 200


async def test_a_second_game_in_a_busy_channel_lives_in_a_thread(slack: Slack, fake: FakeSlack, bot: SlackBot) -> None:
    await start_game(slack, ("U1", "U2"))
    mark = fake.mark()
    await slack.command("U3", "new 1882 seed=3")
    root, created = fake.since(mark, "chat.postMessage")[:2]
    assert root.params["channel"] == CHANNEL and "opens another game here" in str(root.params["text"])
    thread_ts = str(root.result["ts"])
    assert "created 1882 game #2" in str(created.params["text"]) and created.params["thread_ts"] == thread_ts
    record = await bot.service.storage.get_game(2)
    assert record.channel == f"{CHANNEL}/{thread_ts}"

    await _mention(slack, "U4", "join", thread_ts)  # a mention in the game's thread
    assert [s.user_id for s in await bot.service.storage.list_seats(2)] == ["U3", "U4"]
    mark = fake.mark()
    await slack.command("U3", "#2 start")  # or /18xx #2 from the channel
    started = fake.since(mark, "chat.postMessage")
    assert started and all(c.params.get("thread_ts") == thread_ts for c in started)
    assert "Game #2 (1882) starts" in str(started[0].params["text"])
    await _mention(slack, "U3", "buy HB", thread_ts)
    assert await bot.service.storage.last_seq(2) == 1

    # The channel's first game goes on as before, untouched.
    mark = fake.mark()
    await slack.command("U1", "buy HB")
    assert await bot.service.storage.last_seq(1) == 1
    assert all(c.params.get("thread_ts") in (None, "") for c in fake.since(mark, "chat.postMessage"))
    mark = fake.mark()
    await slack.command("U1", "#7 status")
    assert "no game #7 in this channel" in str(fake.since(mark, "chat.postEphemeral")[0].params["text"])


async def test_a_refused_new_game_leaves_no_thread(slack: Slack, fake: FakeSlack, bot: SlackBot) -> None:
    await start_game(slack, ("U1", "U2"))
    mark = fake.mark()
    await slack.command("U3", "new 9999")
    [root] = fake.since(mark, "chat.postMessage")
    [deleted] = fake.since(mark, "chat.delete")
    assert deleted.params["ts"] == root.result["ts"]
    assert "no title 9999" in str(fake.since(mark, "chat.postEphemeral")[0].params["text"])



async def test_a_practice_copy_lives_in_a_thread_and_pings_nobody(slack: Slack, fake: FakeSlack, bot: SlackBot) -> None:
    await start_game(slack, ("U1", "U2"))
    mark = fake.mark()
    await slack.command("U2", "fork")
    root = fake.since(mark, "chat.postMessage")[0]
    assert root.params["channel"] == CHANNEL and "practises on a copy of this game" in str(root.params["text"])
    thread_ts = str(root.result["ts"])
    record = await bot.service.storage.get_game(2)
    assert record.channel == f"{CHANNEL}/{thread_ts}" and record.options["fork_of"] == 1
    mark = fake.mark()
    await _mention(slack, "U2", "buy HB", thread_ts)  # U1's seat, played by U2 in the copy
    assert await bot.service.storage.last_seq(2) == 1 and await bot.service.storage.last_seq(1) == 0
    posted = fake.since(mark, "chat.postMessage")
    assert posted and all(c.params.get("thread_ts") == thread_ts for c in posted)
    assert all("<@U" not in str(c.params.get("text")) for c in posted)  # nobody is pinged
