"""1828 in the console: a merger into a system played from the command language, and the system's own moves.

Each game starts from a prefix of a recorded game (read from ../shared/fixtures, written to a temporary file
and imported as a player would attach it), then goes on with typed commands.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.console.scripted import line
from engine.importer import parse_game_json, replay
from tests.bot.console_helpers import run_console, stored_actions
from tests.conftest import SHARED_FIXTURES, require_recorded

GAME = SHARED_FIXTURES / "1828" / "23366.json"
#: The recorded players, seated as these users (by the player's name in the file).
SEATS = {"alice": "Player 3", "bob": "Player 2", "carol": "Player 1", "dave": "Player 4"}


def _prefix(tmp_path: Path, count: int) -> Path:
    require_recorded("1828")
    doc = json.loads(GAME.read_text("utf-8"))
    doc["actions"] = doc["actions"][:count]
    path = tmp_path / f"prefix_{count}.json"
    path.write_text(json.dumps(doc), "utf-8")
    return path


def _seated(path: Path, *moves: str) -> list[str]:
    """Console lines that import ``path``, seat everyone and start, then ``moves``."""
    lines = [line("alice", f"import {path}")]
    lines += [line(user, f"join {player}") for user, player in SEATS.items()]
    return [*lines, line("alice", "start"), *moves]


def test_a_merger_into_a_system_with_consent_and_every_holders_turn(tmp_path: Path) -> None:
    """Player 3 (alice) merges her MP with Player 2's NYC: bob approves, then bob, dave and carol each decide
    their share trades in turn, each pinged when the decision becomes theirs."""
    db, out = tmp_path / "games.db", tmp_path / "out"
    lines = _seated(_prefix(tmp_path, 391),
        line("alice", "moves"),
        line("alice", "choose PRR"),
        line("alice", "merge MP"),
        line("alice", "merge"),
        line("alice", "merge GT"),
        line("alice", "merge NYC"),
        line("carol", "approve 1"),
        line("bob", "approve 1"),
        line("carol", "who"),
        line("bob", "moves"),
        line("bob", "choose Player_9"),
        line("alice", "choose sell"),
        line("bob", "choose Player_4"),
        line("dave", "moves"),
        line("dave", "choose exchange"),
        line("dave", "choose Player_1"),
        line("carol", "choose sell"),
        line("alice", "status"),
    )
    output = run_console(db, out, lines)
    text = "\n".join(output)
    # Proposing: the merger words are listed, and a wrong or missing company is explained.
    assert "Player 3: merge B&O | merge MP | merge NYC | merge NYH | merge PRR" in text
    assert "[illegal] there is nothing to choose now; to start a merger: `merge CORP`" in text
    assert "Player 3 starts a merger with MP" in text
    assert "[malformed] say which company: `merge CORP`, one of: B&O, NYC, NYH, PRR" in text
    assert "[illegal] MP cannot merge with GT; it can merge with: B&O, NYC, NYH, PRR" in text
    # The other director's consent: only bob may give it, and he is asked directly.
    assert "bot -> @bob: Request 1 from alice in 1828 game #1 (console): MP merges with NYC." in text
    assert "bob approves request 1 (MP merges with NYC)" in text
    assert "Player 2 must decide (Merger - Trade a NYC share for a MP share): `choose Player_4`, " \
        "`choose Player_1`, `choose Player_3`" in text  # carol's `who`
    assert "Merging NYC into MP" in text
    # Each holder's turn: the question, the options, the ping, and refusals that store nothing.
    question = "Player 2: Merger - Trade a NYC share for a MP share"
    assert f"{question}: choose Player_4 | choose Player_1 | choose Player_3" in text
    assert "[illegal] Player_9 is not a choice here (Merger - Trade a NYC share for a MP share); choose one of: " \
        "Player_4, Player_1, Player_3" in text
    assert "bot (to alice): [not_your_turn] it's not your turn: waiting for Player 2" in text
    assert "bot -> @dave: Your turn in 1828 game #1" in text
    # Each option says what it costs or brings: the word alone gives no price.
    assert ("Player 4: Merger - Trade up or sell share: choose Exchange (trade the NYC share and $25 for a system "
            "share) | choose Sell (sell the NYC share to the bank for $94)") in text
    # Replies call the seated players by their chat names, not the imported game's "Player 4".
    assert "dave exchanges 1 NYC share and $25 for 1 system share" in text
    assert "bot -> @carol: Your turn in 1828 game #1" in text
    assert "carol discards 1 NYC share and receives $94 from the bank" in text
    # What was stored is exactly the typed decisions, and the log replays to a system with both shells.
    stored = [a for _, a in stored_actions(db)]
    assert [(a["type"], a.get("choice") or a.get("corporation")) for a in stored[391:]] == [
        ("choose", "MP"), ("merge", "NYC"), ("choose", "Player 4"), ("choose", "Exchange"),
        ("choose", "Player 1"), ("choose", "Sell"),
    ]
    raw = json.loads(GAME.read_text("utf-8"))
    game = replay(parse_game_json({**raw, "actions": stored}))
    system = game.corporations["MP-NYC"]
    assert system.kind.value == "system" and [s.name for s in game.shells["MP-NYC"]] == ["MP", "NYC"]
    assert system.owner.name == "Player 2"


def test_a_system_swaps_a_train_between_shells(tmp_path: Path) -> None:
    db, out = tmp_path / "games.db", tmp_path / "out"
    user = _owner_user(470, "PRR-MP")
    lines = _seated(_prefix(tmp_path, 470),
        line(user, "moves"),
        line(user, "swap 4"),
        line(user, "swap"),
        line(user, "swap 6"),
    )
    output = run_console(db, out, lines)
    text = "\n".join(output)
    assert "PRR-MP: swap 3+D | swap 6" in text, text
    assert "[illegal] PRR-MP cannot move a 4 train between its shells; it can move: 3+D, 6" in text
    assert "[malformed] say which train moves to the other shell: `swap TRAIN`, one of: 3+D, 6" in text
    assert stored_actions(db)[-1][1] | {"id": 0} == {"type": "swap_train", "entity": "PRR-MP",
                                                      "entity_type": "system", "train": "6-1", "id": 0}


def _owner_user(count: int, corp: str) -> str:
    """The user seated as ``corp``'s president after ``count`` recorded actions."""
    raw = json.loads(GAME.read_text("utf-8"))
    game = replay(parse_game_json({**raw, "actions": raw["actions"][:count]}))
    name = game.corporations[corp].owner.name
    return next(user for user, player in SEATS.items() if player == name)


