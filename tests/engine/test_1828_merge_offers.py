"""1828: a merger 18xx.games cannot run is not offered, though the rules allow it and we still accept it.

The position is our own playout (3 players, seed 8236, random policy, of an earlier engine), kept up to the
``choose`` with which Player 2 starts IC + NKP in Stock Round 6. Its exchange runs without a decision and runs out of
system shares (a pair took the system's director's certificate, a departure we follow); 18xx.games then stops with
``NoMethodError`` at ``@system.shares_of(@system).first`` (docs/conformance.md, "Options 18xx.games cannot finish")."""

from __future__ import annotations

from pathlib import Path

from engine.core import actions as act
from engine.core import query
from engine.importer import read_game_file
from engine.titles import title_class
from engine.titles.g1828 import merger_rules
from engine.titles.g1828.game import G1828

GAME = Path(__file__).parent / "data" / "1828_merge_runs_short.json"


def _position() -> tuple[G1828, dict[str, object]]:
    """The game before its last action (Player 2's ``choose`` of IC), and that action."""
    gf = read_game_file(GAME)
    game = title_class(gf.title)(gf.players, gf.seed, gf.options)
    *standing, last = act.filter_undo(gf.actions)
    for action in standing:
        game.process(action)
    assert isinstance(game, G1828)
    return game, last


def test_a_merger_that_runs_short_before_any_decision_offers_only_its_undo() -> None:
    game, choose_ic = _position()
    player = game.player_by_id(2)
    ic, nkp = game.corporations["IC"], game.corporations["NKP"]
    assert game.merge_candidates(player, ic) == [nkp]  # the rules allow it (rules 7.5)
    game.process(choose_ic)
    assert merger_rules.finishable_merges(game, player, ic) == []
    [undo] = query.choices(game, ic, "merge")
    assert undo["type"] == "undo" and undo["action_id"] == game.round.merge_start_id  # type: ignore[attr-defined]
    game.process(undo)
    # Back before the choice, the same merger is not offered again; the player's other mergers are.
    offered = {c["choice"] for c in query.choices(game, game.player_by_id(2), "choose")}  # the undo rebuilt it
    assert "IC" not in offered and offered


def test_a_merger_that_runs_short_is_still_accepted_as_the_rules_say() -> None:
    game, choose_ic = _position()
    game.process(choose_ic)  # typed in chat, or stored before: accepted
    ic = game.corporations["IC"]
    game.process({"type": "merge", "entity": "IC", "entity_type": "corporation", "corporation": "NKP"})
    # Rule 7.5.2.1: with no system share left, the market's remaining shares of the two companies are discarded.
    assert ic.closed and game.corporations["NKP"].closed
    assert not game.pool.shares_of("IC") and not game.pool.shares_of("NKP")
    assert game.corporations["IC-NKP"].owner is game.player_by_id(2)
