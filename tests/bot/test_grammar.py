"""The move verbs are declared once (bot.core.grammar): help, parser, word limits and the Discord schema read
the same declarations."""

from __future__ import annotations

from bot.core import intents
from bot.core.commands import help_text, verb_named
from bot.core.grammar import MOVES, type_words
from bot.discord.subcommands import SPECIAL_GROUP, build


def test_every_declared_move_is_read_helped_and_offered_on_discord() -> None:
    subs = build(["1882"], []).subcommands
    for move in MOVES:
        assert intents.VERB_TYPES[move.verb] == move.types
        assert intents.MAX_WORDS.get(move.verb) == move.max_words
        if not move.own_verb:
            assert verb_named(move.verb) is None  # said only after a private's symbol
            continue
        if move.is_phrase:  # helped under its first word, which Discord offers with the phrase's word as option
            assert f"`{move.usage}`" in help_text(move.head)
            assert move.head in subs
            continue
        assert help_text(move.verb).startswith(f"{move.usage}: {move.summary}")
        path = f"{move.group} {move.verb}" if move.group else move.verb
        sub = subs[path]
        assert [o.name for o in sub.options] == [a.name for a in move.args] or (not move.args and sub.options)
        assert sub.group == (SPECIAL_GROUP if move.group else None)


def test_every_action_type_a_move_produces_has_words_for_refusals() -> None:
    words = type_words()
    assert words["dividend"] == "pay/withhold"
    assert words["choose"] == "choose"
    assert {k for m in MOVES for k in m.types} == set(words)


def test_titles_declare_their_own_moves_in_one_place() -> None:
    """A title's own move is one declaration in its module of bot.titles, read, written, helped and offered on
    Discord from there; no other table names it."""
    from bot.core.grammar import MOVE_BY_VERB, WRITERS, phrase
    from bot.titles import g1822, g1828, g1862, g1882

    own = {m.verb: m for mod in (g1822, g1828, g1862, g1882) for m in mod.MOVES}
    assert set(own) == {"repay", "swap", "redeem", "close", "remove", "buy coal"}
    # 1828's `buy coal` is read by its own declaration there, the core `buy` of a company named "coal" elsewhere
    assert phrase("1828", "buy", ("coal",)) == ("buy coal", ())
    assert phrase("1882", "buy", ("coal",)) == ("buy", ("coal",))
    assert "special_buy" not in MOVE_BY_VERB["buy"].types
    for move in own.values():
        assert move in MOVES and move.titles and move.read is not None and move.write is not None
        for kind in move.written:
            assert move in WRITERS[kind]
    assert help_text("repay").startswith("repay [AMOUNT]: repay your loan")
    assert "special repay" in build(["1822"], []).subcommands
    for move in MOVES:  # every move reads and writes itself
        assert move.read is not None and move.write is not None, move.verb
