"""A move's reply is the engine's events told in order (bot/core/narrate.py): each finding of the newcomer
play-test (../shared/reference/reviews/newcomer-all-titles.md) that the old before/after comparison got wrong."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from bot.core.narrate import Line, Names, cut, narrate
from bot.core.notify import digest
from bot.core.text import score_text
from engine.core import events as ev
from engine.core.game import Game
from engine.core.statusbuild import status_view
from engine.importer import parse_game_json, replay
from engine.playout import random_playout
from engine.titles import title_class
from engine.titles.g1862.bankruptcy import remove_corporation
from rendering.status import status_text
from tests.conftest import SHARED_FIXTURES


def _names(game: Game, seats: dict[int, str] | None = None) -> Names:
    return Names(
        money=game.format_money,
        players=seats or {p.id: p.name for p in game.players},
        engine_names={p.id: p.name for p in game.players},
        privates={c.sym: c.name for c in game.companies.values()},
    )


@cache
def _played(title: str, players: int, seed: int) -> tuple[Game, tuple[tuple[dict[str, Any], tuple[str, ...]], ...]]:
    """A seeded playout and, for each action, the reply lines its events give."""
    told: list[tuple[dict[str, Any], tuple[str, ...]]] = []

    def after(game: Game, action: dict[str, Any], outcome: ev.Outcome) -> None:
        lines = narrate(outcome.events, _names(game))
        told.append((action, tuple(line.text for line in lines)))
        _EVENTS.setdefault((title, seed), []).append(outcome)

    result = random_playout(title, players, seed, check=False, after=after)
    return result.game, tuple(told)


_EVENTS: dict[tuple[str, int], list[ev.Outcome]] = {}


def _outcomes(title: str, players: int, seed: int) -> list[tuple[ev.Outcome, tuple[str, ...]]]:
    _, told = _played(title, players, seed)
    return list(zip(_EVENTS[(title, seed)], (lines for _, lines in told), strict=True))


def test_1822_half_payout_says_what_each_holder_got_and_what_the_company_kept() -> None:
    """Finding: "LBSCR keeps £80 in its treasury; no dividend" while the engine paid Player 2 £8 (33845.json)."""
    doc = json.loads((SHARED_FIXTURES / "1822" / "33845.json").read_text("utf-8"))
    index = next(i for i, a in enumerate(doc["actions"]) if a["type"] == "dividend" and a.get("kind") == "half")
    game = replay(parse_game_json({**doc, "actions": doc["actions"][:index]}))
    cash = {p.id: p.cash for p in game.players}
    outcome = game.process(doc["actions"][index])
    text = "\n".join(line.text for line in narrate(outcome.events, _names(game)))
    assert "no dividend" not in text, text
    assert re.search(r"[A-Z]+ pays half: £\d+ to its holders \(£\d+ per 10% share\), keeps £\d+: ", text), text
    for p in game.players:
        if p.cash != cash[p.id]:
            assert f"{p.name} £{p.cash - cash[p.id]}" in text, text


def test_1862_companies_leaving_the_game_take_their_trains_without_rusting() -> None:
    """Finding: "All 4-trains rust: CPR loses 1, UP loses 1" when a bankrupt's companies left the game."""
    game = title_class("1862")([(1, "a"), (2, "b"), (3, "c"), (4, "d")], 3)
    corps = list(game.corporations.values())[:2]
    for corp in corps:
        train = game.depot[0]
        game.depot.remove(train)
        train.owner = corp
        corp.trains.append(train)
    with ev.recording() as events:
        for corp in corps:
            remove_corporation(game, corp, compensate=False)  # type: ignore[arg-type]
    text = "\n".join(line.text for line in narrate(events, _names(game)))
    assert "rust" not in text.replace("do not rust", ""), text
    for corp in corps:
        assert f"{corp.sym}'s trains leave the game with it (a 2-train); they do not rust" in text, text


def test_a_cut_reply_drops_revenue_lines_before_the_bid_box_winners() -> None:
    """Finding: the end of 1822's first stock round began "(4 more lines in `history`)" and hid the winners."""
    game, _ = _played("1822", 3, 1)
    outcome = next(o for o, _ in _outcomes("1822", 3, 1) if len(o.of(ev.AuctionWon)) >= 3)
    told = narrate(outcome.events, _names(game))
    winners = [line.text for line in told if line.rank >= ev.AuctionWon.RANK]
    replies = cut(told, len(winners) + 1)
    assert len(winners) >= 3 and len(told) > len(winners) + 1
    assert replies[:-1] == winners, (winners, replies)
    assert re.fullmatch(r"\(\d+ less important lines? in `history`\)", replies[-1])


def test_cut_keeps_order_and_drops_the_lowest_ranks_first() -> None:
    lines = [Line("a", 4), Line("win 1", 9), Line("b", 4), Line("win 2", 9), Line("c", 2)]
    assert cut(lines, 3) == ["win 1", "win 2", "(3 less important lines in `history`)"]
    assert cut(lines, 5) == ["a", "win 1", "b", "win 2", "c"]


def test_1828_has_no_bank_to_break() -> None:
    """Finding: 1828's status said "Bank broken (-$1,785)" from the private auction on; its bank is unlimited."""
    game, _ = _played("1828", 4, 1)
    assert game.bank.cash < 0
    text = status_text(status_view(game))
    assert "broken" not in text and "Bank: unlimited" in text.splitlines()[0], text.splitlines()[0]


