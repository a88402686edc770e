"""Who may start a merger in 1828 (rules 7.5.1, 13.4), the failed merger a player records after undoing one, and
how a merger in progress looks to the rest of the game (its boxes of old certificates, its companies floated)."""

from __future__ import annotations

import io
import pickle
from typing import TYPE_CHECKING, Any

from ...core.entities import Corporation, CorporationKind, Holder, Player
from ...core.errors import GameError

if TYPE_CHECKING:
    from ...core.flow import RoundState
    from .game import G1828
    from .merger import Merger


def num_shares(holder: Holder, corp: Corporation) -> int:
    return int(holder.percent_of(corp.sym) // corp.share_percent)


def has_operated(game: G1828, corp: Corporation) -> bool:
    return corp.sym in game.operated_once


def stock_step_sold(rnd: RoundState) -> dict[int, dict[str, bool]]:
    """What each player sold this stock round (player id -> company -> sold), from the round's stock step."""
    for step in getattr(rnd, "steps", ()):
        sold = getattr(step, "sold", None)
        if isinstance(sold, dict):
            return sold
    return {}


def merge_candidates(game: G1828, player: Player, corp: Corporation) -> list[Corporation]:
    if corp.kind is CorporationKind.SYSTEM:
        return []
    return [c for c in game.corporations.values() if merge_candidate(game, player, corp, c)]


def merge_candidate(game: G1828, player: Player, corp: Corporation, candidate: Corporation) -> bool:
    """Two public companies merge when one is the player's, they have both operated or neither has, one has
    floated, and some player holds six of their shares together (five, having sold neither this round)."""
    return _pair_open(game, player, corp, candidate) and _shares_held(game, corp, candidate)


def _pair_open(game: G1828, player: Player, corp: Corporation, candidate: Corporation) -> bool:
    if (candidate is corp or candidate.kind is not CorporationKind.MAJOR or corp.kind is not CorporationKind.MAJOR
            or candidate.closed or corp.closed or not candidate.ipoed):
        return False
    if corp.owner is not player and candidate.owner is not player:
        return False
    return has_operated(game, candidate) == has_operated(game, corp) and (candidate.floated or corp.floated)


def _shares_held(game: G1828, corp: Corporation, candidate: Corporation) -> bool:
    sold = stock_step_sold(game.round)
    for p in game.players:
        n = num_shares(p, candidate) + num_shares(p, corp)
        if n >= 6 or (n == 5 and not sold.get(p.id, {}).get(candidate.sym)
                      and not sold.get(p.id, {}).get(corp.sym)):
            return True
    return False


def can_merge_any(game: G1828, player: Player) -> bool:
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


def undone_failed_merge(game: G1828, player: Player) -> list[str] | None:
    """The two companies of ``player``'s merger that the log's last entry undid because it failed (the player
    then records failed_merge, as on 18xx.games), or None."""
    undone = _undone_by_last_undo(game)
    if not undone or undone[0].get("type") != "choose" or str(undone[0].get("entity")) != str(player.id):
        return None
    merge = next((a for a in undone if a.get("type") == "merge"), None)
    if merge is None:
        return None
    return [str(merge["entity"]), str(merge["corporation"])]


def undone_unfinishable_merge(game: G1828, player: Player) -> str | None:
    """The company ``player`` just chose to start a merger with, when the log's last entry undid that choice
    and nothing after it (the way out of a merger 18xx.games cannot run, Merger.choices), or None."""
    undone = _undone_by_last_undo(game)
    if len(undone) != 1 or undone[0].get("type") != "choose" or str(undone[0].get("entity")) != str(player.id):
        return None
    return str(undone[0].get("choice"))


def _undone_by_last_undo(game: G1828) -> list[dict[str, Any]]:
    """The actions the log's last entry undid, when it is an undo to a given action, else none."""
    raw = game.raw_actions
    if not raw or raw[-1].get("type") != "undo" or raw[-1].get("action_id") is None:
        return []
    start = int(raw[-1]["action_id"])
    return [a for a in raw[:-1] if int(a.get("id") or 0) > start and a.get("type") not in ("undo", "redo")]


def finishable_merges(game: G1828, player: Player, corp: Corporation) -> list[Corporation]:
    """The companies ``player``, having chosen ``corp`` to start a merger, may merge it with and whose merger
    18xx.games can run up to its first decision (or its end). It hands out system shares without checking that
    one is left, and stops with an error where none is (docs/conformance.md); a merger that runs short before
    any decision is left unoffered, though still accepted."""
    return [c for c in merge_candidates(game, player, corp) if _merge_finishable(game, player, corp, c)]


def _merge_finishable(game: G1828, player: Player, corp: Corporation, target: Corporation) -> bool:
    if game.merger_strict:
        return True  # a trial tries one merger, not the ones it would offer next
    # Up to its first decision the exchange depends only on who holds which shares of the two companies and
    # who starts it, so one trial (a copy of the whole game) serves every look at one position.
    holders = [*game.players, game.pool, corp, target]
    key = (player.id, corp.sym, target.sym,
           tuple(tuple(s.id for s in h.shares if s.corp in (corp.sym, target.sym)) for h in holders))
    known: dict[Any, bool] | None = getattr(game, "_merge_trials", None)
    if known is None:
        known = {}
        game._merge_trials = known
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


def merger_step(game: G1828) -> Merger | None:
    """The current round's merger step (a stock round's), or None; looked for once per round, whose steps
    never change, since every action asks (check_merging_floats)."""
    from .merger import Merger
    rnd = game.round
    known = game._merger_of
    if known[0] is not rnd:
        known = game._merger_of = (rnd, next((s for s in getattr(rnd, "steps", ()) if isinstance(s, Merger)), None))
    return known[1]


def check_merging_floats(game: G1828) -> None:
    """18xx.games counts a company as floated once at most 40% is left in its IPO, whenever it looks; in a
    merger the two companies' IPOs drain, so they count as floated from then on (no money comes with it)."""
    step = merger_step(game)
    for corp in (step.merger, step.target) if step is not None else ():
        if corp is not None and not corp.floated and corp.percent_of(corp.sym) <= 100 - corp.float_percent:
            corp.floated = True


def merger_boxes(game: G1828) -> list[Holder]:
    """During a merger old certificates wait in the merger's boxes (discarded, exchanged, the joint IPO)."""
    step = merger_step(game)
    return [step.discard, step.used, step.ipo] if step is not None else []


def trial_copy(game: G1828) -> G1828:
    """A throw-away copy of the game, to try an action on (Merger.choices) without touching this one."""
    clone = object.__new__(type(game))
    unpickler = pickle.Unpickler(io.BytesIO(game._snapshot()))
    unpickler.persistent_load = lambda pid: clone  # type: ignore[method-assign]
    clone.__dict__.update(unpickler.load())
    return clone
