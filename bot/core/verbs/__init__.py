"""The core moves, each declared once with its reading and writing (see bot.core.move_spec)."""
