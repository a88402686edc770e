"""Steps: each handles one part of a round and says which actions it accepts from whom."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import illegal

if TYPE_CHECKING:
    from ..game import Game
    from ..round import Round


class Step:
    """A part of a round. The round gives an action to the first active step that accepts it.

    A step *blocks* while it still has something for the current entity to do; a blocking step
    that cannot take an action refuses it. Steps that block but have nothing to offer are skipped.
    """

    name = "step"
    blocks = True

    def __init__(self, game: Game, round_: Round) -> None:
        self.game = game
        self.round = round_
        self.passed = False

    # --- what the step offers
    def actions(self, entity: Any) -> list[str]:
        return []

    def active(self) -> bool:
        return not self.passed

    def blocking(self) -> bool:
        return self.blocks and any(self.actions(e) for e in self.active_entities())

    def current_entity(self) -> Any:
        ents = self.active_entities()
        return ents[0] if ents else None

    def active_entities(self) -> list[Any]:
        ent = self.round.entity()
        return [ent] if ent is not None else []

    def description(self) -> str:
        return self.name

    # --- lifecycle
    def setup(self) -> None:
        """Called when a new entity starts its turn."""

    def round_setup(self) -> None:
        """Called once when the round starts."""

    def skip(self) -> None:
        self.passed = True


    def pass_(self) -> None:
        self.passed = True

    def process(self, action: dict[str, Any], entity: Any) -> None:
        handler = getattr(self, f"process_{action['type']}", None)
        if handler is None:
            raise illegal(f"{self.name} cannot take {action['type']}")
        handler(action, entity)

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        self.pass_()


class InterruptStep(Step):
    """A step that only blocks when something is pending (a par, a home token, a discard);
    it is never passed, so it can interrupt any turn."""

    def skip(self) -> None:
        pass

    def pass_(self) -> None:
        pass
