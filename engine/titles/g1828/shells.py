"""A 1828 system's shells: the two charters of its members, each running its own trains within the train limit
(rules 7.5.4); a system names the shell a new train goes to and may swap trains between them."""

from __future__ import annotations

from ...core.entities import Corporation, CorporationKind, Train
from .state import Game1828, Shell

__all__ = ["Shell"]


def shell_limit(game: Game1828) -> int:
    return int(game.phase["train_limit"])


def shell_of(game: Game1828, system: Corporation, train: Train) -> Shell | None:
    return next((s for s in game.shells.get(system.sym, []) if train in s.trains), None)


def prune(game: Game1828, system: Corporation) -> None:
    """Forget the trains the system no longer owns (sold, discarded, rusted)."""
    for shell in game.shells.get(system.sym, []):
        shell.trains = [t for t in shell.trains if t.owner is system]


def over_limit(game: Game1828, system: Corporation) -> bool:
    return any(len(s.trains) > shell_limit(game) for s in game.shells.get(system.sym, []))


def with_room(game: Game1828, corp: Corporation) -> list[Shell]:
    return [s for s in game.shells.get(corp.sym, []) if len(s.trains) < shell_limit(game)]


def has_empty_shell(game: Game1828, corp: Corporation) -> bool:
    return corp.kind is CorporationKind.SYSTEM and any(not s.trains for s in game.shells.get(corp.sym, []))


def train_limit(game: Game1828, corp: Corporation) -> int:
    """A system's limit applies to each of its shells (rules 7.5.4); counted over the whole system here,
    and per shell by the title's train steps."""
    shells = len(game.shells.get(corp.sym, ())) if corp.kind is CorporationKind.SYSTEM else 1
    return shell_limit(game) * max(shells, 1)


def crowded_corporations(game: Game1828) -> list[Corporation]:
    # Asked by the discard step at nearly every action: the companies with more trains than one shell may hold
    # are found first, in one pass (most often none, or only systems).
    limit = shell_limit(game)
    over = [corp for corp in game.corporations.values() if len(corp.trains) > limit]
    if not over or getattr(game.round, "ignore_train_limit", False):
        return []
    out = []
    for corp in over:
        if corp.closed or corp.kind is CorporationKind.MINOR:
            continue
        if corp.kind is CorporationKind.SYSTEM:
            if any(len(s.trains) > limit for s in game.shells.get(corp.sym, ())):  # over_limit
                out.append(corp)
        elif corp.trains_in_limit() > game.train_limit(corp):
            out.append(corp)
    return out


def discardable_trains(game: Game1828, corp: Corporation) -> list[Train]:
    if corp.kind is CorporationKind.SYSTEM:
        shell = next((s for s in game.shells[corp.sym] if len(s.trains) > shell_limit(game)), None)
        return list(shell.trains) if shell is not None else []
    return list(corp.trains)


def swap_train(game: Game1828, system: Corporation, train: Train) -> None:
    current = shell_of(game, system, train)
    other = next(s for s in game.shells[system.sym] if s is not current)
    if current is not None:
        current.trains.remove(train)
    other.trains.append(train)
    game.log(f"{system.sym} swaps {train.name} from {current.name if current else '?'} shell to {other.name} "
             "shell")
