"""Who may start a merger in 1828 (rules 7.5.1, 13.4), the failed merger a player records after undoing one, and
how a merger in progress looks to the rest of the game (its boxes of old certificates, its companies floated)."""

from __future__ import annotations

import io
import pickle
from typing import Any

from ...core.entities import Corporation, CorporationKind, Holder, Player
from ...core.errors import GameError
from .state import Game1828


def num_shares(holder: Holder, corp: Corporation) -> int:
    return int(holder.percent_of(corp.sym) // corp.share_percent)


def has_operated(game: Game1828, corp: Corporation) -> bool:
    return corp.sym in game.operated_once


def stock_step_sold(rnd: object) -> dict[int, dict[str, bool]]:
    """What each player sold this stock round (player id -> company -> sold), from the round's stock step."""
    for step in getattr(rnd, "steps", ()):
        sold = getattr(step, "sold", None)
        if isinstance(sold, dict):
            return sold
    return {}


def merge_candidates(game: Game1828, player: Player, corp: Corporation) -> list[Corporation]:
    if corp.kind is CorporationKind.SYSTEM:
        return []
    return [c for c in game.corporations.values() if merge_candidate(game, player, corp, c)]


def merge_candidate(game: Game1828, player: Player, corp: Corporation, candidate: Corporation) -> bool:
    """Two public companies merge when one is the player's, they have both operated or neither has, one has
    floated, and some player holds six of their shares together (five, having sold neither this round)."""
    return _pair_open(game, player, corp, candidate) and _shares_held(game, corp, candidate)


def _pair_open(game: Game1828, player: Player, corp: Corporation, candidate: Corporation) -> bool:
    if (candidate is corp or candidate.kind is not CorporationKind.MAJOR or corp.kind is not CorporationKind.MAJOR
            or candidate.closed or corp.closed or not candidate.ipoed):
        return False
    if corp.owner is not player and candidate.owner is not player:
        return False
    return has_operated(game, candidate) == has_operated(game, corp) and (candidate.floated or corp.floated)


def _shares_held(game: Game1828, corp: Corporation, candidate: Corporation) -> bool:
    sold = stock_step_sold(game.round)
    for p in game.players:
        n = num_shares(p, candidate) + num_shares(p, corp)
        if n >= 6 or (n == 5 and not sold.get(p.id, {}).get(candidate.sym)
                      and not sold.get(p.id, {}).get(corp.sym)):
            return True
    return False


def can_merge_any(game: Game1828, player: Player) -> bool:
    majors = {c.sym: c for c in game.corporations.values() if c.kind is CorporationKind.MAJOR and not c.closed}
    # A merger needs one of the pair to be the player's (merge_candidate), and five shares of the pair in one
    # hand, so only such pairs are examined; the answer does not depend on the order they are looked at in.
    owned = [c for c in majors.values() if c.owner is player]
    if not owned:
        return False
    holdings = []
    for p in game.players:
        held: dict[str, int] = {}
        for share in p.shares:
            corp = majors.get(share.corp)
            if corp is not None:
                held[share.corp] = held.get(share.corp, 0) + share.percent // corp.share_percent
        if held:
            holdings.append(held)
    for a in owned:
        for b in majors.values():
            if b is a or not any(h.get(a.sym, 0) + h.get(b.sym, 0) >= 5 for h in holdings):
                continue
            if (b.ipoed and merge_candidate(game, player, a, b)) or (a.ipoed and merge_candidate(game, player, b, a)):
                return True
    return False


def undone_failed_merge(game: Game1828, player: Player) -> list[str] | None:
    """The two companies of ``player``'s merger that the log's last entry undid because it failed (the player
    then records failed_merge, as on 18xx.games), or None."""
    undone = _undone_by_last_undo(game)
    if not undone or undone[0].get("type") != "choose" or str(undone[0].get("entity")) != str(player.id):
        return None
    merge = next((a for a in undone if a.get("type") == "merge"), None)
    if merge is None:
        return None
    return [str(merge["entity"]), str(merge["corporation"])]


def undone_unfinishable_merge(game: Game1828, player: Player) -> str | None:
    """The company ``player`` just chose to start a merger with, when the log's last entry undid that choice
    and nothing after it (the way out of a merger 18xx.games cannot run, Merger.choices), or None."""
    undone = _undone_by_last_undo(game)
    if len(undone) != 1 or undone[0].get("type") != "choose" or str(undone[0].get("entity")) != str(player.id):
        return None
    return str(undone[0].get("choice"))


def _undone_by_last_undo(game: Game1828) -> list[dict[str, Any]]:
    """The actions the log's last entry undid, when it is an undo to a given action, else none."""
    raw = game.raw_actions
    if not raw or raw[-1].get("type") != "undo" or raw[-1].get("action_id") is None:
        return []
    start = int(raw[-1]["action_id"])
    return [a for a in raw[:-1] if int(a.get("id") or 0) > start and a.get("type") not in ("undo", "redo")]


def finishable_merges(game: Game1828, player: Player, corp: Corporation) -> list[Corporation]:
    """The companies ``player``, having chosen ``corp`` to start a merger, may merge it with and whose merger
    18xx.games can run up to its first decision (or its end). It hands out system shares without checking that
    one is left, and stops with an error where none is (docs/conformance.md); a merger that runs short before
    any decision is left unoffered, though still accepted."""
    return [c for c in merge_candidates(game, player, corp) if _merge_finishable(game, player, corp, c)]


def _merge_finishable(game: Game1828, player: Player, corp: Corporation, target: Corporation) -> bool:
    if game.merger_strict:
        return True  # a trial tries one merger, not the ones it would offer next
    # Up to its first decision the exchange depends only on who holds which shares of the two companies and
    # who starts it, so one trial (a copy of the whole game) serves every look at one position.
    holders = [*game.players, game.pool, corp, target]
    key = (player.id, corp.sym, target.sym,
           tuple(tuple(s.id for s in h.shares if s.corp in (corp.sym, target.sym)) for h in holders))
    known: dict[Any, bool] | None = getattr(game, "merge_trials", None)
    if known is None:
        known = {}
        game.merge_trials = known
    if key not in known:
        trial = trial_copy(game)
        trial.merger_strict = True
        try:
            trial._apply({"type": "merge", "entity": corp.sym, "entity_type": "corporation",
                          "corporation": target.sym})
        except GameError:
            known[key] = False
        else:
            known[key] = True
    return known[key]


def trial_copy(game: Game1828) -> Game1828:
    """A throw-away copy of the game, to try an action on (Merger.choices) without touching this one."""
    clone = object.__new__(type(game))
    unpickler = pickle.Unpickler(io.BytesIO(game._snapshot()))
    unpickler.persistent_load = lambda pid: clone  # type: ignore[method-assign]
    clone.__dict__.update(unpickler.load())
    return clone
