"""The ``/18xx`` application-command group, built from :mod:`bot.discord.subcommands`.

discord.py reads a command's options from its callback's signature, so each subcommand gets a generated
callback whose ``__signature__`` lists its options with their Discord types; every callback hands the
interaction and the option values to one :class:`Handler` (the adapter). Building the tree needs no
connection, which is how ``python -m bot.discord schema`` prints the definitions without logging in.
"""

from __future__ import annotations

import inspect
import json
from typing import Any, Optional, Protocol

import discord
from discord import app_commands

from bot.discord.subcommands import GROUP_DESCRIPTIONS, CommandSet, Option, Subcommand, build

ROOT_NAME = "18xx"
ROOT_DESCRIPTION = "play 18xx games: moves, status, undo, pings"

AnyChoice = app_commands.Choice[str] | app_commands.Choice[int]


class Handler(Protocol):
    """What the generated callbacks call: the adapter, or a stand-in when only the schema is wanted."""

    async def run(self, interaction: discord.Interaction, sub: Subcommand, values: dict[str, Any]) -> None: ...

    async def complete(
        self, interaction: discord.Interaction, sub: Subcommand, option: Option, current: str
    ) -> list[AnyChoice]: ...


class Unwired:
    """A handler for building the tree only (schema output): invoking a command is a programming error."""

    async def run(self, interaction: discord.Interaction, sub: Subcommand, values: dict[str, Any]) -> None:
        raise RuntimeError("this command tree is not connected to a game service")

    async def complete(
        self, interaction: discord.Interaction, sub: Subcommand, option: Option, current: str
    ) -> list[AnyChoice]:
        return []


def _annotation(option: Option) -> Any:
    kind: Any
    if option.kind == "file":
        kind = discord.Attachment
    elif option.kind is int and (option.min_value is not None or option.max_value is not None):
        kind = app_commands.Range[int, option.min_value, option.max_value]
    else:
        kind = option.kind
    return kind if option.required else Optional[kind]  # noqa: UP045 - discord.py reads typing.Optional


def _callback(sub: Subcommand, handler: Handler) -> Any:
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await handler.run(interaction, sub, values)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    for option in sub.options:
        params.append(
            inspect.Parameter(
                option.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if option.required else None,
                annotation=_annotation(option),
            )
        )
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"slash_{sub.name}"
    # discord.py's decorators record descriptions, choices and autocomplete on the function.
    if sub.options:
        app_commands.describe(**{o.name: o.description for o in sub.options})(callback)
    for option in sub.options:
        if len(option.choices) > MAX_STATIC_CHOICES:  # never cut: a value left out could not be chosen
            raise ValueError(f"/{sub.path} {option.name} has {len(option.choices)} choices; use suggest=True")
    choices = {o.name: [app_commands.Choice(name=c, value=c) for c in o.choices] for o in sub.options if o.choices}
    if choices:
        app_commands.choices(**choices)(callback)
    completers = {o.name: _completer(sub, o, handler) for o in sub.options if o.suggest}
    if completers:
        app_commands.autocomplete(**completers)(callback)
    return callback


def _completer(sub: Subcommand, option: Option, handler: Handler) -> Any:
    async def complete(interaction: discord.Interaction, current: str) -> list[AnyChoice]:
        return await handler.complete(interaction, sub, option, current)

    complete.__name__ = complete.__qualname__ = f"complete_{sub.name}_{option.name}"
    return complete


def build_group(commands: CommandSet, handler: Handler) -> app_commands.Group:
    """The /18xx group with its subgroups and subcommands, all calling ``handler``."""
    root = app_commands.Group(name=ROOT_NAME, description=ROOT_DESCRIPTION, guild_only=True)
    parents: dict[str | None, app_commands.Group] = {None: root}
    for sub in commands.subcommands.values():
        parent = parents.get(sub.group)
        if parent is None:
            parent = parents[sub.group] = app_commands.Group(
                name=sub.group or "", description=GROUP_DESCRIPTIONS.get(sub.group or "", sub.group or "")
            )
            root.add_command(parent)
        parent.add_command(
            app_commands.Command(name=sub.name, description=sub.description, callback=_callback(sub, handler))
        )
    return root


def find(group: app_commands.Group, path: str) -> app_commands.Command[Any, ..., Any]:
    """The subcommand at ``path`` (``"lay"``, ``"game new"``) under the /18xx group."""
    node: Any = group
    for name in path.split():
        node = node.get_command(name)
        if node is None:
            raise KeyError(path)
    if not isinstance(node, app_commands.Command):
        raise KeyError(f"{path} is a group")
    return node


MAX_STATIC_CHOICES = 25  # Discord's limit for an option's fixed choices


def titles() -> list[str]:
    from engine import TITLES

    return list(TITLES)


def privates() -> list[str]:
    """The private companies of every title (their symbols), for ``/18xx ability private:``."""
    from engine import TITLES

    syms: list[str] = []
    for cls in TITLES.values():
        for company in cls.data()["game"].get("companies", []):
            if company["sym"] not in syms:
                syms.append(company["sym"])
    return syms


def schema() -> list[dict[str, Any]]:
    """The application-command definitions Discord receives, built offline (no token, no login)."""
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    tree.add_command(build_group(build(titles(), privates()), Unwired()))
    return [c.to_dict(tree) for c in tree.get_commands()]


def schema_json() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
