"""The round cycle is the title's plan: an extra round kind between the stock and operating rounds, a repeated
initial round, and an end reason of the title's own, on a title-like subclass of 1882 (not a whole title)."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.core import query
from engine.core.entities import Player
from engine.core.errors import DataError
from engine.core.flow import RoundState
from engine.core.game import Game
from engine.core.game_end import EndCheck
from engine.core.round import Round
from engine.core.sequence import OPERATING, STANDARD_PLAN, STOCK, Next, RoundPlan, next_round
from engine.titles.g1882.game import G1882


class ChoicesRound(Round):
    """A round of a kind the core does not know (1822's choices round stands here); nothing to decide."""

    kind = "choices"

    def start(self) -> None:
        super().start()
        self.done = True

    def name(self) -> str:
        return "Choices Round"


class Plugged(G1882):
    """1882 with a choices round between each stock round and its operating rounds, and an end of its own:
    one more full set of operating rounds once the 3-trains are out (1828's final_phase, in small)."""

    DATA_PACKAGE = "tests.engine.plugged"
    ROUND_PLAN = RoundPlan(
        initial="auction",
        after={
            "auction": Next(STOCK, priority_deal=True),
            STOCK: Next("choices"),
            "choices": Next(OPERATING, priority_deal=True),
            OPERATING: Next(STOCK),
        },
    )

    def new_round(self, kind: str, number: int) -> RoundState:
        if kind == "choices":
            return ChoicesRound(self, [])
        return super().new_round(kind, number)

    def end_checks(self) -> dict[str, EndCheck]:
        return {**super().end_checks(), "second_phase": lambda: self.phase_index >= 1}


def plugged_data(game_end: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(G1882.data())
    data["game"]["game_end"] = game_end
    return data


@pytest.fixture
def plugged(monkeypatch: pytest.MonkeyPatch) -> type[Plugged]:
    monkeypatch.setitem(Game._data_cache, Plugged.DATA_PACKAGE,
                        plugged_data({"bankrupt": "immediate", "second_phase": "one_more_full_or_set"}))
    return Plugged


def play(game: Game, seed: int, until: Any) -> list[tuple[str, int, int]]:
    """Random legal moves until ``until(game)``; the rounds seen, as (kind, turn, number)."""
    rng = random.Random(seed)
    seen = [(game.round.kind, game.turn, game.round.number)]
    for _ in range(3000):
        if game.finished or until(game):
            break
        options = [o for ent in query.deciding_entities(game) for o in query.all_choices(game, ent, limit=50)]
        # Steady play: seldom pass, never sell or go bankrupt, so the game moves on to the 3-trains.
        weights = [0.2 if o["type"] == "pass" else 0.0 if o["type"] in ("sell_shares", "bankrupt") else 3.0
                   for o in options]
        game.process(rng.choices(options, weights)[0])
        here = (game.round.kind, game.turn, game.round.number)
        if here != seen[-1]:
            seen.append(here)
    return seen


def test_a_title_plan_puts_its_own_round_between_the_stock_and_operating_rounds(plugged: type[Plugged]) -> None:
    game = plugged([(1, "A"), (2, "B"), (3, "C")], seed=7)
    play(game, 7, lambda g: g.turn >= 3)
    # The loop records rounds that last past an action; the log has every one, the choices round included.
    names = [line for line in game.log_lines if line.startswith("-- ") and "Round" in line]
    order = [n.split()[1].lower() for n in names]
    assert order[:3] == ["stock", "choices", "operating"] and order.count("choices") >= 2
    for i, kind in enumerate(order[:-1]):
        if kind == "stock":
            assert order[i + 1] == "choices"
        if kind == "choices":
            assert order[i + 1] == "operating" and names[i + 1].endswith(".1 --")
    # Priority passes after the auction and after the choices round, not after the stock round.
    lines = game.log_lines
    for i, line in enumerate(lines):
        if line == "-- Choices Round --":
            assert lines[i + 1].endswith("has priority deal") and lines[i + 2].startswith("-- Operating Round")


def test_a_title_end_reason_ends_the_game_after_one_more_full_set(plugged: type[Plugged]) -> None:
    game = plugged([(1, "A"), (2, "B"), (3, "C")], seed=3)
    play(game, 3, lambda g: g.phase_index >= 1)
    assert not game.finished and game.game_end_timing() == ("second_phase", "one_more_full_or_set")
    triggered_in = game.turn
    seen = play(game, 3, lambda g: False)
    assert game.finished and game.game_end_reason == "second_phase"
    # The set in progress is played out, then one whole set more, and the game ends after its last round.
    assert game.turn == triggered_in + 1
    assert game.round.kind == OPERATING and game.round.number == game.operating_rounds
    assert ("stock", triggered_in + 1, 1) in seen and ("stock", triggered_in + 2, 1) not in seen


def test_the_first_trigger_may_be_locked(monkeypatch: pytest.MonkeyPatch) -> None:
    table = {"second_phase": "full_or", "bankrupt": "immediate", "lock_first_trigger": True}
    monkeypatch.setitem(Game._data_cache, Plugged.DATA_PACKAGE, plugged_data(table))
    game = Plugged([(1, "A"), (2, "B"), (3, "C")], seed=3)
    play(game, 3, lambda g: g.phase_index >= 1)
    game.players[0].bankrupt = True  # met later, and sooner, but the first trigger stands (1822)
    assert game.game_end_timing() == ("second_phase", "full_or")
    monkeypatch.setitem(Game._data_cache, Plugged.DATA_PACKAGE, plugged_data({**table, "lock_first_trigger": False}))
    game = Plugged([(1, "A"), (2, "B"), (3, "C")], seed=3)
    play(game, 3, lambda g: g.phase_index >= 1)
    game.players[0].bankrupt = True
    assert game.game_end_timing() == ("bankrupt", "immediate")


# ----------------------------------------------------------------------------- the plan alone


@dataclass
class FakeRound:
    kind: str
    number: int = 1
    entity_index: int = 0
    started: bool = False

    def name(self) -> str:
        return f"{self.kind} {self.number}"

    def start(self) -> None:
        self.started = True


@dataclass
class FakeGame:
    """What the round cycle needs of a game, and nothing else; its next_in_plan repeats the initial round
    while privates are unsold (1862's initial stock round and its revenue-only operating round)."""

    plan: RoundPlan
    round: Any
    players: list[Player] = field(default_factory=lambda: [Player(i, f"P{i}", 0) for i in (1, 2, 3)])
    turn: int = 1
    operating_rounds: int = 1
    in_set: int = 2
    unsold: int = 0
    lines: list[str] = field(default_factory=list)

    def log(self, line: str) -> None:
        self.lines.append(line)

    def next_in_plan(self, finished: Any) -> Next:
        if finished.kind == "initial" and self.unsold:
            return Next("private_revenue")
        return self.plan.next_after(finished.kind)

    def new_round(self, kind: str, number: int) -> Any:
        return FakeRound(kind, number)

    def operating_rounds_in_set(self) -> int:
        return self.in_set

    def reorder_players(self) -> None:
        self.players = self.players[1:] + self.players[:1]

    def or_round_finished(self) -> None:
        self.lines.append("or finished")

    def or_set_finished(self) -> None:
        self.lines.append("set finished")


PLAN_1862 = RoundPlan(
    initial="initial",
    after={
        "initial": Next(OPERATING, priority_deal=True),
        "private_revenue": Next("initial"),
        STOCK: Next(OPERATING, priority_deal=True),
        OPERATING: Next(STOCK),
    },
)


def kinds(game: FakeGame, steps: int) -> list[tuple[str, int]]:
    out = []
    for _ in range(steps):
        next_round(game)
        assert game.round.started
        out.append((game.round.kind, game.round.number))
    return out


def test_a_second_initial_round_while_privates_are_unsold() -> None:
    game = FakeGame(PLAN_1862, FakeRound("initial"), unsold=1)
    assert kinds(game, 2) == [("private_revenue", 1), ("initial", 1)]
    game.unsold = 0
    first = game.players[0]
    assert kinds(game, 4) == [(OPERATING, 1), (OPERATING, 2), (STOCK, 1), (OPERATING, 1)]
    assert game.turn == 2 and game.players[0] is not first
    assert game.lines.count("set finished") == 1 and game.lines.count("or finished") == 2


def test_the_set_length_is_fixed_when_the_set_starts() -> None:
    game = FakeGame(STANDARD_PLAN, FakeRound(STOCK), in_set=3)
    next_round(game)
    game.in_set = 1  # a phase change in the first round of the set does not shorten it
    assert kinds(game, 3) == [(OPERATING, 2), (OPERATING, 3), (STOCK, 1)]
    assert game.operating_rounds == 3


def test_a_plan_must_say_what_follows_every_round_it_leads_to() -> None:
    with pytest.raises(DataError, match="what follows a choices round"):
        RoundPlan(initial="auction", after={"auction": Next(STOCK), STOCK: Next("choices"), OPERATING: Next(STOCK)})
    with pytest.raises(DataError, match="no operating rounds"):
        RoundPlan(initial=STOCK, after={STOCK: Next(STOCK)})
    with pytest.raises(DataError, match="what follows a merger round"):
        STANDARD_PLAN.next_after("merger")