def test_a_company_buys_a_coal_marker(tmp_path: Path) -> None:
    db, out = tmp_path / "games.db", tmp_path / "out"
    user = _owner_user(159, "IC")
    lines = _seated(_prefix(tmp_path, 159),line(user, "moves"), line(user, "help buy"), line(user, "buy coal"),
                    line(user, "buy coal"))
    output = run_console(db, out, lines)
    text = "\n".join(output)
    assert "IC: buy coal" in text
    assert "`buy coal` (1828): your company buys a coal marker" in text
    assert "[illegal] IC cannot buy coal now: a company may when it reaches the Virginia Coalfields" in text
    assert [a["type"] for _, a in stored_actions(db)][159:] == ["special_buy"]  # the second was refused


def test_merger_decisions_and_the_coal_marker_are_one_click_buttons() -> None:
    from bot.core.choices import move_buttons
    from engine.core import query

    require_recorded("1828")
    raw = json.loads(GAME.read_text("utf-8"))
    game = replay(parse_game_json({**raw, "actions": raw["actions"][:391]}))
    alice = next(p for p in game.players if p.name == "Player 3")
    game.process({"type": "choose", "entity": alice.id, "entity_type": "player", "choice": "MP"})
    game.process({"type": "merge", "entity": "MP", "entity_type": "corporation", "corporation": "NYC"})
    [deciding] = query.deciding_entities(game)
    buttons = move_buttons(game, [deciding], at=len(game.raw_actions))
    assert [(b.label, b.command) for b in buttons] == [
        ("Player 4", "@393 choose Player_4"),
        ("Player 1", "@393 choose Player_1"),
        ("Player 3", "@393 choose Player_3"),
    ]
    coal = replay(parse_game_json({**raw, "actions": raw["actions"][:159]}))
    ic = coal.corporations["IC"].owner
    labels = [b.label for b in move_buttons(coal, [ic], at=159)]
    assert "Buy coal marker" in labels and labels[-1] == "Pass"
    swapping = replay(parse_game_json({**raw, "actions": raw["actions"][:470]}))
    owner = swapping.corporations["PRR-MP"].owner
    swaps = [(b.label, b.command) for b in move_buttons(swapping, [owner], at=470)]
    assert ("Swap 6 to the other shell", "@470 swap 6") in swaps and ("Swap 3+D to the other shell", "@470 swap 3+D") \
        in swaps


