"""Reading an 18xx.games JSON export that a chat user attached: every malformed file gets its own message.

The engine's importer trusts its input (it reads files 18xx.games wrote). Files from chat can be anything,
so this module checks the shape first: sizes, text encoding, JSON syntax, nesting, and the type of every
field the importer reads. What passes is plain data the importer cannot trip over; what fails raises
:class:`ImportRefused` with a message that names the field.
"""

from __future__ import annotations

import json
import math
import unicodedata
from typing import Any, TypeGuard

MAX_IMPORT_BYTES = 8 * 1024 * 1024
MAX_IMPORT_ACTIONS = 20_000
MAX_DEPTH = 32
MAX_NAME = 64
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class ImportRefused(ValueError):
    """The attached file is not an 18xx.games game this bot can read; ``str(exc)`` says why."""


def read_import(blob: bytes | str) -> dict[str, Any]:
    """The parsed game document, checked; raises ImportRefused with a specific reason."""
    size = len(blob.encode("utf-8", "surrogatepass")) if isinstance(blob, str) else len(blob)
    if size > MAX_IMPORT_BYTES:
        raise ImportRefused(f"the file is too large ({size // 1024} KiB; at most {MAX_IMPORT_BYTES // 2**20} MiB)")
    if isinstance(blob, bytes):
        try:
            text = blob.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ImportRefused(f"the file is not UTF-8 text (byte {exc.start} cannot be read)") from None
    else:
        text = blob
    if not text.strip():
        raise ImportRefused("the file is empty")
    try:
        raw = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ImportRefused(f"that is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise ImportRefused(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)") from None
    _check_values(raw)
    if not isinstance(raw, dict):
        raise ImportRefused(f"the file holds {_kind(raw)}, not an 18xx.games game (a JSON object)")
    missing = [key for key in ("title", "players", "actions") if key not in raw]
    if missing:
        raise ImportRefused(f"not an 18xx.games game: it has no {', '.join(missing)}")
    if not isinstance(raw["title"], str) or not raw["title"].strip():
        raise ImportRefused(f"`title` must be the title's name as text, not {_kind(raw['title'])}")
    _check_players(raw["players"])
    _check_settings(raw.get("settings"))
    _check_actions(raw["actions"])
    return raw


def _no_constant(name: str) -> Any:
    raise ImportRefused(f"the file contains {name}, which is not a JSON number")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a true/false value"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _check_values(value: Any) -> None:
    """Nesting depth and text the database can store (no lone surrogates), without recursion."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ImportRefused(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels)")
        if isinstance(item, str):
            _check_text(item)
        elif isinstance(item, dict):
            for key, child in item.items():
                _check_text(key)
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = text.encode("utf-8", "backslashreplace").decode("utf-8")[:40]
        raise ImportRefused(f"the file contains an invalid character (a lone surrogate) in {shown!r}") from None


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_players(players: Any) -> None:
    if not isinstance(players, list):
        raise ImportRefused(f"`players` must be a list of players, not {_kind(players)}")
    if not players:
        raise ImportRefused("`players` is empty")
    ids: set[int] = set()
    names: set[str] = set()
    for n, player in enumerate(players, start=1):
        if not isinstance(player, dict):
            raise ImportRefused(f"player {n} must be an object with an id and a name, not {_kind(player)}")
        pid = player.get("id")
        if not _is_int(pid) or not _INT64_MIN <= pid <= _INT64_MAX:
            raise ImportRefused(f"player {n} needs a whole-number id, not {_kind(pid)}")
        if pid in ids:
            raise ImportRefused(f"player id {pid} appears twice")
        ids.add(pid)
        name = player.get("name", str(pid))
        if not isinstance(name, str) or not name.strip():
            raise ImportRefused(f"player {n} needs a name as text, not {_kind(name)}")
        if len(name) > MAX_NAME:
            raise ImportRefused(f"player {n}'s name is longer than {MAX_NAME} characters")
        if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in name):
            raise ImportRefused(f"player {n}'s name contains a line break or another control character")
        # Invisible format characters (right-to-left marks and overrides, zero-width spaces and joiners) could
        # reorder or hide the text of every reply that names the player: they are dropped, the name kept.
        name = "".join(ch for ch in name if unicodedata.category(ch) != "Cf").strip() or f"player {pid}"
        if "name" in player:
            player["name"] = name
        if name.lower() in names:
            raise ImportRefused(f"two players are called {name}")
        names.add(name.lower())


def _check_settings(settings: Any) -> None:
    if settings is None:
        return
    if not isinstance(settings, dict):
        raise ImportRefused(f"`settings` must be an object, not {_kind(settings)}")
    seed = settings.get("seed")
    if seed is not None and seed != "":
        if isinstance(seed, float) and math.isfinite(seed):
            raise ImportRefused(f"the seed must be a whole number, not {seed}")
        if isinstance(seed, str) and seed.strip().lstrip("-").isdigit():
            seed = int(seed)
        if not _is_int(seed):
            raise ImportRefused(f"the seed must be a whole number, not {_kind(seed)}")
        if not _INT64_MIN <= seed <= _INT64_MAX:
            raise ImportRefused("the seed is too large (it must fit in 64 bits)")
    rules = settings.get("optional_rules")
    if rules is not None and (not isinstance(rules, list) or not all(isinstance(r, str) for r in rules)):
        raise ImportRefused("`settings.optional_rules` must be a list of rule names")


def _check_actions(actions: Any) -> None:
    if not isinstance(actions, list):
        raise ImportRefused(f"`actions` must be a list of actions, not {_kind(actions)}")
    if len(actions) > MAX_IMPORT_ACTIONS:
        raise ImportRefused(f"the game has {len(actions)} actions; at most {MAX_IMPORT_ACTIONS} can be imported")
    seen: set[int] = set()
    previous = 0
    for n, action in enumerate(actions, start=1):
        if not isinstance(action, dict):
            raise ImportRefused(f"action {n} must be an object, not {_kind(action)}")
        if not isinstance(action.get("type"), str) or not action["type"]:
            raise ImportRefused(f"action {n} has no type")
        aid = action.get("id")
        if not _is_int(aid) or not 0 < aid <= _INT64_MAX:
            raise ImportRefused(f"action {n} needs a positive whole-number id, not {_kind(aid)}")
        if aid in seen:
            raise ImportRefused(f"action id {aid} appears twice")
        if aid < previous:
            # 18xx.games numbers a game's actions in the order they were made: a file that runs backwards was
            # edited, and its undo and redo (which name action ids) would point at the wrong actions.
            raise ImportRefused(f"the action ids run backwards: action {n} has id {aid}, after id {previous}")
        seen.add(aid)
        previous = aid
        entity = action.get("entity", "")
        if isinstance(entity, bool) or not isinstance(entity, str | int):
            raise ImportRefused(f"action {aid} names its entity with {_kind(action.get('entity'))}")
