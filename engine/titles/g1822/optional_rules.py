"""1822's optional rules: the 1822+ expansion (with or without its removals and single stack of privates)
and P16's tax haven buying once a stock round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import Game1822


PLUS = "plus_expansion"
PLUS_NO_REMOVALS = "plus_expansion_no_removals"
PLUS_SINGLE_STACK = "plus_expansion_single_stack"
TAX_HAVEN_MULTIPLE = "tax_haven_multiple"  # P16 buys a share a stock round with what its charter holds
OPTIONAL_RULES = (PLUS, PLUS_NO_REMOVALS, PLUS_SINGLE_STACK, TAX_HAVEN_MULTIPLE)


def plus(game: Game1822) -> bool:
    return PLUS in optional_rules(game)


def optional_rules(game: Game1822) -> list[str]:
    return [str(r) for r in game.options.get("optional_rules") or []]


def tax_haven_multiple(game: Game1822) -> bool:
    return TAX_HAVEN_MULTIPLE in optional_rules(game)
