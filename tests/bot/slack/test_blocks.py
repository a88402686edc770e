"""Block Kit building: Slack's limits, escaping, button values and the App Home view."""

from __future__ import annotations

import json

import pytest

from bot.core.replies import Button, GameSummary
from bot.slack import blocks


def test_text_is_escaped_and_mentions_lead() -> None:
    text, body = blocks.message("a <b> & c in C1", mentions=["U2", "U2"], channel="C1")
    assert text == "<@U2> a &lt;b&gt; &amp; c in <#C1>"
    assert body == [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]


def test_long_text_is_split_within_slack_limits() -> None:
    lines = [f"line {n} " + "x" * 90 for n in range(2000)]
    text, body = blocks.message("\n".join(lines), buttons=[Button("Pass", "pass")], game_id=1, channel="C1")
    assert len(body) == blocks.MAX_MESSAGE_BLOCKS
    assert body[-1]["type"] == "actions" and body[-2]["type"] == "context"
    assert all(len(b["text"]["text"]) <= blocks.MAX_SECTION for b in body if b["type"] == "section")
    assert len(text) <= blocks.MAX_TEXT
    assert blocks.split_sections("y" * 7000, 3000) == ["y" * 3000, "y" * 3000, "y" * 1000]


def test_buttons_carry_game_channel_and_command() -> None:
    buttons = [
        Button("Buy HB $20", "buy HB", "primary"),
        Button("Pass", "pass"),
        Button("Decline", "decline 3", "danger"),
    ]
    actions = blocks.actions_block(buttons, 7, "C9")
    assert actions is not None
    ids = [e["action_id"] for e in actions["elements"]]
    assert ids == ["rh_btn_0", "rh_btn_1", "rh_btn_2"] and all(blocks.ACTION_PATTERN.match(i) for i in ids)
    assert [e.get("style") for e in actions["elements"]] == ["primary", None, "danger"]
    target = blocks.parse_button_value(actions["elements"][0]["value"])
    assert (target.game_id, target.channel, target.command) == (7, "C9", "buy HB")


@pytest.mark.parametrize("value", ["", "[]", '{"g": 1}', '{"c": "  "}', "not json"])
def test_foreign_button_values_are_refused(value: str) -> None:
    with pytest.raises(ValueError):
        blocks.parse_button_value(value)


def test_after_click_drops_the_buttons() -> None:
    _, body = blocks.message("x", buttons=[Button("Pass", "pass")], game_id=1)
    after = blocks.after_click(body, "U1", "Pass")
    assert [b["type"] for b in after] == ["section", "context"]
    assert "<@U1> chose *Pass*" in json.dumps(after)


def test_home_view_puts_your_turns_first() -> None:
    games = [
        GameSummary(1, "1882", "C1", True, "Stock Round 1", waiting_for="bob"),
        GameSummary(2, "1882", "C2", True, "Auction Round", your_turn=("alice",)),
        GameSummary(3, "1882", "C3", False),
    ]
    view = blocks.home_view(games, "/18xx")
    assert view["type"] == "home"
    sections = [b["text"]["text"] for b in view["blocks"] if b["type"] == "section"]
    assert sections[0].startswith("*#2 1882* in <#C2>") and "YOUR TURN" in sections[0]
    assert [s.split("*")[1] for s in sections[1:]] == ["#1 1882", "#3 1882"]
    assert "Your turn in 1 game" in json.dumps(view)
    failed = blocks.home_view([], "/18xx", notice="Sorry (incident ab12)")
    assert "incident ab12" in json.dumps(failed) and len(failed["blocks"]) == 2
