"""Programmed auto-actions: what ``auto pass``, ``auto buy CPR 60%`` and ``auto bid TB 200`` mean, when they
act, and when they switch themselves off (pure functions of the engine's state; storage is the caller's).

An auto-action is a JSON object (the ``spec``) stored with its owner. It acts only for its owner's player in
the rounds where players act for themselves (auctions and stock rounds), and only through the engine's own
legal choices (``engine.core.query``), so it works the same for every title: a title whose auction has no
bid steps simply offers no bid to make.

It switches itself off (:func:`stale_reason` after any stored action, :func:`plan` when its seat acts) when
the situation it was set for changes: another player sells, pars or buys into its company; the share price,
the phase or a bid passes what was set; the round ends for a "this round" one; a forced step or a decision
comes up that it cannot answer. Each reason is a sentence for its owner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.commands import malformed
from bot.core.text import round_name
from engine.api import Game
from engine.core import query
from engine.core.entities import Corporation, Player

Spec = dict[str, Any]

#: ``auto pass`` scopes: until the current auction ends, until this (stock) round ends, or until ``auto off``.
PASS_SCOPES = {"auction": "auction", "round": "round", "sr": "round", "always": "always", "until": "always"}
#: The player rounds an auto-action acts in (engine round kinds).
PLAYER_ROUNDS = ("auction", "stock")
#: Action types that are the player's ordinary business in those rounds; anything else is a forced step or a
#: decision, which switches an auto-action off rather than being answered by it.
ORDINARY = frozenset({"bid", "pass", "buy_shares", "sell_shares", "par", "buy_company", "short", "program"})

_PERCENT = re.compile(r"^(\d{1,3})%?$")

USAGE = (
    "`auto pass [auction|round|always]`, `auto buy CORP PERCENT%` (e.g. `auto buy CPR 60%`), "
    "`auto bid PRIVATE CEILING` (e.g. `auto bid TB 200`), `auto off` or `auto` to list them"
)


@dataclass(frozen=True, slots=True)
class Planned:
    """What an armed auto-action does when its seat acts: an action to store, or a reason to switch off."""

    action: dict[str, Any] | None = None
    stop: str | None = None


def round_key(game: Game) -> str:
    """The round as a stored auto-action remembers it ("stock:Stock Round 2")."""
    return f"{getattr(game.round, 'kind', 'round')}:{round_name(game)}"


def share_price(game: Game, sym: str) -> int | None:
    cell = game.share_price(game.corporation(sym))
    return None if cell is None else int(getattr(cell, "price", 0))


def parse(game: Game, player: Any, args: Sequence[str]) -> Spec:
    """A spec from the words after ``auto`` (``pass round``, ``buy CPR 60%``, ``bid TB 200``)."""
    if not args:
        raise malformed(f"say what to program: {USAGE}")
    what, rest = args[0].lower(), list(args[1:])
    base: Spec = {"phase": str(game.phase["name"]), "round": round_key(game)}
    if what == "pass":
        if len(rest) > 1:
            raise malformed(f"`auto pass` takes one word at most: auction, round or always; {USAGE}")
        default = "auction" if getattr(game.round, "kind", "") == "auction" else "round"
        word = rest[0].lower() if rest else default
        scope = PASS_SCOPES.get(word)
        if scope is None:
            raise malformed(f"`auto pass {rest[0]}`: say `auction`, `round` or `always`")
        return {**base, "kind": "pass", "scope": scope}
    if what == "buy":
        if len(rest) != 2:
            raise malformed(f"write `auto buy CORP PERCENT%`, e.g. `auto buy CPR 60%`; {USAGE}")
        corp = _corporation(game, rest[0])
        match = _PERCENT.match(rest[1])
        if match is None or not 0 < int(match.group(1)) <= 100:
            raise malformed(f"`{rest[1]}` is not a share of a company; write a percentage such as 60%")
        percent = int(match.group(1))
        if player.percent_of(corp) >= percent:
            raise malformed(f"you hold {player.percent_of(corp)}% of {corp} already")
        return {**base, "kind": "buy", "corp": corp, "percent": percent, "price": share_price(game, corp)}
    if what == "bid":
        if len(rest) != 2:
            raise malformed(f"write `auto bid PRIVATE CEILING`, e.g. `auto bid TB 200`; {USAGE}")
        company = _private(game, rest[0])
        try:
            ceiling = int(rest[1].lstrip("$£"))
        except ValueError:
            raise malformed(f"`{rest[1]}` is not an amount; write the most you will bid, e.g. 200") from None
        return {**base, "kind": "bid", "company": company, "ceiling": ceiling}
    raise malformed(f"`auto {args[0]}` is not something the bot can do for you; {USAGE}")


def _corporation(game: Game, word: str) -> str:
    from bot.core.commands import did_you_mean

    hit = next((s for s in game.corporations if s.lower() == word.lower()), None)
    if hit is None:
        raise malformed(f"no company {word}{did_you_mean(word, list(game.corporations))}")
    return str(hit)


def _private(game: Game, word: str) -> str:
    from bot.core.commands import did_you_mean

    hit = next((s for s in game.companies if s.lower() == word.lower()), None)
    if hit is None:
        raise malformed(f"no private company {word}{did_you_mean(word, list(game.companies))}")
    return str(hit)


def describe(spec: Spec, game: Game) -> str:
    kind = spec.get("kind")
    if kind == "pass":
        scope = {"auction": "for the rest of this auction", "round": "for the rest of this round",
                 "always": "until `auto off`"}
        return f"pass {scope.get(str(spec.get('scope')), '')}".strip()
    if kind == "buy":
        return f"buy {spec['corp']} in each stock turn until holding {spec['percent']}% or it floats, then pass"
    if kind == "bid":
        return f"bid on {spec['company']} in the smallest steps up to {game.format_money(int(spec['ceiling']))}"
    return str(kind)


def stale_reason(spec: Spec, game: Game, owner_pid: int, action: dict[str, Any], actor_pid: int | None) -> str | None:
    """Why an armed auto-action no longer fits after ``action`` was stored (None: it still does)."""
    if game.finished:
        return "the game is over"
    if str(game.phase["name"]) != spec.get("phase"):
        return f"the phase changed to {game.phase['name']}"
    kind = spec.get("kind")
    if kind == "pass" and spec.get("scope") == "round" and round_key(game) != spec.get("round"):
        return "the round it was set for ended"
    if kind == "pass" and spec.get("scope") == "auction" and round_key(game) != spec.get("round"):
        return "the auction it was set for ended"
    if kind == "buy":
        corp = str(spec["corp"])
        owner = _player(game, owner_pid)
        goal = owner is not None and owner.percent_of(corp) >= int(spec["percent"])
        if (goal or game.corporation(corp).floated) and owner is not None and round_key(game) != spec.get("round"):
            return f"its goal is reached ({owner.name} holds {owner.percent_of(corp)}% of {corp})"
        if actor_pid is not None and actor_pid != owner_pid and _touches(action, corp):
            verb = {"sell_shares": "sold", "par": "set the par of", "buy_shares": "bought into"}[str(action["type"])]
            return f"{game.describe(game.player_by_id(actor_pid))} {verb} {corp}"
        price = share_price(game, corp)
        if spec.get("price") is not None and price != spec.get("price"):
            return f"{corp}'s share price moved from {_money(game, spec['price'])} to {_money(game, price)}"
    if kind == "bid":
        comp = game.companies.get(spec["company"])
        if comp is None or _owned(comp) or comp.closed:
            return f"{spec['company']} is no longer up for bids"
        low = _lowest_bid(game, owner_pid, str(spec["company"]))
        if low is not None and low > int(spec["ceiling"]) and _high_bidder(game, comp) is not _player(game, owner_pid):
            return f"the next bid on {spec['company']} would be {_money(game, low)}, over your ceiling"
    return None


def _touches(action: dict[str, Any], corp: str) -> bool:
    kind = action.get("type")
    if kind == "par":
        return action.get("corporation") == corp
    if kind in ("buy_shares", "sell_shares"):
        shares = action.get("shares") or []
        names = [shares] if isinstance(shares, str) else list(shares)
        return any(str(s).split("_")[0] == corp for s in names) or action.get("corporation") == corp
    return False


def _money(game: Game, amount: Any) -> str:
    return "none" if amount is None else str(game.format_money(int(amount)))


def _player(game: Game, pid: int) -> Any:
    return next((p for p in game.players if p.id == pid), None)


def plan(spec: Spec, game: Game, player: Any) -> Planned:
    """The move an auto-action makes now that its owner's player must act (or why it switches off).

    Only the player's own actions in auctions and stock rounds are taken; elsewhere (an operating round, a
    company acting) the auto-action waits, armed.
    """
    if getattr(game.round, "kind", "") not in PLAYER_ROUNDS or player not in game.acting():
        return Planned()
    types = list(game.actions_for(player))
    odd = [t for t in types if t not in ORDINARY]
    if odd or "pass" not in types:
        forced = ", ".join(t.replace("_", " ") for t in (odd or types))
        return Planned(stop=f"a forced step or a decision came up ({forced}); it is yours to make")
    passing = query.choices(game, player, "pass")[0]
    kind = spec.get("kind")
    if kind == "pass":
        return Planned(passing)
    if kind == "buy":
        return _plan_buy(spec, game, player, passing)
    if kind == "bid":
        return _plan_bid(spec, game, player, passing)
    return Planned(stop=f"unknown kind {kind}")


def _plan_buy(spec: Spec, game: Game, player: Any, passing: dict[str, Any]) -> Planned:
    corp_sym = str(spec["corp"])
    corp = game.corporation(corp_sym)
    if game.round.kind != "stock":
        return Planned()
    if player.percent_of(corp_sym) >= int(spec["percent"]) or corp.floated:
        return Planned(passing)  # the goal is reached: pass for the rest of the round, then switch off
    offers = [c for c in query.choices(game, player, "buy_shares") if _touches(c, corp_sym)]
    if not offers:
        if not corp.ipoed:
            return Planned(stop=f"{corp_sym} has no par price yet; `par` it yourself")
        return Planned(stop=f"you cannot buy a {corp_sym} share now (money, limits or none left)")
    ipo = [c for c in offers if "pool" not in str(c.get("shares", "")) and c.get("pool") is not True]
    return Planned((ipo or offers)[0])


def _plan_bid(spec: Spec, game: Game, player: Any, passing: dict[str, Any]) -> Planned:
    sym = str(spec["company"])
    comp = game.companies.get(sym)
    if comp is None or _owned(comp):
        return Planned(stop=f"{sym} is no longer up for bids")
    if _high_bidder(game, comp) is player:
        return Planned(passing)  # the standing high bid is ours: nothing to raise
    low = _lowest_bid(game, player.id, sym)
    if low is None:
        return Planned(passing)  # not up for bids in this turn (a waterfall auction's later private)
    if low > int(spec["ceiling"]):
        return Planned(stop=f"the next bid on {sym} would be {_money(game, low)}, over your ceiling")
    offer = next(c for c in query.choices(game, player, "bid") if c.get("company") == sym)
    return Planned({**offer, "price": low})


def _owned(comp: Any) -> bool:
    """Whether a private belongs to a player or a company (not to the bank, which offers it)."""
    return isinstance(comp.owner, Player | Corporation)


def _lowest_bid(game: Game, pid: int, sym: str) -> int | None:
    player = _player(game, pid)
    if player is None or player not in game.acting() or "bid" not in game.actions_for(player):
        return None
    offer = next((c for c in query.choices(game, player, "bid") if c.get("company") == sym), None)
    if offer is None:
        return None
    span = query.price_range(game, player, offer)
    return int(span[0]) if span is not None else int(offer["price"])


def _high_bidder(game: Game, comp: Any) -> Any:
    """The player holding the highest bid on a private (None: nobody bids on it)."""
    high = query.high_bids(game).get(comp.sym)
    return high[0] if high else None


def forced_pass(game: Game, player: Any) -> dict[str, Any] | None:
    """The pass a player must make when it is the only legal action of theirs (auctions and stock rounds)."""
    if getattr(game.round, "kind", "") not in PLAYER_ROUNDS or player not in game.acting():
        return None
    types = list(game.actions_for(player))
    if types != ["pass"]:
        return None
    if any(not comp.closed and game.actions_for(comp) for comp in player.companies):
        return None  # a private of theirs may still act: the pass is not the only thing they can do
    return dict(query.choices(game, player, "pass")[0])
