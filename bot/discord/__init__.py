"""Discord adapter: ``python -m bot discord`` (or ``python -m bot`` with $DISCORD_TOKEN set) runs the bot;
``python -m bot.discord schema`` prints the /18xx command definitions without logging in."""

from bot.discord.app import main

__all__ = ["main"]
