"""Rounds and their steps: whose turn it is, and which step takes the next action."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar

from . import events as ev
from .actions import Action, entity_action
from .entities import Company, Entity
from .errors import illegal, not_your_turn
from .memory import Memory, memory_for

if TYPE_CHECKING:
    from .game import Game

# The game a step reads: a title's steps name their own game class (``class Track1822(Track["G1822"])``), so
# mypy checks what they ask of it.
G = TypeVar("G", bound="Game")

# What ``Round.settle`` hands on when it cannot say which step blocks.
_UNSETTLED: Any = object()
_MISSING: Any = object()
T = TypeVar("T")


class Step(Generic[G]):
    """A part of a round. The round gives an action to the first active step that accepts it.

    A step *blocks* while it still has something for the current entity to do; a blocking step
    that cannot take an action refuses it. Steps that block but have nothing to offer are skipped.
    """

    name = "step"
    blocks = True

    def __init__(self, game: G, round_: Round) -> None:
        self.game: G = game
        self.round = round_
        self.passed = False

    # --- what the step offers
    def actions(self, entity: Entity) -> list[str]:
        return []

    def active(self) -> bool:
        return not self.passed

    def offers(self, entity: Entity, kind: str) -> bool:
        """Whether ``actions(entity)`` lists ``kind``, where the list itself is not needed. A step that can answer
        without listing everything (``Bankrupt``, ``BuySellParShares``) says so sooner."""
        return kind in self.actions(entity)

    def blocking(self) -> bool:
        return self.blocks and any(self.actions(e) for e in self.active_entities())

    def current_entity(self) -> Entity | None:
        ents = self.active_entities()
        return ents[0] if ents else None

    def active_entities(self) -> list[Entity]:
        ent = self.round.entity()
        return [ent] if ent is not None else []

    def description(self) -> str:
        return self.name

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        """Every concrete action of type ``kind`` this step would take from ``entity`` now. Each step lists its
        choices from the same checks as its ``process_<kind>``: the one source of legality for prompts, buttons,
        autocomplete and playouts."""
        return [entity_action(entity, "pass")] if kind == "pass" else []

    def choice_label(self, entity: Entity, action: Action) -> str | None:
        """What one of this step's ``choose`` options means, in words, when its word alone does not say it
        (``one_share`` of a minor's acquisition: how many shares and how much money go which way); None when the
        word is plain enough."""
        return None

    def price_range(self, entity: Entity, action: Action) -> tuple[int, int] | None:
        """The lowest and highest price this step would accept for ``action`` (one of its choices, whose ``price``
        is a suggestion) from ``entity``, or None when the price is fixed."""
        return None

    def offered_by_reference(self, entity: Entity, action: Action) -> bool:
        """False for one of this step's choices that oracle playouts leave out: one following a printed rule
        18xx.games never offers (1828's D&H in Scranton), which the reference engine would refuse, or one after
        which it may be unable to go on (1822's tax haven buying LNWR), or one it settles differently (1822's sale
        of half a director's certificate by a holder who does not direct). Each is listed in docs/conformance.md."""
        return True

    def next_lay(self) -> dict[str, Any] | None:
        """The tile lay this step makes next (one of ``game.tile_lays()``, with its ``cost``), or None."""
        return None

    def lay_cost(self, entity: Entity, action: Action) -> tuple[int, int, int] | None:
        """(terrain, river, fee) of one of this step's ``lay_tile`` choices when the step prices its lays
        itself (1828's privates); None: the core prices it (``query.lay_cost``)."""
        return None

    def token_price(self, entity: Entity, action: Action) -> int | None:
        """What one of this step's ``place_token`` choices costs when the step prices it itself (free private
        stations); None: the price of the station it uses."""
        return None

    def company_bids(self) -> dict[str, list[tuple[Any, int]]]:
        """The standing bids this step holds, per company: (bidder, price)."""
        return {}

    # --- lifecycle
    def setup(self) -> None:
        """Called when a new entity starts its turn."""

    def round_setup(self) -> None:
        """Called once when the round starts."""

    def skip(self) -> None:
        self.passed = True


    def pass_(self) -> None:
        self.passed = True

    def process(self, action: Action, entity: Entity) -> None:
        handler = getattr(self, f"process_{action['type']}", None)
        if handler is None:
            raise illegal(f"{self.name} cannot take {action['type']}")
        handler(action, entity)

    def process_pass(self, action: Action, entity: Entity) -> None:
        self.pass_()


class InterruptStep(Step[G]):
    """A step that only blocks when something is pending (a par, a home token, a discard);
    it is never passed, so it can interrupt any turn."""

    def skip(self) -> None:
        pass

    def pass_(self) -> None:
        pass


# skip() bodies that change nothing but the step's own flag.
_PLAIN_SKIPS = (Step.skip, InterruptStep.skip)


@dataclass(frozen=True, slots=True)
class _Traits:
    """Which of ``Step``'s own answers a step class keeps: the round asks these of every step at every action,
    so they are looked up once per class."""

    plain_active: bool  # active() is ``not passed``
    plain_blocking: bool
    plain_offers: bool
    plain_skip: bool


_TRAITS: dict[type[Any], _Traits] = {}


def _traits(cls: type[Step[Any]]) -> _Traits:
    traits = _TRAITS.get(cls)
    if traits is None:
        traits = _TRAITS[cls] = _Traits(cls.active is Step.active, cls.blocking is Step.blocking,
                                        cls.offers is Step.offers, cls.skip in _PLAIN_SKIPS)
    return traits


@dataclass(slots=True)
class _Recheck:
    found: Step[Any] | None
    before: list[Step[Any]]


class Round:
    kind = "round"

    def __init__(self, game: Game, step_classes: list[type[Step[Any]]], number: int = 1) -> None:
        self.game = game
        self.number = number
        self.entity_index = 0
        # The round's turn order: players in stock and auction rounds, corporations in operating rounds.
        self.entities: list[Any] = self.select_entities()
        self.steps: list[Step[Any]] = [cls(game, self) for cls in step_classes]
        self.done = False
        self.last_to_act: Entity | None = None
        # Privates bought with a president's certificate whose par the buyer must set (the auction's
        # CompanyPendingPar step works through it).
        self.pending_par: list[tuple[Company, str]] = []
        # The step ``settle`` found blocking while ``process`` finishes an action (no state change since).
        self._settled: Any = _UNSETTLED
        self.memory: Memory | None = None
        memory = memory_for(game)
        if memory is not None:
            memory.attach(self)
            self.forget()  # a new round: the game moves on

    def __getstate__(self) -> dict[str, Any]:
        # A copy of the game (a checkpoint, a trial) is changed by its own callers: it starts without a memory.
        return {**self.__dict__, "memory": None}

    def forget(self) -> None:
        """The state changes: what the steps answered before no longer holds (``Memory``)."""
        memory = self.memory
        if memory is not None and memory.open:
            memory.open = False
            memory.answers.clear()

    def _remember(self) -> None:
        """From here on the state stays as it is until the next ``forget``."""
        memory = self.memory
        if memory is not None:
            memory.answers.clear()
            memory.open = True

    def recall(self, question: Callable[..., T], *args: Any) -> T:
        """``question(*args)``, a query of the state, answered once while the state stays as it is (``Memory``)."""
        memory = self.memory
        if memory is None or not memory.open:
            return question(*args)
        key = (question, args)
        got = memory.answers.get(key, _MISSING)
        if got is _MISSING:
            got = memory.answers[key] = question(*args)
        return got  # type: ignore[no-any-return]

    def _actions_of(self, step: Step[Any], entity: Entity) -> list[str]:
        # ``recall(step.actions, entity)`` with a cheaper key: asked for every step at every action, the bound
        # method and argument tuple recall would build cost 3-6% of a replay (measured on 1828 and 1830).
        memory = self.memory
        if memory is None or not memory.open:
            return step.actions(entity)
        key = (step, entity)
        got: list[str] | None = memory.answers.get(key)
        if got is None:
            got = memory.answers[key] = step.actions(entity)
        return got

    def _blocking(self, step: Step[Any], traits: _Traits) -> bool:
        """``step.blocking()``, from the actions the step offers its entities (remembered) where it keeps
        ``Step.blocking``."""
        if not traits.plain_blocking or self.memory is None:
            return step.blocking()
        return step.blocks and any(self._actions_of(step, e) for e in step.active_entities())

    def select_entities(self) -> list[Any]:
        return [p for p in self.game.players if not p.bankrupt]

    def start(self) -> None:
        self.forget()
        for step in self.steps:
            step.round_setup()
        for step in self.steps:
            step.setup()

    def entity(self) -> Entity | None:
        if not self.entities:
            return None
        ent: Entity = self.entities[self.entity_index]
        return ent

    def active_step(self) -> Step[Any] | None:
        for step in self.steps:
            traits = _TRAITS.get(type(step)) or _traits(type(step))
            if (not step.passed if traits.plain_active else step.active()) and self._blocking(step, traits):
                return step
        return None

    def current_entity(self) -> Entity | None:
        step = self.active_step()
        if step is None:
            return self.entity()
        ents = step.active_entities()
        return ents[0] if ents else None

    def active_entities(self) -> list[Entity]:
        step = self.active_step()
        return step.active_entities() if step else []

    def actions_for(self, entity: Entity) -> list[str]:
        out: list[str] = []
        for step in self.steps:
            if not step.active():
                continue
            for a in step.actions(entity):
                if a not in out:
                    out.append(a)
            if step.blocking():
                break
        return out

    def choices_for(self, entity: Entity, kind: str) -> list[Action]:
        """The concrete actions of one type ``entity`` may take now, from the step that would take them."""
        step = self.step_taking(entity, kind)
        return step.choices(entity, kind) if step is not None else []

    def price_range_for(self, entity: Entity, action: Action) -> tuple[int, int] | None:
        """The price range of one choice, from the step that would take it."""
        step = self.step_taking(entity, action["type"])
        return step.price_range(entity, action) if step is not None else None

    def step_taking(self, entity: Entity, kind: str) -> Step[Any] | None:
        """The step that would take an action of type ``kind`` from ``entity`` now (None: no step would)."""
        for step in self.steps:
            if not step.active():
                continue
            if kind in step.actions(entity):
                return step
            if step.blocking():
                break
        return None

    def process(self, action: Action, entity: Entity) -> None:
        kind = action["type"]
        for step in self.steps:
            traits = _TRAITS.get(type(step)) or _traits(type(step))
            if step.passed if traits.plain_active else not step.active():
                continue
            if not step.blocks and traits.plain_blocking:
                # It never blocks, so nothing but whether it takes the action is asked of it.
                if step.offers(entity, kind):
                    self._take(step, action, entity)
                    break
                continue
            if not traits.plain_offers and step.offers(entity, kind):
                self._take(step, action, entity)
                break
            offered = self._actions_of(step, entity)
            if kind in offered:
                self._take(step, action, entity)
                break
            if self._blocks_given(step, entity, offered, traits):
                self._refuse(kind, entity, step)
        else:
            self._refuse(kind, entity, None)
        self._settled = self.settle()
        try:
            self.after_process(action, entity)
        finally:
            self._settled = _UNSETTLED

    def _take(self, step: Step[Any], action: Action, entity: Entity) -> None:
        self.forget()
        if action["type"] == "pass" and ev.recording_now():
            ev.emit(ev.Passed(getattr(entity, "party", None) or ev.Party(ev.PartyKind.HOLDER, str(
                getattr(entity, "sym", entity))), step.name))
        step.process(action, entity)

    def _active_after_process(self) -> Step[Any] | None:
        """``active_step()`` for ``after_process``, which runs straight after ``settle`` changed nothing more."""
        settled = self._settled
        self._settled = _UNSETTLED
        return self._active_after_settle(settled)

    @staticmethod
    def _blocks_given(step: Step[Any], entity: Entity, offered: list[str], traits: _Traits) -> bool:
        """``step.blocking()``, reusing the actions already listed for ``entity`` when it is the step's only active
        entity (the usual case), since listing actions is the costly part of every check."""
        if not traits.plain_blocking:
            return step.blocking()
        if not step.blocks:
            return False
        ents = step.active_entities()
        if len(ents) == 1 and ents[0] is entity:
            return bool(offered)
        return step.blocking()

    def _refuse(self, kind: str, entity: Entity, step: Step[Any] | None) -> NoReturn:
        acting = self.active_entities()
        who = self.game.describe(entity)
        # A private acts for its owner: in the owner's turn it is refused for what it cannot do, not for the turn.
        owner_acts = isinstance(entity, Company) and entity.owner in acting
        if acting and entity not in acting and not owner_acts:
            names = ", ".join(self.game.describe(e) for e in acting)
            raise not_your_turn(f"it is not {who}'s turn: waiting for {names}")
        allowed = self.actions_for(entity)
        if allowed:
            raise illegal(f"{who} cannot {kind.replace('_', ' ')} now; allowed: {', '.join(allowed)}")
        raise illegal(f"{who} cannot {kind.replace('_', ' ')} now")

    def skip_steps(self) -> None:
        self.settle()

    def settle(self) -> Any:
        """Skip every step that has nothing to do, up to the first that blocks, and say which step
        ``active_step()`` would name straight after: that step or None (no step blocks), exactly; or, when a
        skip() that may change the game came after some step was asked, ``_Recheck``: the steps before it, to ask
        again as ``active_step()`` would; or ``_UNSETTLED`` (the entity has closed). Listing a step's actions is the
        costly part of every check, so the callers that ask ``active_step()`` next use this instead."""
        self._remember()
        ent = self.entity()
        if getattr(ent, "closed", False):
            return _UNSETTLED
        exact = True
        found: Step[Any] | None = None  # a step that blocks though it is never skipped (it decides for itself)
        asked = False  # a step was asked and stays active, so a later skip() that changes the game could wake it
        for step in self.steps:
            traits = _TRAITS.get(type(step)) or _traits(type(step))
            if traits.plain_active:
                if step.passed:
                    continue
            elif not step.active():
                asked = True  # it may wake up
                continue
            if not step.blocks:
                if not traits.plain_blocking:
                    if found is None and step.blocking():
                        found = step
                    asked = True
                continue
            if self._blocking(step, traits):
                return self._settled_on(found, step, exact)
            if asked and not traits.plain_skip:
                exact = False
            self.forget()
            step.skip()
            self._remember()
            if step.active():
                asked = True
        return self._settled_on(found, None, exact)

    def _settled_on(self, early: Step[Any] | None, found: Step[Any] | None, exact: bool) -> Any:
        if exact:
            return early or found
        if early is not None:
            return _UNSETTLED  # asked before the skip() that may have changed its answer
        return _Recheck(found, self.steps if found is None else self.steps[:self.steps.index(found)])

    def _active_after_settle(self, settled: Any) -> Step[Any] | None:
        if settled is _UNSETTLED:
            return self.active_step()
        if isinstance(settled, _Recheck):
            return next((s for s in settled.before if s.active() and s.blocking()), settled.found)
        found: Step[Any] | None = settled
        return found

    def after_process(self, action: Action, entity: Entity) -> None:
        pass

    def finished(self) -> bool:
        return self.done

    def next_entity_index(self) -> None:
        if self.entities:
            self.entity_index = (self.entity_index + 1) % len(self.entities)

    def name(self) -> str:
        return self.kind