def test_a_system_names_the_shell_that_gets_a_train() -> None:
    from bot.console.scripted import command_intent
    from bot.core.commands import CommandError

    require_recorded("1828")
    raw = json.loads(GAME.read_text("utf-8"))
    game = replay(parse_game_json({**raw, "actions": raw["actions"][:319]}))
    owner = game.corporations["CPR-MC"].owner
    try:
        command_intent(game, owner, "train 3+D")
    except CommandError as exc:
        assert exc.message == ("CPR-MC is a system: say which shell gets the train, `train 3+D shell CPR` or "
                               "`train 3+D shell MC`")
    else:
        raise AssertionError("a system's train went to a shell nobody named")
    action = command_intent(game, owner, "train 3+D shell MC").action
    assert (action["entity_type"], action["shell"], action["train"]) == ("system", "MC", "3+D-1")

    from bot.core.choices import move_buttons

    labels = [b.label for b in move_buttons(game, [owner], at=319)]
    assert "Buy 3+D-train for CPR $350" in labels and "Buy 3+D-train for MC $350" in labels


def test_the_dh_lays_and_stations_in_scranton_through_its_symbol(tmp_path: Path) -> None:
    """Rules 13.2.2.4: MP's director uses the D&H as `d&h lay` and `d&h token` (18xx.games never offers it)."""
    db, out = tmp_path / "games.db", tmp_path / "out"
    user = _owner_user(165, "MP")
    lines = _seated(_prefix(tmp_path, 165), line(user, "moves"), line(user, "d&h lay H4 57 0"),
                    line(user, "d&h lay F20 57 0"), line(user, "moves"), line(user, "d&h token F20"))
    text = "\n".join(run_console(db, out, lines))
    assert "D&H: d&h lay F20: 57 rot 0/1/2 — $120 (lay fee)" in text
    assert "[illegal] D&H cannot lay a tile on H4; it can build on: F20" in text
    assert "MP lays tile 57 on F20 (rotation 0) for $120" in text
    assert "D&H: d&h token F20 ($0)" in text and "D&H: d&h pass" in text
    assert "MP places a token on F20" in text
    assert [(a["type"], a["entity"], a.get("hex") or a.get("city")) for _, a in stored_actions(db)][165:] == [
        ("lay_tile", "D&H", "F20"), ("place_token", "D&H", "57-4-0")]


def test_a_system_that_cannot_buy_a_train_is_told_why_not_to_name_a_shell() -> None:
    """Naming no shell is not what stops a system that cannot pay: the reply gives the purchase's own reason."""
    from bot.console.scripted import command_intent
    from bot.core.commands import CommandError

    require_recorded("1828")
    raw = json.loads(GAME.read_text("utf-8"))
    game = replay(parse_game_json({**raw, "actions": raw["actions"][:319]}))
    system = game.corporations["CPR-MC"]
    system.cash = 10
    for command in ("train 3+D", "train 3+D shell MC"):
        try:
            command_intent(game, system.owner, command)
        except CommandError as exc:
            assert "cannot afford the 3+D train: treasury $10, price $350" in exc.message, exc.message
        else:
            raise AssertionError(f"{command}: a system without the money bought a train")