def test_final_scores_name_debt_apart_and_the_end_reason_in_words() -> None:
    """Finding: "£-21725 (cash £388, shares and privates £-22113)", `players_out`, and debt twice in 1822's status."""
    game = title_class("1822")([(1, "alice"), (2, "bob"), (3, "carol")], 1)
    game.players[0].debt = 500
    game.end_game("players_out")
    said = score_text(game, game.shares.player_score(game.players[0]))
    assert re.fullmatch(r"-?£[\d,]+ \(cash £[\d,]+, shares £0, debt -£500\)", said), said
    assert status_view(game).game_end_reason == "too few players were left in the game"
    row = next(line for line in status_text(status_view(game)).splitlines() if "alice" in line)
    assert row.count("debt") == 1, row


def test_minors_runs_show_their_stops_and_the_split() -> None:
    """Finding: "24 runs for £20: half", without stops or who got what, while majors had the breakdown."""
    game, _ = _played("1822", 3, 1)
    minors = {c.sym for c in game.corporations.values() if c.kind.value == "minor"}
    for outcome, lines in _outcomes("1822", 3, 1):
        runs = [r for r in outcome.of(ev.RouteRun) if r.corp in minors and r.stops]
        paid = [d for d in outcome.of(ev.DividendPaid) if d.corp in minors and d.kind is not ev.DividendKind.WITHHELD]
        if runs and paid:
            corp = runs[0].corp
            assert f"{corp}'s run:" in lines
            assert any(line.startswith(f"  {runs[0].train}-train: {runs[0].stops[0].hex}") for line in lines), lines
            assert any(line.startswith(f"{corp} pays Player ") for line in lines), lines
            return
    raise AssertionError("no minor ran and paid in the playout")


def test_acquisitions_and_private_purchases_say_what_changed_hands() -> None:
    """Finding: "LNWR acquires 14" said nothing of cash, trains or the station; a private bought had no price."""
    seen_acquired = seen_private = False
    for outcome, lines in _outcomes("1822", 3, 1):
        for got in outcome.of(ev.Acquired):
            assert any(line.startswith(f"{got.taker} takes over {got.giver}: £") and "train" in line
                       for line in lines), lines
            seen_acquired = True
        for moved in outcome.of(ev.PrivateMoved):
            if moved.giver.kind is ev.PartyKind.PLAYER and moved.taker.kind is ev.PartyKind.CORPORATION:
                assert any("settled between the players" in line for line in lines), lines
                seen_private = True
    assert seen_acquired and seen_private


def test_no_internal_identifiers_in_replies() -> None:
    """Finding: "3-0 rusts", "HBR_1", "trains (None)", "NKP closes" for the private."""
    said = [line for title, n, seed in (("1882", 4, 1), ("1828", 4, 1), ("1822", 3, 1))
            for _, lines in _played(title, n, seed)[1] for line in lines]
    assert not [s for s in said if re.search(r"\b\d+-\d+ rusts|\b[A-Z&]+_\d+\b|\(None\)", s)]
    assert any(re.fullmatch(r"All \w+-trains rust: .+ loses \d+.*", s) for s in said)
    assert not [s for s in said if re.fullmatch(r"\S+ closes", s)]  # a bare symbol reads as the railway's
    assert any(re.fullmatch(r"The \S+ private company \(.+\) closes", s) for s in said)


def test_seated_players_are_called_by_their_chat_names() -> None:
    """Finding: imported games kept "Player 3" in every message after real players took the seats."""
    names = Names(money=str, players={1: "alice", 10: "judy"}, engine_names={1: "Player 1", 10: "Player 10"})
    assert names.text("Player 1 buys 10% of HBR; Player 10 passes") == "alice buys 10% of HBR; judy passes"


def test_a_purchase_is_told_before_the_float_it_causes() -> None:
    """Finding: "HBR floats and receives $900" came before "alice buys 10% of HBR"."""
    for outcome, lines in _outcomes("1882", 4, 1):
        floated = outcome.of(ev.CompanyFloated)
        if floated and any(" buys " in line for line in lines):
            sym = floated[0].corp
            buy = next(i for i, line in enumerate(lines) if " buys " in line and sym in line)
            floats = next(i for i, line in enumerate(lines) if line.startswith(f"{sym} floats"))
            assert buy < floats, lines
            return
    raise AssertionError("no company floated in the playout")


def test_the_rebellion_note_is_not_in_every_digest() -> None:
    """Finding: "NWR Rebellion occurs on purchase of the first 3 train" repeated in every auction digest."""
    game = title_class("1882")([(1, "a"), (2, "b"), (3, "c")], 7)
    assert any("NWR Rebellion" in line for line in game.log_lines[: game.setup_log_length])
    assert not any("NWR Rebellion" in line for line in digest(game.log_lines, None, setup=game.setup_log_length))


def test_a_plain_pass_in_an_operating_turn_says_it_skipped_track() -> None:
    """Finding: a plain `pass` in an OR said only "HBR withholds $0"."""
    for outcome, lines in _outcomes("1882", 4, 1):
        passed = [p for p in outcome.of(ev.Passed) if p.step == "Lay track"]
        if passed:
            assert f"{passed[0].who.key} skips laying track" in lines, lines
            assert not any(line.endswith("withholds $0") for line in lines), lines
            return
    raise AssertionError("nobody passed a track lay in the playout")
