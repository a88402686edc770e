"""Decisions the game asks for (``choose``) and mergers (1828's systems, 1822's acquisitions of minors)."""

from __future__ import annotations

from bot.core.move_spec import SPECIAL, Action, Arg, Candidates, Intent, MoveSpec
from bot.core.reading import (
    allowed,
    choice_question,
    choice_word,
    deciding_player,
    engine_reason,
    first,
    listing,
    match_corporation,
    merge_start,
    verb_words,
    with_label,
)
from bot.core.refusals import did_you_mean, illegal, malformed
from engine.core import query
from engine.core.entities import Player
from engine.core.game import Game


def _choose(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    options = [
        (ent, c)
        for ent, kind in candidates
        for c in query.choices(game, ent, kind)
        if kind in ("choose", "choose_ability") and c["type"] == kind and not merge_start(game, c)
    ]
    if not options:
        if any(merge_start(game, c) for ent, kind in candidates for c in query.choices(game, ent, kind)):
            raise illegal("there is nothing to choose now; to start a merger: `merge CORP` (`moves` lists them)")
        raise illegal(f"there is nothing to choose now; you can: {verb_words(allowed(game, candidates))}")
    ent = options[0][0]
    shown = list(dict.fromkeys(with_label(game, e, c, choice_word(c)) for e, c in options))
    question = choice_question(game, ent, options[0][1]["type"])
    if not args:
        raise malformed(f"{question}: say `choose OPTION`, one of: {', '.join(shown)}")
    want = "_".join(args).lower()
    hit = next(((e, c) for e, c in options if choice_word(c).lower() == want), None)
    if hit is None:
        raise illegal(f"{' '.join(args)} is not a choice here ({question}); choose one of: {', '.join(shown)}")
    return Intent(hit[1], hit[0], player)


def _merge(game: Game, player: Player, candidates: Candidates, args: tuple[str, ...]) -> Intent:
    """``merge CORP``: 1828 names the company starting a merger (a ``choose``), then the company it merges with;
    1822 names the minor a major acquires. Merging with another player's company needs that player's consent."""
    failed = [(ent, c) for ent, kind in candidates if kind in ("failed_merge", "choose")
              for c in query.choices(game, ent, kind) if c["type"] in ("undo", "failed_merge")]
    if failed:
        # 1828: a merger that cannot stand (no three shares for the system) is taken back, then recorded as failed.
        return Intent(failed[0][1], failed[0][0], player)
    merges = [(ent, c) for ent, kind in candidates if kind == "merge" for c in query.choices(game, ent, "merge")]
    starts = [
        (ent, c) for ent, kind in candidates if kind == "choose"
        for c in query.choices(game, ent, "choose") if merge_start(game, c)
    ]
    if not merges and not starts:
        others = [k for k in allowed(game, candidates) if k != "merge"]
        acquirer = first(candidates, "merge")
        if acquirer is not None and args and any(sym.lower() == args[0].lower() for sym in game.corporations):
            # 1822: a major may acquire, but no minor is in reach; the engine says why not this one.
            target = match_corporation(game, args[0])
            why = engine_reason(game, {**query.entity_action(game, acquirer, "merge"), "corporation": target.sym})
            raise illegal(f"{acquirer.sym} cannot merge with {target.sym}{why}; no minor is in reach now; you can: "
                          f"{verb_words(others)}")
        raise illegal(f"there is no merger to make now; you can: {verb_words(others or allowed(game, candidates))}")
    names = [c["corporation"] for _, c in merges] or [c["choice"] for _, c in starts]
    if not args:
        raise malformed(f"say which company: `merge CORP`, one of: {listing(names)}")
    if not any(sym.lower() == args[0].lower() for sym in game.corporations):
        raise malformed(f"no company {args[0]}{did_you_mean(args[0], names)}; `merge CORP` with one of: "
                        f"{listing(names)}")
    corp = match_corporation(game, args[0], among=names)
    if starts:
        hit = next(((e, c) for e, c in starts if c["choice"] == corp.sym), None)
        if hit is None:
            ent = starts[0][0]
            why = engine_reason(game, {**query.entity_action(game, ent, "choose"), "choice": corp.sym})
            raise illegal(f"{corp.sym} cannot start a merger now{why}; companies that can: {listing(names)}")
        return Intent(hit[1], hit[0], player)
    hit = next(((e, c) for e, c in merges if c["corporation"] == corp.sym), None)
    if hit is None:
        who = game.describe(merges[0][0])
        why = engine_reason(game, {**query.entity_action(game, merges[0][0], "merge"), "corporation": corp.sym},
                            f"{who} cannot merge with {corp.sym}")
        raise illegal(f"{who} cannot merge with {corp.sym}{why}; it can merge with: {listing(names)}")
    ent = hit[0]
    owners = [o for o in (deciding_player(game, corp), deciding_player(game, ent)) if isinstance(o, Player)]
    other = next((o for o in owners if o is not player), None)
    deal = f"{ent.sym} merges with {corp.sym}"
    return Intent(hit[1], ent, player, other, deal)


def _write_merge(game: Game, action: Action) -> str | None:
    kind = action["type"]
    if kind == "choose":
        return f"merge {action['choice']}" if merge_start(game, action) else None
    if kind == "undo":  # the only undo the engine offers as a move: 1828's failed merger, taken back
        return "merge undo"
    if kind == "failed_merge":
        return "merge failed"
    return f"merge {action['corporation']}"


def _write_choose(game: Game, action: Action) -> str:
    return f"choose {choice_word(action)}"


#: When a merger may be started, by title (said when none is open to the player).
MERGER_RULES = {
    "1828": ("two public companies may merge in a stock round when one is yours, both have operated or neither "
             "has, one has floated, and one player holds six of their shares together (five if neither was sold "
             "this round); no pair of yours qualifies now"),
    "1822": ("a major acquires a minor in its own operating turn, once both have operated twice and the minor's "
             "station is on the major's network"),
}


def _why_no_merger(game: Game, player: Player) -> str:
    rule = MERGER_RULES.get(str(game.TITLE))
    return f": {rule}" if rule else ""


MOVES: tuple[MoveSpec, ...] = (
    MoveSpec(
        'merge',
        types=('merge', 'choose', 'failed_merge'),
        usage='merge CORP',
        summary='merge two companies (1828: into a system) or take over a minor (1822)',
        details=(
            '1828, in a stock round: `merge PRR` starts a merger with your company PRR, then `merge MP` '
            'names the company it merges with; if another player presides over that one, they must '
            "approve. Every holder then chooses in turn (`choose`). 1822, in a major's turn: `merge 6` "
            'acquires minor 6 (its owner approves when it is another player), then `choose` how it is '
            'paid and what becomes of its station.'
        ),
        examples=('merge PRR', 'merge MP', 'merge 6'),
        max_words=1,
        group=SPECIAL,
        args=(
            Arg(
                'corporation',
                'company',
                'the company to merge with, or the minor to acquire',
                required=True,
                completed=True,
            ),
        ),
        read=_merge,
        write=_write_merge,
        writes=('merge', 'choose', 'undo', 'failed_merge'),
        titles=('1828', '1822'),
        why_not=_why_no_merger,
    ),
    MoveSpec(
        'choose',
        types=('choose', 'choose_ability'),
        usage='choose OPTION',
        summary='make the decision the game asks of you; `moves` lists the options',
        details=(
            '1828 mergers: which odd share to keep (`choose PRR`), trade up or sell a single share '
            '(`choose exchange` / `choose sell`), whose share to trade with. 1822: how an acquired minor '
            'is paid (`choose money`, `choose one_share`, `choose two_shares`) and its station (`choose '
            "replace` / `choose exchange`), a private's choice (`p8 choose token`)."
        ),
        examples=('choose exchange', 'choose sell', 'choose two_shares'),
        args=(
            Arg('option', 'choice', 'what you decide; the options are offered', required=True, completed=True),
        ),
        read=_choose,
        write=_write_choose,
    ),
)
