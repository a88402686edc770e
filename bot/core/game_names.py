"""A game's name as players say it, and the optional rules a `new` command may ask for.

An optional rule that makes another game gives the game another name: 1822 with ``plus_expansion`` is 1822+.
Each name is written here once; ``new 1822+`` reads it back as the title and its rules.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.commands import did_you_mean, malformed
from bot.storage.records import GameRecord
from engine.core.game import Game

#: Names of titles played with optional rules that make them another game: name -> (title, rules).
NAMED_VARIANTS: dict[str, tuple[str, tuple[str, ...]]] = {"1822+": ("1822", ("plus_expansion",))}


def display_title(title: str, optional_rules: Iterable[str] = ()) -> str:
    """``1822+`` for 1822 with plus_expansion; the title itself otherwise."""
    rules = set(optional_rules)
    for name, (base, needs) in NAMED_VARIANTS.items():
        if base == title and rules.issuperset(needs):
            return name
    return title


def game_name(record: GameRecord) -> str:
    """A stored game's title as players call it, with its options ("1822+")."""
    return display_title(record.title, record.options.get("optional_rules") or ())


def variant_named(word: str) -> tuple[str, tuple[str, ...]] | None:
    """The title and rules of a game named like ``1822+`` (None for any other word)."""
    for name, spec in NAMED_VARIANTS.items():
        if name.lower() == word.strip().lower():
            return spec
    return None


def optional_rules_text(cls: type[Game]) -> str:
    """What `help TITLE` says about a title's optional rules, with the command that starts each named variant."""
    rules = tuple(cls.OPTIONAL_RULES)
    if not rules:
        return f"{cls.TITLE} has no optional rules."
    text = f"Optional rules (words after `new {cls.TITLE}`): {', '.join(rules)}."
    for name, (base, needs) in NAMED_VARIANTS.items():
        if base == cls.TITLE:
            text += f" {name} is `new {base} {' '.join(needs)}` (or `new {name}`)."
    return text


def checked_rules(cls: type[Game], words: Iterable[str]) -> list[str]:
    """The optional rules asked for, by their exact names; an unknown word is refused with the title's rules."""
    known = {r.lower(): r for r in cls.OPTIONAL_RULES}
    out: list[str] = []
    for word in words:
        rule = known.get(word.lower())
        if rule is None:
            offer = ", ".join(cls.OPTIONAL_RULES)
            starts = [r for r in cls.OPTIONAL_RULES if r.startswith(word.lower())]
            hint = f", did you mean {starts[0]}?" if starts else did_you_mean(word, list(cls.OPTIONAL_RULES))
            raise malformed(
                f"{cls.TITLE} has no optional rule {word}{hint or '.'} "
                + (f"Its optional rules: {offer}" if offer else f"{cls.TITLE} has no optional rules")
                + "; nothing was created"
            )
        if rule not in out:
            out.append(rule)
    return out
