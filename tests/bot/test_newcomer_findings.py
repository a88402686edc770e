"""The newcomer play-test's findings on the command language (../shared/reference/reviews/newcomer-all-titles.md),
each as the player met it."""

from __future__ import annotations

from bot.core.commands import help_text
from tests.bot.conftest import Table


async def test_unknown_optional_rules_are_refused_with_the_titles_rules(table: Table) -> None:
    """F2: `new 1822 plus` and `new 1822 foo` created a plain 1822 game in silence."""
    for word in ("plus", "foo"):
        reply = await table.say("alice", f"new 1822 {word}")
        assert not reply.ok
        assert f"1822 has no optional rule {word}" in reply.text
        assert "plus_expansion, plus_expansion_no_removals, plus_expansion_single_stack, tax_haven_multiple" \
            in reply.text
    assert "did you mean plus_expansion" in (await table.say("alice", "new 1822 plus")).text
    reply = await table.say("alice", "new 1882 plus_expansion")
    assert not reply.ok and "1882 has no optional rules" in reply.text


async def test_1822_plus_is_named_and_started_as_1822_plus(table: Table) -> None:
    """F2: `new 1822+` made a plain 1822; start and status said "1822" for a real 1822+ game."""
    reply = await table.say("alice", "new 1822+ seed=5")
    assert reply.ok, reply.text
    assert "alice created 1822+ game" in reply.text
    for user in ("bob", "carol"):
        assert (await table.say(user, "join")).ok
    reply = await table.say("alice", "start")
    assert reply.ok and "(1822+) starts" in reply.text
    status = await table.say("alice", "status")
    assert status.ok
    assert "1822+" in status.text.splitlines()[0]


async def test_plus_expansion_by_its_name_makes_1822_plus(table: Table) -> None:
    reply = await table.say("alice", "new 1822 PLUS_EXPANSION")
    assert reply.ok and "created 1822+ game" in reply.text and "Optional rules: plus_expansion." in reply.text


def test_help_1822_says_how_to_start_1822_plus() -> None:
    """F2: the option's name appeared neither in `help` nor in the README."""
    text = help_text("1822")
    assert "`new 1822 plus_expansion`" in text and "`new 1822+`" in text
    assert "plus_expansion_single_stack" in text
    assert "1882 has no optional rules" in help_text("1882")
    assert "new 1822 plus_expansion" in help_text("new")
