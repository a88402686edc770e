"""Every prefix of every recorded game imports, and the game goes on from there.

Importing a game cut after its first k log entries builds a fresh game from the actions that stand
in those k entries (the undo/redo filter applied to the prefix, not to the whole log), and the
(k+1)-th recorded entry must then be accepted, as 18xx.games accepted it. Unlike replaying a
finished game, this exercises the actions that were later undone, and undo/redo entries that cut
the log anywhere. The auto actions of an entry belong to it, so no prefix ends between the two.

Building each prefix afresh would cost O(n²) replays, so a walker keeps the state of the current
prefix with pickled snapshots along its standing actions: an undo goes back to the nearest snapshot
and replays forward, which gives what a fresh import gives. A few prefixes per game are checked
against a true fresh import to keep that claim honest.
"""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from typing import Any

import pytest

from engine.core import actions as act
from engine.core.game import Game
from engine.fingerprint import fingerprint
from engine.importer import read_game_file
from engine.titles import TITLES, title_class
from tests.conftest import SHARED_FIXTURES, recorded_games

# Missing recorded games give one failing case (a path that does not exist), not an empty, skipped list.
GAMES = [path for title in TITLES for path in recorded_games(title)] or [SHARED_FIXTURES / "1882" / "(missing).json"]
SNAPSHOT_EVERY = 20
FRESH_CHECKS = 6  # prefixes per game compared with a fresh import



class PrefixWalker:
    """The game as imported from a prefix of a log, moved from one prefix to the next cheaply."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.standing: list[dict[str, Any]] = []  # the log entries applied, in order (the same objects)
        self.snapshots: dict[int, bytes] = {0: game._snapshot()}

    def move_to(self, standing: list[dict[str, Any]]) -> None:
        """Make the state the one a fresh import of these standing actions gives."""
        common = 0
        for mine, theirs in zip(self.standing, standing, strict=False):
            if mine is not theirs:
                break
            common += 1
        if common < len(self.standing):
            base = max(n for n in self.snapshots if n <= common)
            self._restore(self.snapshots[base])
            self.snapshots = {n: s for n, s in self.snapshots.items() if n <= base}
            del self.standing[base:]
        for action in standing[len(self.standing):]:
            self.game._apply(action)
            self.added(action)

    def added(self, action: dict[str, Any]) -> None:
        self.standing.append(action)
        if len(self.standing) % SNAPSHOT_EVERY == 0:
            self.snapshots[len(self.standing)] = self.game._snapshot()

    def _restore(self, data: bytes) -> None:
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = lambda pid: self.game  # type: ignore[method-assign]
        state = unpickler.load()
        self.game.__dict__.clear()
        self.game.__dict__.update(state)


def test_walker_restores_to_what_a_fresh_import_gives() -> None:
    gf = read_game_file(GAMES[0])
    cls = title_class(gf.title)
    standing = act.filter_undo(gf.actions)[:3 * SNAPSHOT_EVERY + 5]
    walker = PrefixWalker(cls(gf.players, gf.seed, gf.options))
    walker.move_to(standing)
    walker.move_to(standing[:SNAPSHOT_EVERY + 3])  # back past a snapshot
    fresh = cls(gf.players, gf.seed, gf.options, actions=standing[:SNAPSHOT_EVERY + 3])
    assert fingerprint(walker.game) == fingerprint(fresh)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_prefix_imports_and_takes_the_next_recorded_action(path: Path) -> None:
    gf = read_game_file(path)
    cls = title_class(gf.title)
    raw = gf.actions
    walker = PrefixWalker(cls(gf.players, gf.seed, gf.options))
    fresh_at = {len(raw) * (i + 1) // (FRESH_CHECKS + 1) for i in range(FRESH_CHECKS)}
    refused: list[str] = []
    standing: list[dict[str, Any]] = []
    stuck: dict[str, Any] | None = None  # a refused action that still stands: no prefix imports
    for k, action in enumerate(raw):
        after = act.filter_undo(raw[:k + 1])
        if stuck is not None:
            if any(a is stuck for a in standing):
                refused.append(f"entry {k} (id {action.get('id')}): the prefix does not import")
                standing = after
                continue
            stuck = None
            walker = PrefixWalker(cls(gf.players, gf.seed, gf.options))
        # The prefix raw[:k] is imported: the state stands on filter_undo(raw[:k]).
        walker.move_to(standing)
        if k in fresh_at:
            fresh = cls(gf.players, gf.seed, gf.options, actions=raw[:k])
            assert fingerprint(walker.game) == fingerprint(fresh), f"prefix of {k} entries: walker != fresh import"
        if action.get("type") in ("undo", "redo"):
            # Game.process refuses an undo or redo that changes nothing (an undo back to the last standing
            # action, named by its id, is recorded as 18xx.games records it).
            named = action["type"] == "undo" and action.get("action_id") is not None
            if after == standing and not named:
                refused.append(f"entry {k} (id {action.get('id')}): {action['type']} changes nothing")
        else:
            try:
                walker.game.process(action)
            except Exception as exc:  # every refusal is listed, not just the first
                refused.append(f"entry {k} (id {action.get('id')}, {action.get('type')}): {exc}")
                stuck = action
            else:
                walker.added(action)
        standing = after
    assert not refused, f"{len(refused)} of {len(raw)} prefixes refused the next action:\n" + "\n".join(refused[:20])
