"""1822 in the console: bids into the bid boxes, a major acquiring another player's minor, a private's power.

Each game starts from a prefix of a recorded game (read from ../shared/fixtures, written to a temporary file
and imported as a player would attach it), then goes on with typed commands.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.console.scripted import line
from tests.bot.console_helpers import run_console, stored_actions
from tests.conftest import SHARED_FIXTURES, require_recorded

GAME = SHARED_FIXTURES / "1822" / "33845.json"
SEATS = {"alice": "Player 1", "bob": "Player 2", "carol": "Player 3", "dave": "Player 4"}


def _seated(tmp_path: Path, count: int, *moves: str) -> list[str]:
    """Import the first ``count`` recorded actions, seat everyone, start, then ``moves``."""
    require_recorded("1822")
    doc = json.loads(GAME.read_text("utf-8"))
    doc["actions"] = doc["actions"][:count]
    path = tmp_path / f"prefix_{count}.json"
    path.write_text(json.dumps(doc), "utf-8")
    lines = [line("alice", f"import {path}")]
    lines += [line(user, f"join {player}") for user, player in SEATS.items()]
    return [*lines, line("alice", "start"), *moves]


def test_bids_into_the_bid_boxes(tmp_path: Path) -> None:
    db, out = tmp_path / "games.db", tmp_path / "out"
    lines = _seated(
        tmp_path, 0,
        line("alice", "moves"),
        line("alice", "bid M15 100"),
        line("alice", "bid M12 95"),
        line("alice", "bid M23 100"),
        line("alice", "bid M12 100"),
        line("alice", "pass"),
        line("bob", "bid M15 100"),
        line("bob", "bid M15 105"),
        line("bob", "status"),
    )
    text = "\n".join(run_console(db, out, lines))
    # A bid at the lowest price is still a bid (it can be outbid), so it is never offered as `buy`.
    assert "Player 1: bid M24 100 | bid M6 100 | bid M12 100 | bid M15 100 | bid C1 100" in text
    assert "alice bids £100 for MINOR: 15. London Tilbury & Southend Railway" in text
    assert "[illegal] the minimum bid for M12 is £100" in text
    assert "[illegal] M23 is not up for bids now; open: M24 (from £100), M6 (from £100)" in text
    assert "bot -> @bob: Your turn in 1822+ game #1" in text
    assert "[illegal] the minimum bid for M15 is £105" in text
    assert "bob bids £105 for MINOR: 15." in text
    assert "in a bid box, high bid Player 2 £105" in text and "in a bid box, high bid Player 1 £100" in text
    bids = [(a["entity"], a["company"], a["price"]) for _, a in stored_actions(db) if a["type"] == "bid"]
    assert bids == [(197, "M15", 100), (197, "M12", 100), (4767, "M15", 105)]


def test_a_major_acquires_another_players_minor(tmp_path: Path) -> None:
    """LNWR (alice) takes over minor 7 (bob's): bob approves, then alice chooses the payment and the station."""
    db, out = tmp_path / "games.db", tmp_path / "out"
    lines = _seated(
        tmp_path, 551,
        line("alice", "moves"),
        line("alice", "merge 99"),
        line("alice", "merge 7"),
        line("alice", "choose one_share"),
        line("bob", "approve 1"),
        line("alice", "moves"),
        line("alice", "choose money"),
        line("alice", "choose one_share"),
        line("alice", "moves"),
        line("alice", "choose"),
        line("alice", "choose exchange"),
    )
    output = run_console(db, out, lines)
    text = "\n".join(output)
    assert "LNWR: merge 7 | merge 12" in text
    assert "[malformed] no company 99; `merge CORP` with one of: 7, 12" in text
    assert "bot -> @bob: Request 1 from alice in 1822+ game #1 (console): LNWR merges with 7." in text
    assert "[illegal] LNWR cannot choose now; you can: `merge 7`" in text  # nothing is stored before bob approves
    assert "LNWR: Acquire a minor: choose one_share" in text
    assert "[illegal] money is not a choice here (Acquire a minor); choose one of: one_share" in text
    # Each station option says what it does (F13).
    assert ("LNWR: Acquire a minor: choose replace (LNWR's station takes the place of 7's in H23) | choose exchange "
            "(7's station in H23 leaves the map; LNWR gains a station to place later)") in text
    assert ("[malformed] Acquire a minor: say `choose OPTION`, one of: replace (LNWR's station takes the place of "
            "7's in H23), exchange (7's station in H23 leaves the map; LNWR gains a station to place later)") in text
    # The option says how the price is paid: minor 7 is worth £40 more than one LNWR share.
    assert "LNWR: Acquire a minor: choose one_share (Player 2 gets one LNWR share and £40 from LNWR)" in text
    assert "LNWR acquires 7" in text
    stored = [a for _, a in stored_actions(db)][551:]
    assert [(a["type"], a.get("corporation") or a.get("choice")) for a in stored] == [
        ("merge", "7"), ("choose", "one_share"), ("choose", "exchange"),
    ]


def test_a_private_lays_track_for_its_company(tmp_path: Path) -> None:
    """P12 (carol's CR owns it) lays an extra tile through its own symbol."""
    db, out = tmp_path / "games.db", tmp_path / "out"
    lines = _seated(
        tmp_path, 471,
        line("carol", "moves P12"),
        line("carol", "help P12"),
        line("carol", "p12 lay F5 58 4"),
        line("bob", "p12 lay F5 58 5"),
        line("carol", "p12 lay F5 58 5"),
    )
    text = "\n".join(run_console(db, out, lines))
    assert "P12: p12 lay F5: 3 rot 0 · 4 rot 1 · 58 rot 1/5 — free" in text
    assert "Extra Tile Lay" in text
    assert "[illegal] tile 58 on F5 fits at rotation 1, 5, not 4" in text
    assert "bot (to bob): [denied] P12 is not yours to use" in text
    last = stored_actions(db)[-1][1]
    assert (last["type"], last["entity"], last["hex"], last["tile"], last["rotation"]) == (
        "lay_tile", "P12", "F5", "58-4", 5)


def test_a_minor_paid_for_in_cash(tmp_path: Path) -> None:
    """NBR (carol) takes over minor 14, which the bank holds: no one to ask; it pays in money."""
    db, out = tmp_path / "games.db", tmp_path / "out"
    lines = _seated(
        tmp_path, 938,
        line("carol", "merge 14"),
        line("carol", "who"),
        line("carol", "choose money"),
        line("carol", "choose replace"),
    )
    text = "\n".join(run_console(db, out, lines))
    assert "NBR takes over minor 14" in text
    assert "NBR must decide (Acquire a minor): `choose money`" in text
    assert ("NBR must decide (Acquire a minor): `choose replace` (NBR places a station where 14's home would be), "
            "`choose exchange` (NBR gains a station to place later)") in text
    assert "NBR acquires 14" in text
    stored = [a for _, a in stored_actions(db)][938:]
    assert [a.get("corporation") or a.get("choice") for a in stored] == ["14", "money", "replace"]


def test_the_minors_in_reach_are_one_click_buttons() -> None:
    from bot.core.choices import move_buttons
    from engine.importer import parse_game_json, replay

    require_recorded("1822")
    raw = json.loads(GAME.read_text("utf-8"))
    game = replay(parse_game_json({**raw, "actions": raw["actions"][:938]}))
    carol = game.corporations["NBR"].owner
    buttons = [(b.label, b.command) for b in move_buttons(game, [carol], at=938)]
    assert buttons[:2] == [("Take over 19", "@938 merge 19"), ("Take over 14", "@938 merge 14")]


def test_the_same_request_is_not_opened_twice(tmp_path: Path) -> None:
    """F16: `merge 7` sent again opened another identical request each time (seven "NBR merges with 3")."""
    db, out = tmp_path / "games.db", tmp_path / "out"
    output = run_console(db, out, _seated(tmp_path, 551, line("alice", "merge 7"), line("alice", "merge 7")))
    text = "\n".join(output)
    assert "Request 1 from alice: LNWR merges with 7." in text
    assert "request 1 (LNWR merges with 7) is already waiting for bob; nothing new was asked" in text
    assert "Request 2" not in text
