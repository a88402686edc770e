"""One line per forced step: what the acting player must do now, and why.

"Next: bob" says whose turn it is; a step that allows only one kind of move (setting a par price after
winning a private that carries a president's certificate, choosing a home station, discarding down to the
train limit, selling down to the certificate limit, an emergency train purchase) also says what and why.
Everything is read from the engine's state and its legal choices, never from one title's names.
"""

from __future__ import annotations

from typing import Any

from bot.core.intents import choice_question, to_command, with_label
from engine.api import Game
from engine.core import query
from engine.core.entities import Company, Corporation, Player


def _money(game: Game, n: int) -> str:
    return str(game.format_money(n))


def _first(game: Game, ent: Any, kind: str, n: int = 4) -> str:
    texts = []
    for choice in query.choices(game, ent, kind):
        try:
            text = with_label(game, ent, choice, f"`{to_command(game, choice)}`")
        except (KeyError, ValueError):
            continue
        if text not in texts:
            texts.append(text)
    shown = ", ".join(texts[:n])
    return shown + (f" (+{len(texts) - n} more: `moves`)" if len(texts) > n else "")


def hints(game: Game) -> list[str]:
    """What each acting entity with a forced step must do, one line each (nothing for ordinary turns)."""
    if game.finished:
        return []
    out: list[str] = []
    for ent in query.deciding_entities(game):
        line = _hint(game, ent)
        if line and line not in out:
            out.append(line)
    return out


def _hint(game: Game, ent: Any) -> str | None:
    kinds = game.actions_for(ent)
    if not kinds:
        return None
    who = game.describe(ent)
    step = query.step_for(game, ent, kinds[0])
    if isinstance(ent, Company):
        if ent not in game.acting():
            return None  # a power that may be used, not one that must be finished
        player = game.describe(game.acting_player(ent))
        step_name = getattr(step, "name", "its power")
        return f"{player} must finish {who}'s power ({step_name}): {_first(game, ent, kinds[0])}"
    if kinds == ["choose"]:
        # A decision the game waits for (1828's merger trades, 1822's acquisition payment and station).
        return f"{who} must decide ({choice_question(game, ent)}): {_first(game, ent, 'choose', 6)}"
    if kinds == ["merge"]:
        return f"{who} must name the company to merge with: {_first(game, ent, 'merge', 6)}"
    if kinds == ["par"] and isinstance(ent, Player):
        corp = next((c["corporation"] for c in query.choices(game, ent, "par")), None)
        why = _president_private(step, corp)
        return f"{who} must set {corp}'s par price{why}: `par {corp} PRICE` ({_par_prices(game, ent)})"
    if kinds == ["place_token"] and isinstance(ent, Corporation) and step is not None and "home" in step.name.lower():
        return f"{who} must choose its home station: {_first(game, ent, 'place_token', 6)}"
    if kinds == ["discard_train"] and isinstance(ent, Corporation):
        limit = game.train_limit(ent)
        held = ent.trains_in_limit()
        return (
            f"{who} holds {held} trains, over the train limit of {limit}: discard one "
            f"({_first(game, ent, 'discard_train')})"
        )
    if kinds == ["sell_shares"] and isinstance(ent, Player) and game.round.name().startswith("Stock"):
        certs, limit = game.num_certs(ent), game.cert_limit
        if certs > limit:
            return (
                f"{who} holds {certs:g} certificates, over the limit of {limit}: must sell "
                f"({_first(game, ent, 'sell_shares')})"
            )
        return f"{who} holds more of a company than allowed: must sell ({_first(game, ent, 'sell_shares')})"
    if isinstance(ent, Corporation) and "buy_train" in kinds and game.must_buy_train(ent):
        return _emergency(game, ent, kinds)
    if isinstance(ent, Player) and kinds == ["sell_shares"]:
        corp = game.round.entity()
        if isinstance(corp, Corporation) and corp.owner is ent:
            return _emergency(game, corp, game.actions_for(corp)) or None
    return None


def _president_private(step: Any, corp: str | None) -> str:
    """" (bought CP, which comes with CPR's president's certificate)" when a pending par is why."""
    pending = getattr(step, "pending", None)
    items = pending() if callable(pending) else []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Company) and item[1] == corp:
            return f" (bought {item[0].sym}, which comes with {corp}'s president's certificate)"
    return ""


def _par_prices(game: Game, ent: Any) -> str:
    prices = sorted({int(str(c["share_price"]).split(",")[0]) for c in query.choices(game, ent, "par")})
    return ", ".join(_money(game, p) for p in prices)


def _emergency(game: Game, corp: Corporation, kinds: list[str]) -> str:
    """An owed train: the cheapest price, the shortfall, the president's cash and what may be sold."""
    trains = [*game.trains.available_depot_trains(), *game.pool_trains]
    cheapest = min(trains, key=lambda t: t.price) if trains else None
    if cheapest is None:
        return f"{corp.sym} must buy a train, but none is for sale"
    short = cheapest.price - corp.cash
    price = _money(game, cheapest.price)
    head = f"{corp.sym} has no train and must buy one: the cheapest is a {cheapest.name} for {price}"
    if short <= 0:
        return head + f"; {corp.sym} has {_money(game, corp.cash)} (`train {cheapest.name}`)"
    pres = corp.owner
    if not isinstance(pres, Player):
        return head + f"; {corp.sym} is {_money(game, short)} short"
    line = (
        f"{head}; {corp.sym} has {_money(game, corp.cash)}, {_money(game, short)} short; "
        f"{pres.name} must add it and has {_money(game, pres.cash)}"
    )
    if pres.cash >= short:
        return line + f" (`train {cheapest.name}`)"
    sales = sorted({_share_text(c) for c in query.choices(game, pres, "sell_shares")})
    if sales:
        return line + f", so must sell shares first: {', '.join(sales[:6])}"
    if "bankrupt" in kinds:
        return line + ", and has nothing left to sell: unless another company sells it a train, `bankrupt`"
    return line


def _share_text(choice: dict[str, Any]) -> str:
    corp = str(choice["shares"][0]).rsplit("_", 1)[0]
    n = int(choice.get("percent") or 10 * len(choice["shares"])) // 10
    return f"`sell {corp} {n}`"

