"""One-click buttons that survive restarts: ``rh:<game id>:<command>`` custom ids, parsed by a DynamicItem.

The custom id holds everything a click needs (the game and the command text), so buttons posted before a
restart still work: discord.py matches any incoming custom id against the template once the class is
registered with ``Client.add_dynamic_items``. A click is sent to the service like typed text from the
clicking user, and the service refuses anyone but the acting seat.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.core.replies import Button

log = logging.getLogger(__name__)

PREFIX = "rh"
MAX_CUSTOM_ID = 100  # Discord's limit
MAX_LABEL = 80
PER_ROW = 5
MAX_BUTTONS = 25  # 5 rows of 5

STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class ClickHandler(Protocol):
    async def click(self, interaction: discord.Interaction, game_id: int, command: str) -> None: ...


class HasClickHandler(Protocol):
    roundhouse: ClickHandler


#: At most 18 digits: every game id fits the database's signed 64 bits, so a crafted id cannot overflow it.
TEMPLATE = rf"{PREFIX}:(?P<game>[0-9]{{1,18}}):(?P<command>.+)"
#: What a click on a button that no handler takes (an old custom id, a crafted one) is answered.
NOT_MINE = "That button is not one of mine (or is from an old version); nothing happened. Send `/18xx moves`."


def handled(custom_id: str) -> bool:
    """Whether a clicked custom id reaches :class:`GameButton` (otherwise nothing else would answer it)."""
    return re.fullmatch(TEMPLATE, custom_id, re.DOTALL) is not None


def custom_id(game_id: int, command: str) -> str:
    return f"{PREFIX}:{game_id}:{command}"


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A button that sends ``command`` to game ``game_id`` as the user who clicks it."""

    def __init__(self, game_id: int, command: str, label: str = "", style: str = "secondary", row: int | None = None):
        super().__init__(
            discord.ui.Button(
                label=(label or command)[:MAX_LABEL],
                style=STYLES.get(style, discord.ButtonStyle.secondary),
                custom_id=custom_id(game_id, command),
            ),
            row=row,
        )
        self.game_id = game_id
        self.command = command

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> GameButton:
        label = getattr(item, "label", None) or ""
        return cls(int(match["game"]), match["command"], label)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "roundhouse", None)
        if handler is None:  # the client was not set up by bot.discord.client
            log.error("a button was clicked but the client has no roundhouse handler")
            await interaction.response.send_message(NOT_MINE, ephemeral=True)
            return
        await handler.click(interaction, self.game_id, self.command)


def view_for(game_id: int | None, buttons: Sequence[Button]) -> discord.ui.View | None:
    """A persistent view (no timeout) with the buttons, five per row; None when there is nothing to click.

    Buttons whose custom id would be too long are left out (their command can still be typed).
    """
    if game_id is None or not buttons:
        return None
    view = discord.ui.View(timeout=None)
    count = 0
    for button in buttons:
        if count >= MAX_BUTTONS:
            break
        if len(custom_id(game_id, button.command)) > MAX_CUSTOM_ID:
            log.warning("button %r of game %s has too long a command", button.label, game_id)
            continue
        view.add_item(GameButton(game_id, button.command, button.label, button.style, row=count // PER_ROW))
        count += 1
    return view if count else None
