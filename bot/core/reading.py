"""What reading a move needs, whatever its verb: who decides, names and numbers, the engine's reasons.

The moves' readers and writers (:mod:`bot.core.verbs`, :mod:`bot.titles`) share these; none of them decides
legality on its own: every action a reader returns is one of the engine's own legal choices
(``engine.core.query``), at most with a price or a count filled in.
"""

from __future__ import annotations

import pickle
import re
from typing import Any

from bot.core.move_spec import Action, Candidates, Intent, Reader
from bot.core.refusals import did_you_mean, illegal, malformed
from engine.core import query
from engine.core.entities import Company, Corporation, Player
from engine.core.errors import GameError
from engine.core.game import Game
from engine.core.steps.auction import WaterfallAuction


def type_word(kind: str) -> str:
    """How to say an engine action type as a command (``dividend``: ``pay/withhold``)."""
    from bot.core.grammar import TYPE_WORDS  # the declarations are gathered after the readers they hold

    return TYPE_WORDS.get(kind, kind)


def company_prefix(action: Action) -> str:
    """A private's power is said after the private's symbol: ``nwr token C3``."""
    return f"{str(action['entity']).lower()} " if action.get("entity_type") == "company" else ""


def deciding_player(game: Game, entity: Any) -> Player | None:
    """The player who decides for an entity, as the engine says: itself, a corporation's president, a private's
    owner, the player in turn for a company with no president yet."""
    player = game.acting_player(entity)
    return player if isinstance(player, Player) else None


def entities_of(game: Game, player: Player) -> list[Any]:
    """The entities ``player`` decides for that have something to do now (acting ones first)."""
    out: list[Any] = []
    acting = game.acting()
    players = [e for e in acting if isinstance(e, Player)]
    for ent in query.deciding_entities(game):
        decider = deciding_player(game, ent)
        if isinstance(ent, Corporation) and ent not in acting and players:
            # A company acting for the acting player (1828: the company that starts a merger names the other),
            # whoever presides over it.
            decider = players[0]
        if ent not in out and decider is player and game.actions_for(ent):
            out.append(ent)
    return out


def waiting_for(game: Game) -> str:
    labels = [a.label for a in query.actors(game)]
    return ", ".join(labels) if labels else "nobody"


def verb_words(types: list[str]) -> str:
    seen: list[str] = []
    for t in types:
        for word in type_word(t).split("/"):
            if word not in seen:
                seen.append(word)
    return ", ".join(f"`{w}`" for w in seen)


#: The most words a move verb takes after it (verbs not named take any number).


def match_corporation(game: Game, word: str, *, among: list[str] | None = None) -> Corporation:
    for sym, corp in game.corporations.items():
        if sym.lower() == word.lower():
            return corp
    raise malformed(f"no company {word}{did_you_mean(word, among or list(game.corporations))}")


def match_private(game: Game, word: str) -> Company:
    for sym, comp in game.companies.items():
        if sym.lower() == word.lower():
            return comp
    raise malformed(f"no private company {word}{did_you_mean(word, list(game.companies))}")


def match_hex(game: Game, word: str) -> str:
    for hex_id in game.board.hexes:
        if hex_id.lower() == word.lower():
            return str(hex_id)
    near = neighbour_hexes(game, word)
    hint = f", did you mean {' or '.join(near)}?" if near else did_you_mean(word, list(game.board.hexes))
    raise malformed(f"no hex {word} on the map{hint}")


_HEX_NAME = re.compile(r"^([A-Za-z]+)(\d+)$")


def neighbour_hexes(game: Game, word: str) -> list[str]:
    """Hexes of the map next to a name that is not on it (G12 on a grid of F12 and H12), nearest first."""
    match = _HEX_NAME.match(word.strip())
    if match is None:
        return []
    letters, number = match[1].upper(), int(match[2])
    out: list[tuple[int, str]] = []
    for hex_id in game.board.hexes:
        other = _HEX_NAME.match(str(hex_id))
        if other is None or len(other[1]) != len(letters):
            continue
        rows = abs(ord(other[1][-1]) - ord(letters[-1])) if other[1][:-1] == letters[:-1] else 99
        cols = abs(int(other[2]) - number)
        if rows <= 1 and cols <= 1 and (rows or cols):
            out.append((rows + cols, str(hex_id)))
    return [h for _, h in sorted(out)][:4]


#: No price, count, page or request number comes near this; SQLite stores nothing larger (signed 64-bit).
LARGEST_NUMBER = 2**63 - 1


def to_int(word: str, what: str) -> int:
    text = word.strip().lstrip("$")
    try:
        number = int(text)
    except ValueError:
        raise malformed(f"{what} must be a number, not {word!r}") from None
    if abs(number) > LARGEST_NUMBER:
        raise malformed(f"{what} {word} is far too large a number")
    return number


def need(args: tuple[str, ...], n: int, usage: str) -> None:
    if len(args) < n:
        raise malformed(f"not enough to go on: `{usage}`")


