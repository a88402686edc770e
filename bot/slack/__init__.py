"""The Slack adapter: ``python -m bot slack`` (see :mod:`bot.slack.run`)."""

from bot.slack.run import main

__all__ = ["main"]
