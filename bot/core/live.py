"""Live games in memory, and the snapshots that make loading a long game fast.

The stored action log is the source of truth. A :class:`LiveGame` is the engine state after the first
``seq`` stored actions, kept in memory between commands. Loading one from the database starts from the latest
snapshot (a pickled engine game) and applies only the actions stored after it; a full replay is needed only
when there is no usable snapshot. A snapshot is tied to the exact engine source that wrote it (a fingerprint
of the engine's code and data), so a changed engine never resumes from a stale object graph: it replays.
A log that no longer replays raises :class:`LoadError` naming the first stored action the engine refuses.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bot.storage import GameRecord, JsonObject, ReplayFailure, SeatRecord, Storage
from engine import GameError, new_game
from engine.api import Game
from engine.core.entities import Player

log = logging.getLogger(__name__)

_MAGIC = b"RHS1"


def _engine_fingerprint() -> bytes:
    root = Path(engine.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.digest()


ENGINE_FINGERPRINT = _engine_fingerprint()


def engine_version() -> str:
    """A short id of the engine code, stored with each game."""
    return "engine-" + ENGINE_FINGERPRINT.hex()[:12]


def encode_snapshot(game: Game) -> bytes:
    body = zlib.compress(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL), 1)
    return _MAGIC + ENGINE_FINGERPRINT + body


def decode_snapshot(data: bytes) -> Any | None:
    """The game in a snapshot, or None if it was written by other engine code or cannot be read."""
    head = len(_MAGIC) + len(ENGINE_FINGERPRINT)
    if data[: len(_MAGIC)] != _MAGIC or data[len(_MAGIC) : head] != ENGINE_FINGERPRINT:
        return None
    try:
        return pickle.loads(zlib.decompress(data[head:]))  # our own database: trusted input
    except Exception:  # a damaged snapshot only costs a replay
        log.warning("unreadable snapshot ignored", exc_info=True)
        return None


def engine_players(record: GameRecord, seats: list[SeatRecord]) -> list[tuple[int, str]]:
    """The engine's player list: as imported, or the seats by player id (the seat order at the start)."""
    imported = record.options.get("players")
    if imported:
        return [(int(pid), str(name)) for pid, name in imported]
    placed = sorted((s for s in seats if s.player_id is not None), key=lambda s: s.player_id or 0)
    return [(int(s.player_id or 0), s.display_name) for s in placed]


def engine_options(record: GameRecord) -> dict[str, Any]:
    # A game stored before its title had editions was begun under the first one and stays on it.
    options: dict[str, Any] = {"optional_rules": list(record.options.get("optional_rules") or []),
                               "rules_edition": int(record.options.get("rules_edition", 1))}
    if record.options.get("recorded_runs") is True:  # from 18xx.games: its recorded runs stand as recorded
        options["recorded_runs"] = True
    return options


@dataclass(slots=True)
class LiveGame:
    """A started game in memory: the engine state after stored actions ``1..seq``."""

    record: GameRecord
    game: Game
    seq: int
    seats: list[SeatRecord]
    snapshot_seq: int = 0
    last_seen: dict[int, int] = field(default_factory=dict)  # player id -> log length after their last move

    @property
    def id(self) -> int:
        return self.record.id

    def seat_of(self, user_id: str) -> SeatRecord | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def player_of(self, user_id: str) -> Player | None:
        seat = self.seat_of(user_id)
        if seat is None or seat.player_id is None:
            return None
        players: list[Player] = self.game.players
        return next((p for p in players if p.id == seat.player_id), None)

    def user_of(self, player_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    def name_of(self, player_id: int) -> str:
        seat = self.user_of(player_id)
        if seat is not None:
            return seat.display_name
        return next((p.name for p in self.game.players if p.id == player_id), str(player_id))


class LoadError(Exception):
    """A stored game could not be rebuilt: the engine refuses one of its stored actions.

    ``failure`` names that action; ``record`` is the game (the service swaps in the marked record).
    """

    def __init__(self, record: GameRecord, failure: ReplayFailure) -> None:
        super().__init__(
            f"game {record.id} does not replay with this engine: stored action {failure.seq} "
            f"({failure.action_type}): {failure.message}"
        )
        self.record = record
        self.failure = failure


async def load_live(storage: Storage, record: GameRecord, seats: list[SeatRecord]) -> LiveGame:
    """Rebuild a started game: from its snapshot plus the later actions, or by a full replay.

    Raises: LoadError if the stored log does not replay with this engine.
    """
    snapshot = await storage.load_snapshot(record.id)
    if snapshot is not None:
        game = decode_snapshot(snapshot.data)
        if game is not None:
            tail = await storage.load_actions(record.id, after_seq=snapshot.seq)
            try:
                for _, action in tail:
                    game.process(action)
            except GameError:
                log.warning("game %s: snapshot at %s does not continue; replaying", record.id, snapshot.seq)
            else:
                seq = snapshot.seq + len(tail)
                return LiveGame(record, game, seq, seats, snapshot_seq=snapshot.seq)
    rows = await storage.load_actions(record.id)
    return LiveGame(record, replay_log(record, seats, rows), len(rows), seats)


async def replay_stored(storage: Storage, record: GameRecord) -> Any:
    """The game rebuilt from its whole stored log, never from a snapshot (one could hide a rules change).

    Raises: LoadError if the stored log does not replay with this engine.
    """
    seats = await storage.list_seats(record.id)
    return replay_log(record, seats, await storage.load_actions(record.id))


def replay_log(record: GameRecord, seats: list[SeatRecord], rows: list[tuple[int, JsonObject]]) -> Any:
    """The engine game after replaying the stored actions ``rows`` (``(seq, action)``) from the start.

    Raises: LoadError naming the first stored action the engine refuses.
    """
    players = engine_players(record, seats)
    try:
        return new_game(
            record.title, players, record.seed, engine_options(record), actions=[a for _, a in rows]
        )
    except Exception as exc:  # not only GameError: an engine failing on an old action refuses it as well
        if not isinstance(exc, GameError):
            log.warning("game %s: the engine fails on its stored log", record.id, exc_info=True)
        raise LoadError(record, _first_refused(record, players, rows, exc)) from exc


def _first_refused(
    record: GameRecord, players: list[tuple[int, str]], rows: list[tuple[int, JsonObject]], error: Exception
) -> ReplayFailure:
    """The stored action the engine refuses, found by applying the log one action at a time as it was played."""
    version = engine_version()
    try:
        game = new_game(record.title, players, record.seed, engine_options(record))
    except Exception as exc:
        return ReplayFailure(0, None, "setup", _message(exc), version)
    for seq, action in rows:
        try:
            game.process(action)
        except Exception as exc:
            return ReplayFailure(seq, _action_id(action), str(action.get("type", "?")), _message(exc), version)
    # One at a time the log is accepted, yet the whole replay was refused: name the last action.
    seq, action = rows[-1] if rows else (0, {"type": "setup"})
    return ReplayFailure(seq, _action_id(action), str(action.get("type", "?")), _message(error), version)


def _message(exc: Exception) -> str:
    return exc.message if isinstance(exc, GameError) else f"internal error: {exc!r}"


def _action_id(action: JsonObject) -> int | None:
    value = action.get("id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class GameCache:
    """Live games by id, least recently used dropped first."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self._games: OrderedDict[int, LiveGame] = OrderedDict()

    def get(self, game_id: int) -> LiveGame | None:
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
        return live

    def put(self, live: LiveGame) -> None:
        self._games[live.id] = live
        self._games.move_to_end(live.id)
        while len(self._games) > self.capacity:
            self._games.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)
