"""What a move did to money, prices and trains, in words: a payout per share and each holder's income, share
price moves ("CPR 71 → 76"), and rusting ("all 2-trains rust: CNR loses 2, HBR loses 1").

A snapshot is taken before the engine applies an action and compared with the state after it, so the lines
hold for every title without reading its log text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.entities import Corporation


@dataclass(frozen=True, slots=True)
class Before:
    player_cash: dict[int, int]
    corp_cash: dict[str, int]
    prices: dict[str, int]
    trains: dict[str, tuple[str, str]]  # train id -> (name, owning corporation)


def snapshot(game: Any) -> Before:
    return Before(
        player_cash={p.id: p.cash for p in game.players},
        corp_cash={c.sym: c.cash for c in game.corporations.values()},
        prices={sym: cell.price for sym, cell in game.market.location.items()},
        trains={
            t.id: (t.name, c.sym) for c in game.corporations.values() for t in c.trains
        },
    )


def lines(game: Any, before: Before, action: dict[str, Any]) -> list[str]:
    out: list[str] = []
    money = game.format_money
    if action.get("type") == "dividend":
        out += _dividend(game, before, str(action["entity"]), str(action.get("kind", "")))
    moves = []
    for sym, cell in game.market.location.items():
        old = before.prices.get(sym)
        if old is not None and old != cell.price:
            moves.append(f"{sym} {money(old)} → {money(cell.price)}")
    if moves:
        out.append("Share price: " + ", ".join(moves))
    out += _rusted(game, before)
    return out


def _dividend(game: Any, before: Before, sym: str, kind: str) -> list[str]:
    corp: Corporation = game.corporations[sym]
    revenue = corp.last_revenue or 0
    money = game.format_money
    if kind != "payout" or revenue <= 0:
        return [f"{sym} keeps {money(revenue)} in its treasury; no dividend"] if revenue else []
    per_share = game.holder_payout(revenue, corp.share_percent)
    incomes = []
    for p in game.players:
        gained = p.cash - before.player_cash.get(p.id, p.cash)
        if gained > 0:
            incomes.append(f"{p.name} {money(gained)}")
    treasury = corp.cash - before.corp_cash.get(sym, corp.cash)
    if treasury > 0:
        incomes.append(f"{sym}'s treasury {money(treasury)} (pool shares)")
    line = f"{sym} pays {money(per_share)} per {corp.share_percent}% share"
    return [line + (": " + ", ".join(incomes) if incomes else "")]


def _rusted(game: Any, before: Before) -> list[str]:
    """Trains that left their company without being sold or discarded: rusted or obsolete."""
    lost: dict[str, dict[str, int]] = {}
    for tid, (name, sym) in before.trains.items():
        train = game.all_trains.get(tid)
        if train is None or not getattr(train, "rusted", False):
            continue
        lost.setdefault(name, {})
        lost[name][sym] = lost[name].get(sym, 0) + 1
    out = []
    for name, by_corp in lost.items():
        losers = ", ".join(f"{sym} loses {n}" for sym, n in sorted(by_corp.items(), key=lambda kv: -kv[1]))
        out.append(f"All {name}-trains rust: {losers}")
    return out
