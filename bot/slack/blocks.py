"""Block Kit for the service's replies: text sections, one-click buttons, the App Home view.

Everything here is pure (dicts in, dicts out). Slack limits that shape it: a section's text holds 3,000
characters, a message 50 blocks, an App Home view 100, an actions block 25 elements, a button label 75
characters and a button value 2,000. The top-level ``text`` is always set as well, because notifications and
screen readers show it instead of the blocks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core import timefmt
from bot.core.replies import Button, GameSummary
from bot.core.text import split_text

Block = dict[str, Any]

ACTION_PREFIX = "rh_btn_"
ACTION_PATTERN = re.compile(rf"^{ACTION_PREFIX}\d+$")
MAX_SECTION = 3000
MAX_MESSAGE_BLOCKS = 50
MAX_HOME_BLOCKS = 100
MAX_LABEL = 75
MAX_VALUE = 2000
MAX_TEXT = 4000  # Slack truncates longer top-level texts
# Slack knows only these two button styles; everything else is drawn as its default button.
_STYLES = {"primary": "primary", "success": "primary", "danger": "danger"}


def escape(text: str) -> str:
    """Text as mrkdwn shows it literally (Slack's three control characters)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def link_channel(text: str, channel: str) -> str:
    """``text`` with the bare channel id (as the service writes it) turned into a channel link.

    A game in a thread has the place ``C123/1700000000.000100``: that is shown as a link to its channel.
    """
    if "/" in channel:
        channel_id = channel.split("/", 1)[0]
        text = text.replace(channel, channel_id)
        channel = channel_id
    if not channel or not re.fullmatch(r"[A-Z0-9]+", channel):
        return text
    return re.sub(rf"(?<![<#\w]){re.escape(channel)}(?!\w)", f"<#{channel}>", text)


def split_sections(text: str, limit: int = MAX_SECTION) -> list[str]:
    """``text`` in pieces that fit one section block each (never empty: Slack refuses a blank section)."""
    return split_text(text, limit, empty=" ")


@dataclass(frozen=True, slots=True)
class ButtonTarget:
    """What a click means: ``command`` for game ``game_id``, whose channel is ``channel``."""

    game_id: int | None
    channel: str
    command: str


def button_value(game_id: int | None, channel: str, command: str) -> str:
    """The value a button carries. The channel is there for buttons in direct messages (reminders), whose
    clicks must reach the game's channel."""
    value = json.dumps({"g": game_id, "ch": channel, "c": command}, separators=(",", ":"))
    if len(value) > MAX_VALUE:
        raise ValueError(f"button command too long for Slack: {command[:60]}...")
    return value


def parse_button_value(value: str) -> ButtonTarget:
    """The target of a clicked button; raises ValueError for a value we did not write.

    The length is checked before parsing: our values fit Slack's 2,000 characters, and a crafted one nested
    thousands of levels deep is refused at once instead of recursing through the JSON parser.
    """
    if len(value) > MAX_VALUE:
        raise ValueError(f"not a Roundhouse button value: {len(value)} characters")
    try:
        data = json.loads(value)
    except RecursionError:
        raise ValueError("not a Roundhouse button value: nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("c"), str) or not data["c"].strip():
        raise ValueError(f"not a Roundhouse button value: {value[:80]!r}")
    game = data.get("g")
    if game is not None and (not isinstance(game, int) or isinstance(game, bool) or not 0 < game < 2**63):
        raise ValueError(f"not a Roundhouse button value: game {str(game)[:30]!r}")
    return ButtonTarget(game, str(data.get("ch") or ""), data["c"])


def actions_block(buttons: Sequence[Button], game_id: int | None, channel: str) -> Block | None:
    elements: list[Block] = []
    for n, button in enumerate(buttons[:25]):
        element: Block = {
            "type": "button",
            "action_id": f"{ACTION_PREFIX}{n}",
            "text": {"type": "plain_text", "text": (button.label or button.command)[:MAX_LABEL], "emoji": False},
            "value": button_value(game_id, channel, button.command),
        }
        style = _STYLES.get(button.style)
        if style is not None:
            element["style"] = style
        elements.append(element)
    return {"type": "actions", "block_id": "rh_actions", "elements": elements} if elements else None


def message(
    text: str,
    *,
    mentions: Sequence[str] = (),
    buttons: Sequence[Button] = (),
    game_id: int | None = None,
    channel: str = "",
) -> tuple[str, list[Block]]:
    """The top-level text and the blocks of one message: ``mentions`` first, then the text, then buttons."""
    # Time markers become Slack dates after escaping (they are Slack markup themselves).
    body = timefmt.render(link_channel(escape(text), channel), "slack")
    if mentions:
        body = " ".join(mention(u) for u in dict.fromkeys(mentions)) + " " + body
    blocks: list[Block] = [_section(piece) for piece in split_sections(body)]
    actions = actions_block(buttons, game_id, channel)
    limit = MAX_MESSAGE_BLOCKS - (1 if actions else 0)
    if len(blocks) > limit:
        blocks = [*blocks[: limit - 1], _context("(cut short: Slack shows at most 50 blocks)")]
    if actions is not None:
        blocks.append(actions)
    return body[:MAX_TEXT], blocks


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _context(text: str) -> Block:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text}]}


def after_click(blocks: Sequence[Block], user_id: str, label: str) -> list[Block]:
    """A clicked message's blocks without its buttons, saying who clicked what (so no one clicks twice)."""
    kept = [b for b in blocks if b.get("type") != "actions"]
    return [*kept, _context(f"{mention(user_id)} chose *{escape(label)}*")]


def home_view(games: Sequence[GameSummary], command: str, *, notice: str | None = None) -> Block:
    """The App Home tab from the service's overview of the user's games, the user's turns first.

    ``notice`` replaces the list when the service could not give one (it names an incident id).
    """
    header: Block = {"type": "header", "text": {"type": "plain_text", "text": "Your 18xx games"}}
    if notice is not None:
        return {"type": "home", "blocks": [header, _section(escape(notice))]}
    mine: list[Block] = []
    others: list[Block] = []
    for game in games:
        if game.problem:
            state = game.problem
        elif not game.started:
            state = "waiting to start"
        elif game.your_turn:
            state = f"{game.round}, *YOUR TURN* ({', '.join(game.your_turn)})"
        else:
            state = f"{game.round}, waiting for {game.waiting_for}"
        text = f"*#{game.game_id} {escape(game.title)}* in <#{game.channel}>\n{escape(state)}"
        (mine if game.your_turn else others).append(_section(text))
    blocks: list[Block] = [header]
    if mine:
        blocks.append(_context(f":large_orange_diamond: Your turn in {len(mine)} game{'s' if len(mine) != 1 else ''}"))
    if not mine and not others:
        blocks.append(_section(f"You are not in any game. Start one with `{command} new 1882`."))
    blocks.extend(mine)
    if mine and others:
        blocks.append({"type": "divider"})
    blocks.extend(others)
    blocks = blocks[: MAX_HOME_BLOCKS - 1]
    blocks.append(_context(f"`{command} help` in a channel lists every command."))
    return {"type": "home", "blocks": blocks}
