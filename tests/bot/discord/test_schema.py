"""The /18xx application-command definitions: golden file, Discord's limits, and one subcommand per verb.

After a deliberate change, refresh the golden file with ``python -m bot.discord schema >
tests/bot/discord/golden/schema.json`` and review the diff.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.core.commands import VERBS
from bot.discord.subcommands import build
from bot.discord.tree import privates, schema, schema_json, titles
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
    assert {v.name for v in VERBS} <= verbs
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
    assert "1882" in {c["value"] for c in next(o for o in _options("game new") if o["name"] == "title")["choices"]}


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
