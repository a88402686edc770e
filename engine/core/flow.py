"""What the game facade needs to know of a round and its steps.

Rounds and steps (``round.py``, ``steps/``) sit above the game: they read and change it through its rules.
The game only drives the round it holds, so it types it against these protocols and never imports the
round module; a title's round classes satisfy them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .entities import Entity
    from .memory import Memory


class StepState(Protocol):
    @property
    def name(self) -> str: ...

    def actions(self, entity: Entity) -> list[str]: ...

    def active_entities(self) -> list[Any]: ...

    def blocking(self) -> bool: ...

    def company_bids(self) -> dict[str, list[tuple[Any, int]]]: ...


class RoundState(Protocol):
    kind: str
    number: int
    entity_index: int
    memory: Memory | None  # its steps' answers while the game replays (engine/core/memory.py)
    entities: list[Any]
    last_to_act: Any
    # Privates bought with a president's certificate whose par the buyer must set: (private, corporation).
    pending_par: list[tuple[Any, str]]

    @property
    def steps(self) -> Sequence[StepState]: ...

    def start(self) -> None: ...

    def process(self, action: dict[str, Any], entity: Entity) -> None: ...

    def finished(self) -> bool: ...

    def name(self) -> str: ...

    def entity(self) -> Any: ...

    def active_step(self) -> StepState | None: ...

    def active_entities(self) -> list[Any]: ...

    def actions_for(self, entity: Entity) -> list[str]: ...

    def choices_for(self, entity: Entity, kind: str) -> list[dict[str, Any]]: ...

    def price_range_for(self, entity: Entity, action: dict[str, Any]) -> tuple[int, int] | None: ...

    def next_entity_index(self) -> None: ...

    def forget(self) -> None:
        """The state changed outside the round's own steps: what they answered before no longer holds."""
