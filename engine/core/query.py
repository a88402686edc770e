"""What may be done now: who acts, which action types, and the concrete legal choices.

The chat layer uses these for prompts, buttons and autocomplete; random playouts use them to
play whole games. Every choice is a complete action dict that :meth:`Game.process` accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import actions as act
from .entities import Corporation, Player

if TYPE_CHECKING:
    from .game import Game

Action = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Actor:
    """Someone who must act now: the acting entity and the player who decides for it."""

    entity_type: str  # "player", "corporation" or "company"
    entity: str | int  # player id, corporation or company symbol (as in actions)
    player_id: int | None  # the deciding player
    label: str  # readable: "Alice" or "CPR (Alice)"


def entity_ref(game: Game, entity: Any) -> tuple[str, str | int]:
    return act.entity_ref(entity)


def actors(game: Game) -> list[Actor]:
    out: list[Actor] = []
    for ent in game.acting():
        kind, ref = entity_ref(game, ent)
        player = game.acting_player(ent)
        pid = player.id if isinstance(player, Player) else None
        label = game.describe(ent)
        if not isinstance(ent, Player) and isinstance(player, Player):
            label = f"{label} ({player.name})"
        out.append(Actor(kind, ref, pid, label))
    return out


def entity_action(game: Game, entity: Any, kind: str) -> Action:
    """The head every action of ``entity`` starts with: its type and who acts."""
    return act.entity_action(entity, kind)


def deciding_entities(game: Game) -> list[Any]:
    """Entities that have something to do now (acting ones, plus presidents who may sell in an emergency)."""
    out = list(game.acting())
    for ent in list(out):
        if isinstance(ent, Corporation) and ent.owner is not None and game.actions_for(ent.owner):
            out.append(ent.owner)
    step = game.round.active_step() if any(isinstance(ent, Player) for ent in out) else None
    if step is not None:
        # A company acting for an acting player (1828: the company that starts a merger names the other).
        out += [c for c in game.corporations.values() if c not in out and not c.closed and step.actions(c)]
    for comp in game.companies.values():
        if not comp.closed and game.actions_for(comp):
            out.append(comp)
    return out


def choices(game: Game, entity: Any, kind: str, *, limit: int = 500) -> list[Action]:
    """Concrete actions of one type the entity may take now (possibly truncated to ``limit``), as listed by the
    step that would take them."""
    if game.finished:
        return []
    return game.round.choices_for(entity, kind)[:limit]


def price_range(game: Game, entity: Any, action: Action) -> tuple[int, int] | None:
    """The prices the rules accept for one of ``entity``'s choices (a bid, a private or a train bought from
    another company), or None when its price is fixed."""
    if game.finished:
        return None
    return game.round.price_range_for(entity, action)


def all_choices(game: Game, entity: Any, *, limit: int = 500) -> list[Action]:
    out: list[Action] = []
    for kind in game.actions_for(entity):
        out.extend(choices(game, entity, kind, limit=limit))
    return out


def reference_choices(game: Game, entity: Any, *, limit: int = 500) -> list[Action]:
    """``all_choices`` less those oracle playouts leave out (``Step.offered_by_reference``): what they choose
    from, so the reference engine can replay every game they write to its end."""
    out: list[Action] = []
    for kind in game.actions_for(entity):
        step = step_for(game, entity, kind)
        out.extend(c for c in choices(game, entity, kind, limit=limit)
                   if step is None or step.offered_by_reference(entity, c))
    return out


def step_for(game: Game, entity: Any, kind: str) -> Any | None:
    """The step that would take an action of type ``kind`` from ``entity`` now (None if no step would)."""
    if game.finished:
        return None
    steps: list[Any] = list(game.round.steps)  # the flow protocol does not promise ``active``
    for step in steps:
        if not step.active():
            continue
        if kind in step.actions(entity):
            return step
        if step.blocking():
            break
    return None


def choice_label(game: Game, entity: Any, action: dict[str, Any]) -> str | None:
    """What ``entity``'s ``choose`` option means in words, from the step that offers it (None: the word says it)."""
    step = step_for(game, entity, str(action.get("type")))
    label = step.choice_label(entity, action) if step is not None else None
    return str(label) if label else None


@dataclass(frozen=True, slots=True)
class LayCost:
    """What a tile lay costs, by cause: printed terrain, river crossings it completes, the lay's own fee."""

    terrain: int = 0
    river: int = 0
    fee: int = 0

    @property
    def total(self) -> int:
        return self.terrain + self.river + self.fee


def lay_cost(game: Game, entity: Any, action: Action) -> LayCost:
    """The cost of one of ``entity``'s ``lay_tile`` choices, before it is laid (nothing is changed)."""
    from .track import crossing_cost

    hx = game.board.hexes[str(action["hex"])]
    tile = game.tile_supply.get(str(action["tile"]))
    if tile is None:
        return LayCost()
    step = step_for(game, entity, "lay_tile")
    own = step.lay_cost(entity, action) if step is not None else None
    if own is not None:
        terrain, river, fee = own
        return LayCost(int(terrain), int(river), int(fee))
    rotation = int(action["rotation"])
    terrain = hx.terrain_cost if hx.tile is hx.original else 0
    exits = frozenset((e + rotation) % 6 for e in tile.tdef.edges())
    river = crossing_cost(game, hx, exits)
    spec = step.next_lay() if step is not None else None
    fee = int(spec.get("cost", 0)) if isinstance(spec, dict) else 0
    return LayCost(terrain, river, fee)


def token_price(game: Game, entity: Any, action: Action) -> int | None:
    """What one of ``entity``'s ``place_token`` choices costs: the price of the station it uses, unless the step
    prices it itself (1828's free private stations); None when no station would be used."""
    step = step_for(game, entity, "place_token")
    own = step.token_price(entity, action) if step is not None else None
    if own is not None:
        return int(own)
    corp = entity if isinstance(entity, Corporation) else getattr(entity, "owner", None)
    token = game.track.token_for(corp, action.get("token_type")) if isinstance(corp, Corporation) else None
    return token.price if token is not None else None


def high_bids(game: Game) -> dict[str, tuple[Any, int]]:
    """Per private bid on now, its highest bid: (bidder, price). The bids are those the round's steps keep
    (``Step.company_bids``) and those the title keeps between rounds (``Game.standing_bids``: 1822's bid boxes)."""
    out: dict[str, tuple[Any, int]] = {}
    for bids in [*(step.company_bids() for step in game.round.steps), game.standing_bids()]:
        for sym, entries in bids.items():
            if entries:
                who, price = max(entries, key=lambda e: e[1])
                out[str(sym)] = (who, int(price))
    return out
