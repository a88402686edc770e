"""The command parser: verbs, aliases, case, near misses, help."""

from __future__ import annotations

import pytest

from bot.core.commands import VERBS, CommandError, help_text, parse, strip_prefix, suggest


def test_parse_splits_verb_and_arguments() -> None:
    cmd = parse("lay E9 57 2")
    assert (cmd.verb, cmd.args) == ("lay", ("E9", "57", "2"))


def test_verbs_are_case_insensitive_and_aliases_resolve() -> None:
    assert parse("BUY cpr").verb == "buy"
    assert parse("Done").verb == "pass"
    assert parse("payout").verb == "pay"
    assert parse("mygames").verb == "games"


def test_empty_line_means_help() -> None:
    assert parse("   ").verb == "help"


def test_unknown_verb_is_kept_lower_case() -> None:
    cmd = parse("NWR token C3")
    assert cmd.verb == "nwr" and not cmd.known


def test_commas_separate_like_spaces() -> None:
    assert parse("lay E9,57,2").args == ("E9", "57", "2")


@pytest.mark.parametrize(
    ("word", "options", "expected"),
    [("CRP", ["CPR", "CNR", "GT", "QLL"], "CPR"), ("qll", ["CPR", "QLL"], "QLL"), ("XYZ", ["CPR"], None)],
)
def test_suggest_nearest_name(word: str, options: list[str], expected: str | None) -> None:
    assert suggest(word, options) == expected


def test_prefix_is_stripped_only_for_the_bot() -> None:
    assert strip_prefix("/18xx buy CPR") == "buy CPR"
    assert strip_prefix("  /18XX   status ") == "status"
    assert strip_prefix("/18xx") == ""
    assert strip_prefix("hello there") is None
    assert strip_prefix("/18xxx buy") is None


def test_help_lists_every_verb() -> None:
    text = help_text()
    for verb in VERBS:
        assert verb.usage in text


def test_help_for_one_verb_and_near_miss() -> None:
    assert "lay E9 57 2" in help_text("lay")
    assert "rotation" in help_text("TILE")  # an alias, any case
    with pytest.raises(CommandError, match="Did you mean `lay`"):
        help_text("lya")


def test_run_mode_follows_the_configured_tokens() -> None:
    from bot.__main__ import choose_mode

    assert choose_mode([], {}) == ("console", [])
    assert choose_mode(["--db", "x.db"], {"DISCORD_TOKEN": "t"}) == ("discord", ["--db", "x.db"])
    assert choose_mode([], {"SLACK_BOT_TOKEN": "t"}) == ("slack", [])
    assert choose_mode(["console", "--no-images"], {"DISCORD_TOKEN": "t"}) == ("console", ["--no-images"])
