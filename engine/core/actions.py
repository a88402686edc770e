"""Actions: the stable JSON form shared with 18xx.games, and the undo/redo filter over a log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from .entities import Company, Entity, Player
from .errors import malformed

Action = dict[str, Any]

@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action type of the 18xx.games JSON form: the fields it needs beyond "type" and "entity"."""

    type: str
    required: tuple[str, ...] = ()
    # Only edits a player's automation settings or the chat log; its effects come through recorded auto_actions.
    log_only: bool = False


_REGISTRY: dict[str, ActionSpec] = {}


def register_action(kind: str, *required: str, log_only: bool = False) -> ActionSpec:
    """Make an action type known. Titles register the types of their own steps; registering a type again with
    other fields is a data error."""
    spec = ActionSpec(kind, tuple(required), log_only)
    known = _REGISTRY.setdefault(kind, spec)
    if known != spec:
        raise ValueError(f"action type {kind} is registered twice with different fields")
    return known


def action_spec(kind: object) -> ActionSpec | None:
    return _REGISTRY.get(kind) if isinstance(kind, str) else None


def known_types() -> list[str]:
    return sorted(k for k, spec in _REGISTRY.items() if not spec.log_only)


def is_log_only(kind: object) -> bool:
    spec = action_spec(kind)
    return spec is not None and spec.log_only


# Every type the recorded games of the titles use, whichever step of whichever title processes it; a type no
# active step accepts is refused by the round as "not now".
for _kind, *_fields in (
    ("bid", "company", "price"), ("pass",), ("par", "corporation", "share_price"), ("buy_shares", "shares"),
    ("sell_shares", "shares"), ("lay_tile", "hex", "tile", "rotation"), ("place_token", "city"),
    ("remove_token", "city"), ("hex_token", "hex"), ("run_routes", "routes"), ("dividend", "kind"),
    ("buy_train", "train", "price"), ("discard_train", "train"), ("swap_train", "train"),
    ("buy_company", "company", "price"), ("acquire_company", "company"), ("merge", "corporation"),
    ("choose", "choice"), ("choose_ability", "choice"), ("special_buy", "description"), ("take_loan",),
    ("payoff_loan",), ("bankrupt",), ("end_game",), ("undo",), ("redo",),
):
    register_action(_kind, *_fields)
for _kind in ("message", "program_buy_shares", "program_share_pass", "program_disable", "program_auto_pass",
              "program_independent_mines", "program_merger_pass", "program_harzbahn_draft_pass",
              "program_close_pass"):
    register_action(_kind, log_only=True)


# The JSON type of each field wherever it appears (as 18xx.games writes them), so that a hand-made or damaged
# action is refused with a plain sentence instead of failing somewhere inside a rule.
_TEXT = ("text", (str,))
_WHOLE = ("a whole number", (int,))
FIELD_TYPES: dict[str, tuple[str, tuple[type, ...]]] = {
    "company": _TEXT,
    "corporation": _TEXT,
    "hex": _TEXT,
    "tile": _TEXT,
    "train": _TEXT,
    "kind": _TEXT,
    "city": _TEXT,
    "variant": _TEXT,
    "choice": _TEXT,
    "shell": _TEXT,
    "description": _TEXT,
    "token_type": _TEXT,
    "cost": _WHOLE,
    "exchange": _TEXT,
    "entity_type": _TEXT,
    "entity": ("a player number or a company name", (int, str)),
    "share_price": ("a price or a market cell", (int, str)),
    "price": _WHOLE,
    "rotation": _WHOLE,
    "percent": _WHOLE,
    "slot": _WHOLE,
    "action_id": _WHOLE,
    "shares": ("a list of share ids", (list,)),
    "routes": ("a list of routes", (list,)),
}
# Lists whose items have one type.
ITEM_TYPES: dict[str, tuple[str, type]] = {"shares": ("a share id", str), "routes": ("a route object", dict)}


def validate_shape(action: Action) -> None:
    """Check an action has a known type and its required fields, before anything is touched."""
    if not isinstance(action, dict):
        raise malformed("an action must be a JSON object")
    kind = action.get("type")
    spec = action_spec(kind)
    if spec is None:
        raise malformed(f"unknown action type {kind!r}; known types: {', '.join(known_types())}")
    if "entity" not in action:
        raise malformed(f"{kind} needs an entity (who is acting)")
    missing = [f for f in spec.required if f not in action]
    if missing:
        raise malformed(f"{kind} is missing {', '.join(missing)}")
    for name, value in action.items():
        expected = FIELD_TYPES.get(name)
        if expected is None or (value is None and name not in spec.required and name != "entity"):
            continue  # unknown fields are kept as they are; an optional field may be null
        what, allowed = expected
        # bool is an int to Python, never to 18xx.games.
        if isinstance(value, bool) or not isinstance(value, allowed):
            raise malformed(f"{kind}: {name} must be {what}, not {value!r}")
        item = ITEM_TYPES.get(name)
        if (
            item is not None
            and isinstance(value, list)
            and any(isinstance(v, bool) or not isinstance(v, item[1]) for v in value)
        ):
            raise malformed(f"{kind}: every item of {name} must be {item[0]}, not {value!r}")


