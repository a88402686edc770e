"""Console adapter: ``python -m bot console`` plays games from a terminal or a piped script."""

from bot.console.app import Console, amain, main

__all__ = ["Console", "amain", "main"]
