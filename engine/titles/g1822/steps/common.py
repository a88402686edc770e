"""What the operating steps share: whether an entity is the company in turn, and the privates' choose and
station actions offered at a step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

from ....core.actions import Action, entity_action
from ....core.entities import Company, Corporation, Entity
from ....core.round import Step
from ..private_choices import company_choices
from ..stations import (
    channel_station_cities,
)

if TYPE_CHECKING:
    from ..state import Game1822


def in_turn(entity: Entity, step: Step[Any]) -> TypeGuard[Corporation]:
    """Whether ``entity`` is the company whose turn it is (so typed from there on)."""
    return isinstance(entity, Corporation) and entity is step.round.entity()


def company_choice_actions(game: Game1822, entity: Entity, time: str) -> list[Action]:
    """choose_ability actions of a private (or of the privates of a company) at one step of the turn."""
    if isinstance(entity, Company):
        comps = [entity]
    else:
        held: list[Company] = getattr(entity, "companies", [])
        comps = list(held)
    return [{**entity_action(c, "choose_ability"), "choice": k} for c in comps for k in company_choices(game, c, time)]


def channel_station_actions(game: Game1822, company: Company) -> list[Action]:
    """P5's English Channel stations, in its company's token step or right after its Channel upgrade."""
    return [{**entity_action(company, "place_token"), "city": f"{hx.tile.id}-{node}"}
            for hx, node in channel_station_cities(game, company)]
