"""Who to ping after an action, and what happened since a player's last turn.

Only players who *became* active with an action are pinged (18xx.games issue #5291: a ping on every step of
the same turn is noise). A player still acting after their own action, e.g. a president laying track and then
placing a token, is never pinged again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from engine.api import Game
from engine.core import query

DIGEST_LINES = 12


def acting_player_ids(game: Game) -> list[int]:
    """Ids of the players who must act now, in the engine's order (no duplicates)."""
    out: list[int] = []
    for actor in query.actors(game):
        if actor.player_id is not None and actor.player_id not in out:
            out.append(actor.player_id)
    return out


def newly_active(before: Iterable[int], after: Sequence[int]) -> list[int]:
    """Players acting after an action who were not acting before it (the only ones to ping).

    >>> newly_active([1], [1, 2])
    [2]
    >>> newly_active([1], [1])
    []
    """
    was = set(before)
    return [pid for pid in after if pid not in was]


def digest(
    log_lines: Sequence[str],
    since: int | None,
    *,
    limit: int = DIGEST_LINES,
    keep: Callable[[str], bool] | None = None,
    setup: int = 0,
) -> list[str]:
    """Log lines from index ``since`` on (the last ``limit`` of them), for a "since your last turn" summary.

    With no known ``since`` the last few lines are given; the first ``setup`` lines (what the game's setup said,
    told when it started) never are. When lines must be cut, those ``keep`` says matter to
    the reader (their trains, companies, money) stay, up to half the limit, in their place in time.

    >>> digest(["a", "b", "c", "d"], 1, limit=2)
    ['(1 earlier line)', 'c', 'd']
    >>> digest(["mine", "b", "c", "d", "e"], 0, limit=4, keep=lambda s: s == "mine")
    ['mine', '(1 earlier line)', 'c', 'd', 'e']
    """
    start = len(log_lines) - min(limit, 8) if since is None else min(max(since, 0), len(log_lines))
    lines = list(log_lines[max(start, setup, 0) :])
    if len(lines) > limit:
        earlier = lines[:-limit]
        kept = [line for line in earlier if keep is not None and keep(line)][: limit // 2]
        tail = lines[len(lines) - (limit - len(kept)) :]
        skipped = len(lines) - len(kept) - len(tail)
        note = [f"({skipped} earlier line{'s' if skipped != 1 else ''})"] if skipped else []
        lines = [*kept, *note, *tail]
    return lines


def common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the common prefix of two logs (what an undo kept)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
