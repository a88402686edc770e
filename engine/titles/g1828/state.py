"""The 1828 game as its rule modules and steps see it: the core game with the state 1828 adds.

G1828 (game.py) is this class with the title's hooks, which hand each rule to its module. The rules and steps type
their game as :class:`Game1828` so that none of them imports the game module (engine/ has no import circle).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from ...core.entities import Player, Train
from ...core.game import Game


@dataclass(eq=False)
class Shell:
    """One of a system's two shells (rules 7.5.4): a member company's charter, running its own trains."""

    name: str  # the member company's symbol
    trains: list[Train] = field(default_factory=list)


class Coal1828(TypedDict):
    """The coal figures (game.toml ``[coal]``)."""

    coalfields: str  # the Virginia Coalfields: coal markers, no stations, routes need a marker
    tunnel: str  # the Virginia Tunnel: one marker for the company that lays tile #tunnel_tile there
    tunnel_tile: str
    markers: int  # on the Coalfields at the start
    price: int


class Game1828(Game):
    """What 1828 keeps besides the core's state (G1828.setup sets it)."""

    coal: Coal1828  # the coal figures (game.toml [game.coal]): hexes, price, markers
    coal_on_fields: int  # coal markers left on the Virginia Coalfields
    tunnel_coal: bool  # the Virginia Tunnel's marker is still there
    shells: dict[str, list[Shell]]  # a system's two shells, each with its own trains
    merger_of: tuple[object, Any]  # (round, its merger step or None): merger_rules.merger_step
    merge_trials: dict[Any, bool]  # merger_rules.finishable_merges' trials in this position (not pickled)
    operated_once: set[str]
    last_action_id: int
    special_lays_used: set[tuple[str, int]]  # (private, index of its lay) used
    cp_token_owed: set[str]  # privates whose buyer still places the C&P's station
    lay_station_owed: dict[str, str]  # a private whose lay lets its company station there: hex
    tokened_this_round: set[str]
    pass_order: list[Player]
    purple_cleanup_done: bool
    # Set on a trial copy only: its merger refuses, as 18xx.games does, to hand out a system share none is left of.
    merger_strict = False
