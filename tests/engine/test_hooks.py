"""Titles change the rules only through the declared hooks (engine/core/hooks.py).

A title class (a game, round, step, market or ability of a title) that overrides a member of a core class must
override a hook declared for that class. The few overrides left from before the list are in KNOWN_UNDECLARED,
which may only shrink: an entry that is no longer overridden fails too, so it is taken off when its title moves
to a hook (/work/notes/renames.md says how for each).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import engine.titles
from engine.core import hooks

# title package/class name -> core members it still overrides that are not declared hooks.
KNOWN_UNDECLARED: dict[str, frozenset[str]] = {}


def title_classes() -> list[type]:
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(engine.titles.__path__, "engine.titles."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return list(found.values())


def key(cls: type) -> str:
    return f"{cls.__module__.split('.')[2]}/{cls.__qualname__}"


def core_classes(cls: type) -> list[type]:
    return [base for base in cls.__mro__ if base.__module__.startswith("engine.core.")]


def overrides(cls: type) -> dict[str, type]:
    """The core members ``cls`` itself defines again: name -> the core class whose member it replaces."""
    out: dict[str, type] = {}
    for name in vars(cls):
        if name.startswith("__") and name.endswith("__"):
            continue
        owner = next((base for base in core_classes(cls) if name in vars(base)), None)
        if owner is not None:
            out[name] = owner
    return out


def undeclared() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for cls in title_classes():
        names = [c.__name__ for c in core_classes(cls)]
        for name in overrides(cls):
            if not hooks.is_declared(names, name):
                out.setdefault(key(cls), set()).add(name)
    return out


def test_titles_override_only_declared_hooks() -> None:
    found = undeclared()
    new = {k: sorted(v - KNOWN_UNDECLARED.get(k, frozenset())) for k, v in found.items()}
    new = {k: v for k, v in new.items() if v}
    assert not new, f"title classes override core members that are no declared hook (engine/core/hooks.py): {new}"


def test_the_allowlist_only_shrinks() -> None:
    found = undeclared()
    stale = {k: sorted(v - found.get(k, set())) for k, v in KNOWN_UNDECLARED.items()}
    stale = {k: v for k, v in stale.items() if v}
    assert not stale, f"no longer overridden: take these off KNOWN_UNDECLARED in tests/engine/test_hooks.py: {stale}"


def test_the_checker_sees_an_override_of_a_core_member() -> None:
    from engine.core.game import Game

    class Sneaky(Game):
        def end_game(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
            """Not a hook."""

        def can_par(self, *args: object) -> bool:  # type: ignore[override]
            return True

    assert set(overrides(Sneaky)) == {"end_game", "can_par"}
    names = [c.__name__ for c in core_classes(Sneaky)]
    assert not hooks.is_declared(names, "end_game")
    assert hooks.is_declared(names, "can_par")


def test_every_declared_hook_has_a_core_default() -> None:
    from engine.core import abilities, market, round
    from engine.core.game import Game
    from engine.core.steps import auction, stock, trains

    core = {"Game": Game, "Round": round.Round, "Step": round.Step, "BuySellParShares": stock.BuySellParShares,
            "BuyTrain": trains.BuyTrain, "WaterfallAuction": auction.WaterfallAuction,
            "StockMarket": market.StockMarket, "Ability": abilities.Ability}
    assert set(core) == set(hooks.DECLARED)
    missing = {name: sorted(n for n in hooks.declared_for(name) if not hasattr(cls, n)) for name, cls in core.items()}
    assert not {k: v for k, v in missing.items() if v}, missing


def test_the_rules_are_parts_the_game_owns_and_no_title_extends_one() -> None:
    """The core's rules are composed, not inherited: Game stands on the state and the defaults of the declared
    hooks alone, and owns one part per rule area; the defaults hold declared hooks and nothing else, and the
    facade holds none; titles change the rules through hooks on their game, so no title class subclasses a part."""
    from engine.core.game import Game
    from engine.core.hook_defaults import HookDefaults
    from engine.core.play import RunPart
    from engine.core.play_shares import SharePart
    from engine.core.play_track import TrackPart
    from engine.core.play_trains import TrainPart
    from engine.core.state import GameState

    assert [c.__name__ for c in core_classes(Game)] == ["Game", "HookDefaults", "GameState"]
    declared = hooks.declared_for("Game")
    assert sorted(n for n in vars(HookDefaults) if not n.startswith("__") and n not in declared) == []
    assert sorted(n for n in vars(Game) if n in declared) == []
    parts = {"shares": SharePart, "track": TrackPart, "trains": TrainPart, "runs": RunPart}
    from engine.playout import default_players
    from engine.titles import title_class

    for title in ("1882", "1822", "1828", "1862", "1830"):
        cls = title_class(title)
        game = cls([(i, f"p{i}") for i in range(1, default_players(cls) + 1)], 1)
        assert isinstance(game, GameState)
        assert {name: type(getattr(game, name)) for name in parts} == parts, title
        assert all(getattr(game, name).game is game for name in parts)
    extended = [c.__qualname__ for c in title_classes() if issubclass(c, tuple(parts.values()))]
    assert not extended, f"title classes extend a core part instead of implementing hooks: {extended}"
