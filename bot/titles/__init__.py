"""Moves only some titles have, each declared by its title's module (see bot.core.move_spec)."""
