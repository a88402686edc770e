"""The /18xx application-command definitions: golden file, Discord's limits, and one subcommand per verb.

After a deliberate change, refresh the golden file with ``python -m bot.discord schema >
tests/bot/discord/golden/schema.json`` and review the diff.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.core.commands import VERBS
from bot.discord.subcommands import build
from bot.discord.tree import Unwired, build_group, privates, schema, schema_json, titles
from tests.bot.console_helpers import ROOT, child_env

GOLDEN = Path(__file__).parent / "golden" / "schema.json"
NAME = re.compile(r"^[-_\w]{1,32}$")
SUBCOMMAND, GROUP = 1, 2


def walk(node: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    here = f"{path} {node['name']}".strip()
    out = [(here, node)]
    for child in node.get("options") or []:
        out.extend(walk(child, here))
    return out


def characters(node: dict[str, Any]) -> int:
    """Discord counts names, descriptions and choice names/values of a command and everything in it."""
    total = len(node["name"]) + len(node.get("description", ""))
    for choice in node.get("choices") or []:
        total += len(choice["name"]) + len(str(choice["value"]))
    return total + sum(characters(o) for o in node.get("options") or [])


def test_schema_matches_the_golden_file() -> None:
    assert schema_json() == GOLDEN.read_text("utf-8")


def test_the_command_line_prints_the_schema_without_a_token() -> None:
    env = child_env()
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "discord", "schema"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(GOLDEN.read_text("utf-8"))


def test_schema_within_discord_limits() -> None:
    [root] = schema()
    assert root["name"] == "18xx" and root["dm_permission"] is False
    assert characters(root) <= 8000
    for path, node in walk(root):
        assert NAME.match(node["name"]) and node["name"] == node["name"].lower(), path
        assert 1 <= len(node.get("description", "")) <= 100, path
        children = node.get("options") or []
        assert len(children) <= 25, path
        assert len(node.get("choices") or []) <= 25, path
        if node.get("type") in (SUBCOMMAND, GROUP) or node is root:
            names = [c["name"] for c in children]
            assert len(names) == len(set(names)), path
        if node.get("autocomplete"):
            assert not node.get("choices"), f"{path}: autocomplete and choices exclude each other"


def test_every_verb_of_the_service_has_a_subcommand() -> None:
    commands = build(titles(), privates())
    verbs = {sub.verb for sub in commands.subcommands.values()}
    assert {v.name for v in VERBS if " " not in v.name} <= verbs
    assert {v.name.split()[0] for v in VERBS if " " in v.name} <= verbs  # a phrase goes by its first word
    # and the notification preferences the service understands
    assert {"notify", "remind", "quiet", "away", "prefs"} <= verbs
    paths = {s.path for s in commands.subcommands.values()}
    assert {
        "lay",
        "bid",
        "undo",
        "approve",
        "ability",
        "game new",
        "game import",
        "info status",
        "prefs notify",
    } <= paths
    title = next(o for o in _options("game new") if o["name"] == "title")
    assert title["autocomplete"] and "choices" not in title  # autocompleted: titles keep coming


def _options(path: str) -> list[dict[str, Any]]:
    [root] = schema()
    return next(node for p, node in walk(root) if p == f"18xx {path}")["options"]


def test_autocomplete_and_choices_where_the_issue_wants_them() -> None:
    lay = {o["name"]: o for o in _options("lay")}
    assert all(lay[n]["autocomplete"] for n in ("hex", "tile", "rotation"))
    assert [o["name"] for o in _options("lay")] == ["hex", "tile", "rotation"]  # required first, in command order
    assert lay["hex"]["required"] and not lay["rotation"].get("required", False)
    notify = {o["name"]: o for o in _options("prefs notify")}
    assert [c["value"] for c in notify["mode"]["choices"]] == ["channel", "dm", "both", "off", "test"]
    buy = {o["name"]: o for o in _options("buy")}
    assert [c["value"] for c in buy["source"]["choices"]] == ["ipo", "pool"]
    [file] = _options("game import")
    assert file["type"] == 11 and file["required"]  # an attachment


def test_nothing_is_cut_when_titles_and_privates_grow_past_25() -> None:
    """1822 alone brings 20-odd privates: every title and company must stay reachable."""
    many_titles = [f"18{n:02d}" for n in range(40)]
    many_privates = [f"P{n}" for n in range(60)]
    commands = build(many_titles, many_privates)
    group = build_group(commands, Unwired())
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(group)
    [root] = [c.to_dict(tree) for c in tree.get_commands()]
    for path, node in walk(root):
        values = {str(c["value"]) for c in node.get("choices") or []}
        assert not values & set(many_titles + many_privates), f"{path} lists titles or privates as choices"
    ability = {o["name"]: o for o in next(n for p, n in walk(root) if p == "18xx ability")["options"]}
    new = {o["name"]: o for o in next(n for p, n in walk(root) if p == "18xx game new")["options"]}
    assert ability["private"]["autocomplete"] and new["title"]["autocomplete"]


def test_an_option_with_more_static_choices_than_discord_allows_fails_loudly() -> None:
    commands = build(titles(), privates())
    sub = commands.subcommands["buy"]
    wide = dataclasses.replace(
        sub,
        options=tuple(
            dataclasses.replace(o, choices=tuple(f"c{n}" for n in range(26))) if o.name == "source" else o
            for o in sub.options
        ),
    )
    commands.subcommands["buy"] = wide
    with pytest.raises(ValueError, match="26 choices"):
        build_group(commands, Unwired())


def test_title_moves_sit_in_the_special_group_and_autocomplete() -> None:
    """merge, choose and swap (1828, 1822) keep /18xx within 25 entries; their words come from the game."""
    [root] = schema()
    assert len(root["options"]) <= 25
    for path, option in (("special merge", "corporation"), ("special swap", "train"), ("choose", "option")):
        found = {o["name"]: o for o in _options(path)}
        assert found[option]["autocomplete"] and found[option]["required"], path
    assert {o["name"] for o in _options("special")} >= {"merge", "swap", "redeem", "close"}


def test_the_common_moves_are_one_level_deep_and_the_rest_grouped_within_limits() -> None:
    """Issue 27: the schema is generated from the moves' declarations; the moves every title has sit directly
    under /18xx (one level deep), the titles' own moves in a group, and /18xx keeps within Discord's 25 entries."""
    from bot.core.grammar import MOVES

    [root] = schema()
    top = {o["name"]: o for o in root["options"]}
    assert len(top) <= 25
    common = [m.verb for m in MOVES if m.own_verb and m.group is None and not m.is_phrase]
    assert {"bid", "buy", "sell", "par", "pass", "lay", "token", "run", "pay", "withhold", "train", "choose"} \
        <= set(common)
    for verb in common:
        assert top[verb]["type"] == SUBCOMMAND, verb
    grouped = {o["name"] for o in top["special"]["options"]}
    assert {m.verb for m in MOVES if m.own_verb and m.group == "special"} == grouped
    assert all(m.titles for m in MOVES if m.group == "special")  # only some titles have them