# Typed reads of the fields ``validate_shape`` checked (FIELD_TYPES): every action a round processes went through
# it, so a rule reads ``text(action, "hex")`` as the str it is instead of an untyped ``action["hex"]``.
def text(action: Action, name: str) -> str:
    """A text field (``hex``, ``tile``, ``train``, ``company``, ``choice``...)."""
    return str(action[name])


def whole(action: Action, name: str) -> int:
    """A whole-number field (``price``, ``rotation``, ``percent``...)."""
    return int(action[name])


def opt_text(action: Action, name: str) -> str | None:
    """An optional text field: None when it is missing or null."""
    value = action.get(name)
    return None if value is None else str(value)


def opt_whole(action: Action, name: str) -> int | None:
    """An optional whole-number field: None when it is missing or null."""
    value = action.get(name)
    return None if value is None else int(value)


def share_ids(action: Action) -> list[str]:
    """The share ids of a ``buy_shares``/``sell_shares`` action."""
    return cast(list[str], action["shares"])


def route_list(action: Action) -> list[dict[str, Any]]:
    """The routes of a ``run_routes`` action, as 18xx.games writes them."""
    return cast(list[dict[str, Any]], action["routes"])


def filter_undo(actions: list[Action]) -> list[Action]:
    """The actions that stand after undo/redo, in order (18xx.games semantics).

    ``undo`` without an action_id removes the last standing non-message action; with an
    action_id it removes everything after that action (0 = everything). ``redo`` restores the
    group removed by the latest undo, as long as nothing else has been done since.
    """
    kept: list[Action] = []
    undone: list[list[Action]] = []
    # Whether ``kept`` is in order of id (as games record it), every id a whole number up to ``top``: an undo back
    # to an action then cuts its tail only, instead of looking at every action kept.
    ordered = True
    top: int | None = None
    for action in actions:
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            group: list[Action] = []
            if target is None:
                for i in range(len(kept) - 1, -1, -1):
                    if kept[i].get("type") != "message":
                        group = [kept.pop(i)]
                        break
            elif target and ordered and kept:
                back_to = int(target)
                cut = len(kept)
                while cut and int(kept[cut - 1].get("id", 0)) > back_to:
                    cut -= 1
                tail = kept[cut:]
                del kept[cut:]
                for a in tail:
                    (kept if a.get("type") == "message" else group).append(a)
            else:
                keep: list[Action] = []
                for a in kept:
                    if (target and int(a.get("id", 0)) <= int(target)) or a.get("type") == "message":
                        keep.append(a)
                    else:
                        group.append(a)
                kept = keep
            undone.append(group)
        elif kind == "redo":
            if undone:
                group = undone.pop()
                kept.extend(group)
                kept.sort(key=lambda a: int(a.get("id", 0)))
                ordered, top = True, (int(kept[-1].get("id", 0)) if kept else None)
        else:
            if kind != "message":
                undone.clear()
            if ordered:
                try:
                    now = int(action.get("id", 0))
                except (TypeError, ValueError):
                    ordered = False
                else:
                    ordered, top = top is None or now >= top, now
            kept.append(action)
    return kept


def entity_ref(entity: Entity) -> tuple[str, str | int]:
    """How actions name an entity: ("player", id), ("company", sym) or ("corporation", sym); a corporation may
    name its own type (1828's C&P is a "minor", its systems are "system"s, as 18xx.games names them)."""
    if isinstance(entity, Player):
        return "player", entity.id
    if isinstance(entity, Company):
        return "company", entity.sym
    return str(getattr(entity, "entity_type", "corporation")), entity.sym


def entity_action(entity: Entity, kind: str) -> Action:
    """The head every action of ``entity`` starts with: its type and who acts."""
    etype, ref = entity_ref(entity)
    return {"type": kind, "entity": ref, "entity_type": etype}


def sale_actions(entity: Entity, bundles: list[tuple[list[Any], int]]) -> list[Action]:
    """sell_shares actions for (certificates, percent sold) bundles."""
    return [{**entity_action(entity, "sell_shares"), "shares": [s.id for s in shares], "percent": percent}
            for shares, percent in bundles]