def share_corp(share_id: str) -> str:
    return share_id.rsplit("_", 1)[0]


def tile_name(tile_id: str) -> str:
    return tile_id.rsplit("-", 1)[0]


def city_hex(game: Game, city: str) -> tuple[str, int]:
    hx, node = game.track.city_by_id(city)
    return str(hx.id), int(node)


def city_nodes(game: Game, hex_id: str) -> list[int]:
    return sorted(int(n) for n in game.board.hexes[hex_id].tile.tokens)


def train_name(game: Game, train_id: str) -> str:
    return str(game.all_trains[train_id].name)


def listing(items: list[str], limit: int = 12) -> str:
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f" and {len(items) - limit} more"


def first(candidates: Candidates, kind: str) -> Any | None:
    return next((ent for ent, t in candidates if t == kind), None)


def engine_reason(game: Game, action: Action, said: str = "") -> str:
    """Why the engine refuses ``action`` now, in its own words (tried on a copy of the game), as a clause
    ``" (...)"``; "" when it would take it, or says nothing more than ``said``."""
    try:
        copy = pickle.loads(pickle.dumps(game))
        copy.process(action)
    except GameError as exc:
        return f" ({exc.message})" if exc.message and exc.message.lower() not in said.lower() else ""
    except Exception:  # a made-up action may fail anywhere; the refusal stands without a reason
        return ""
    return ""


def simple(kind: str, pick: dict[str, Any] | None = None) -> Reader:
    """The reader of a move with one legal choice to find (``pass``), or the one matching ``pick``."""

    def handler(
        game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]
    ) -> Intent:
        ent = candidates[0][0]
        options = query.choices(game, ent, kind)
        if pick:
            options = [c for c in options if all(c.get(k) == v for k, v in pick.items())]
        if not options:
            why = engine_reason(game, {**query.entity_action(game, ent, kind), **(pick or {})},
                                f"{game.describe(ent)} cannot {type_word(kind)} now")
            raise illegal(f"{game.describe(ent)} cannot {type_word(kind)} now{why}")
        return Intent(options[0], ent, player)

    return handler


def buyable_outright(game: Game, entity: Any, comp: Company) -> bool:
    """Whether the auction sells ``comp`` now at its price rather than taking bids on it (1882's cheapest
    private, 1828's last of a tier)."""
    step = query.step_for(game, entity, "bid")
    return isinstance(step, WaterfallAuction) and step.may_purchase(comp)


def sale_amount(word: str) -> str:
    """A sale's size as typed: a number of shares (``2``) or, for a part of a share, a percentage (``15%``)."""
    if word.endswith("%"):
        return f"{to_int(word[:-1], 'the percentage')}%"
    return str(to_int(word, "the number of shares"))


def shares_sold(action: dict[str, Any]) -> str:
    """How many ordinary shares' worth a sale is (the president's certificate counts double when sold whole);
    a sale that is no whole number of 10% shares (1862's halved certificates) is said in percent."""
    percent = int(action.get("percent") or 10 * len(action["shares"]))
    return str(percent // 10) if percent % 10 == 0 else f"{percent}%"


def bought_name(game: Game, action: Action) -> str:
    """The name of the train a purchase buys: its variant's when it names one (1822's 7 train bought as an E)."""
    return str(action.get("variant") or train_name(game, action["train"]))


CONFIRM_WORDS = ("confirm", "yes", "sure")


def choice_word(action: Action) -> str:
    """A ``choose`` option as one typed word (player names may hold spaces)."""
    return str(action["choice"]).replace(" ", "_")


def with_label(game: Game, entity: Any, action: Action, text: str) -> str:
    """``text`` (an option's word or command) followed by what the option means, when the step says it:
    ``one_share (alice gets one LNWR share and £10 from LNWR)``."""
    label = query.choice_label(game, entity, action) if action.get("type") in ("choose", "choose_ability") else None
    return f"{text} ({label})" if label else text


def choice_question(game: Game, entity: Any, kind: str = "choose") -> str:
    """What a ``choose`` decides, from the step that asks it (``Merger - Trade up or sell share``)."""
    step = query.step_for(game, entity, kind)
    text = str(step.description()) if step is not None else ""
    return text if text and text != "step" else "a decision"


def merge_start(game: Game, action: Action) -> bool:
    """A player's stock-round ``choose`` that names a company: the company starting a merger (1828, said
    ``merge PRR``)."""
    if action.get("type") != "choose" or action.get("entity_type") != "player":
        return False
    if str(action.get("choice")) not in game.corporations:
        return False
    step = query.step_for(game, game.resolve_entity(action), "choose")
    return step is not None and getattr(step, "name", "") != "Merger"


def allowed(game: Game, candidates: Candidates) -> list[str]:
    return [t for ent in dict.fromkeys(e for e, _ in candidates) for t in game.actions_for(ent)]
