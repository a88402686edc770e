"""The facade of one game: it builds the state, applies actions and drives the rounds. It owns the parts that hold
the rules every title shares (``shares``, ``track``, ``trains``, ``runs``) and stands on the defaults of every declared
hook (engine/core/hook_defaults.py).

A game is a title, a seed, players and an append-only action log; the state is the replay of
the standing actions. Titles subclass :class:`Game`, load their data files and implement hooks (engine/core/hooks.py).
"""

from __future__ import annotations

import io
import pickle
from typing import TYPE_CHECKING, Any

from . import actions as act
from . import events as ev
from .entities import Company, Corporation, Player
from .errors import ErrorCode, GameError, not_your_turn
from .game_end import EndTiming, EndTrigger, end_now, end_reason_text
from .game_setup import build_state
from .hook_defaults import HookDefaults
from .memory import replaying
from .play import RunPart
from .play_shares import SharePart
from .play_track import TrackPart
from .play_trains import TrainPart
from .sequence import OPERATING, next_round


class Game(HookDefaults):
    """One game. Use :meth:`process` for every move; it applies all of it or raises GameError."""

    def __init__(self, players: list[tuple[int, str]], seed: int = 0, options: dict[str, Any] | None = None,
                 *, actions: list[dict[str, Any]] | None = None, strict: bool = True) -> None:
        self.player_specs = list(players)
        self.seed = seed
        self.options = dict(options or {})
        self.strict = strict
        self.raw_actions = []
        # The rule areas the game owns (each typed against a protocol of what it reads of the game).
        self.shares = SharePart(self)
        self.track = TrackPart(self)
        self.trains = TrainPart(self)
        self.runs = RunPart(self)
        build_state(self)
        if actions:
            self._replay(actions)

    # ------------------------------------------------------------------ processing
    def process(self, action: dict[str, Any]) -> ev.Outcome:
        """Apply one action (18xx.games JSON form) and say what it did, or raise GameError with the state
        unchanged."""
        act.validate_shape(action)
        if self.finished and action["type"] not in ("undo", "redo", "message"):
            raise GameError(ErrorCode.GAME_OVER, "the game is over")
        action = dict(action)
        action.setdefault("id", (int(self.raw_actions[-1].get("id", 0)) + 1) if self.raw_actions else 1)
        kind = action["type"]
        if kind in ("undo", "redo"):
            candidate = [*self.raw_actions, action]
            before = act.filter_undo(self.raw_actions)
            after = act.filter_undo(candidate)
            if before == after:
                if kind == "undo" and action.get("action_id") is not None:
                    # Back to an action that is already the last standing one: 18xx.games records it as is.
                    self.raw_actions.append(action)
                    return ev.Outcome(rebuilt=True)
                raise GameError(ErrorCode.NOTHING_TO_UNDO, f"there is nothing to {kind}")
            with ev.silenced():
                self._rebuild(candidate)
            return ev.Outcome(rebuilt=True)
        self._ensure_checkpoint()
        try:
            with ev.recording() as events:
                self._apply(action)
        except GameError:
            with ev.silenced():
                self._restore_checkpoint()
            raise
        except Exception as exc:  # a bug must not leave a half-applied state behind
            with ev.silenced():
                self._restore_checkpoint()
            raise GameError(ErrorCode.INTERNAL, f"internal error while applying {kind}: {exc!r}") from exc
        self.raw_actions.append(action)
        return ev.Outcome(tuple(events))

    def _rebuild(self, raw: list[dict[str, Any]]) -> None:
        self._checkpoint = None
        build_state(self)
        self.raw_actions = []
        self._replay(raw)

    # A refused action must leave the state exactly as it was. Rather than replaying the whole log, keep a
    # pickled snapshot at most CHECKPOINT_EVERY actions old and re-apply the few actions since it.
    _checkpoint: tuple[int, bytes] | None = None

    def _snapshot(self) -> bytes:
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.persistent_id = lambda obj: "game" if obj is self else None  # type: ignore[method-assign]
        pickler.dump(self.__getstate__())
        return buffer.getvalue()

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_checkpoint"}

    def _ensure_checkpoint(self) -> None:
        if self._checkpoint is None or len(self.raw_actions) - self._checkpoint[0] >= self.CHECKPOINT_EVERY:
            self._checkpoint = (len(self.raw_actions), self._snapshot())

    def _restore_checkpoint(self) -> None:
        checkpoint = self._checkpoint
        if checkpoint is None or checkpoint[0] > len(self.raw_actions):
            self._rebuild(self.raw_actions)
            return
        count, data = checkpoint
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = lambda pid: self  # type: ignore[method-assign]
        state = unpickler.load()
        raw = self.raw_actions
        self.__dict__.clear()
        self.__dict__.update(state)
        self._checkpoint = checkpoint
        # Actions since the snapshot were all accepted, and undo/redo drop the snapshot, so none is undone.
        try:
            for action in raw[count:]:
                self._apply(action)
        except GameError:
            self._rebuild(raw)
            return
        self.raw_actions = raw

    def _replay(self, raw: list[dict[str, Any]]) -> None:
        with replaying(self):
            for action in act.filter_undo(raw):
                self._apply(action)
        self.raw_actions = list(raw)

    def _apply(self, action: dict[str, Any]) -> None:
        self._apply_one(action)
        for auto in action.get("auto_actions") or ():
            self._apply_one(auto)

    def _apply_one(self, action: dict[str, Any]) -> None:
        kind = action["type"]
        if act.is_log_only(kind):
            return
        if kind == "end_game":
            self.end_game("manually_ended")
            return
        if self.finished:
            raise GameError(ErrorCode.GAME_OVER, "the game is over")
        act.validate_shape(action)
        entity = self.resolve_entity(action)
        self.round.process(action, entity)
        self.action_processed(action)
        if self.round.kind == OPERATING and self.remembers_routes():
            # 18xx.games walks the acting company's track after each of its actions (to list its lays,
            # stations or runs), and its graph keeps for good that the track joined two stops.
            corp = entity.owner if isinstance(entity, Company) else entity
            if isinstance(corp, Corporation):
                self.track.remember_route(corp)
        self._check_game_end_and_advance()


    # ------------------------------------------------------------------ round flow
    def _check_game_end_and_advance(self) -> None:
        timing = self._end_trigger()
        if timing:
            self.round.forget()  # the end latch records it (the steps' answers are remembered: core.memory)
        if timing and timing.timing is EndTiming.IMMEDIATE:
            self.end_game(timing.reason)
            return
        while not self.finished and self.round.finished():
            self.round.forget()
            for p in self.players:
                p.passed = False
            if timing and end_now(timing.timing, self.round, self.operating_rounds, self.turn, self.end_latch):
                self.end_game(timing.reason)
                return
            self.next_round()
            timing = self._end_trigger()

    def _end_trigger(self) -> EndTrigger | None:
        trigger = self.game_end_timing()
        self.end_latch.record(trigger, self.turn)
        return trigger

    def end_game(self, reason: str) -> None:
        self.before_game_end(reason)
        self.finished = True
        self.game_end_reason = reason
        self.log(f"-- Game over: {reason} --")
        if ev.recording_now():
            scores = tuple(self.shares.player_score(p) for p in self.players)
            ev.emit(ev.GameEnded(reason, end_reason_text(reason), scores))

    def next_round(self) -> None:
        next_round(self)

    # ------------------------------------------------------------------ queries
    def result(self) -> dict[str, int]:
        """Each player's value (``player_value``), by player id."""
        return {str(p.id): self.player_value(p) for p in self.players}

    def acting(self) -> list[Any]:
        if self.finished:
            return []
        return list(self.round.active_entities())

    def acting_players(self) -> list[Player]:
        out: list[Player] = []
        for ent in self.acting():
            p = self.acting_player(ent)
            if isinstance(p, Player) and p not in out:
                out.append(p)
        return out

    def actions_for(self, entity: Any) -> list[str]:
        if self.finished:
            return []
        return self.round.actions_for(entity)


    def check_turn(self, entity: Any) -> None:
        if entity not in self.acting():
            names = ", ".join(self.describe(e) for e in self.acting())
            raise not_your_turn(f"it is not {self.describe(entity)}'s turn: waiting for {names}")


if TYPE_CHECKING:
    from .hooks import GameHooks

    # Game holds the default of every declared hook, with the declared signature.
    def _defaults(game: Game) -> GameHooks:
        return game
