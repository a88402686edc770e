"""Plain-text views of a game for chat: status, who is up, history pages, the result."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.game_names import game_name
from bot.core.live import LiveGame
from bot.core.narrate import Names
from bot.storage import GameRecord, ReplayFailure
from engine.api import Game
from engine.core import query
from engine.core.events import Score
from engine.core.game_end import end_reason_text
from engine.core.statusbuild import bank_unlimited


def money(game: Game, n: int) -> str:
    """An amount in the game's currency (the title's ``currency`` format), with a minus sign in front."""
    return f"-{game.format_money(-n)}" if n < 0 else str(game.format_money(n))


def names_of(live: LiveGame) -> Names:
    """How the table calls the game's players (their seats' names) and privates, and its money."""
    game = live.game
    return Names(
        money=lambda n: money(game, n),
        players={p.id: live.name_of(p.id) for p in game.players},
        engine_names={p.id: p.name for p in game.players},
        privates={c.sym: c.name for c in game.companies.values()},
    )


def bank_text(game: Game, cash: int) -> str:
    # 18xx.games keeps paying out of a broken bank, so its cash goes below zero; say what that means.
    return f"bank broken ({money(game, cash)})" if cash < 0 else f"bank {money(game, cash)}"


def round_name(game: Game) -> str:
    try:
        return str(game.round.name())
    except Exception:
        return "?"


def headline(live: LiveGame) -> str:
    game = live.game
    state = "finished" if game.finished else round_name(game)
    phase = game.phase["name"]
    bank = "bank unlimited" if bank_unlimited(game) else bank_text(game, game.bank.cash)
    return f"{game_name(live.record)} game #{live.id} · {state} · phase {phase} · {bank}"


def board_text(live: LiveGame) -> str:
    """The pinned board message: where the game stands, who must act and what they must do."""
    from bot.core.forced import hints

    game = live.game
    lines = [f"📌 {headline(live)}", waiting_line(live), *(f"  {names_of(live).text(h)}" for h in hints(game))]
    corps = [c for c in game.corporations.values() if c.sym in game.market.location and not c.closed]
    if corps:
        fmt = game.format_money
        lines.append(
            "Prices: " + ", ".join(f"{c.sym} {fmt(game.market.location[c.sym].price)}" for c in corps)
        )
    lines.append("Players: " + ", ".join(f"{live.name_of(p.id)} {game.format_money(p.cash)}" for p in game.players))
    return "\n".join(lines)


def waiting_line(live: LiveGame) -> str:
    game = live.game
    if game.finished:
        return result_line(live)
    actors = query.actors(game)
    if not actors:
        return "Nobody has to act."
    parts = []
    names = names_of(live)
    for a in actors:
        who = live.name_of(a.player_id) if a.player_id is not None else "?"
        label = names.text(a.label)
        parts.append(label if who in label else f"{label} ({who})")
    return "Waiting for " + ", ".join(parts)


def end_reason(game: Game) -> str:
    """Why the game ended, in words (not the engine's code)."""
    return end_reason_text(game.game_end_reason)


def score_text(game: Game, score: Score) -> str:
    """A player's score and its parts: "£1,250 (cash £300, shares £950, debt -£120)"."""
    parts = [f"cash {money(game, score.cash)}", f"shares {money(game, score.shares)}"]
    if score.privates:
        parts.append(f"privates {money(game, score.privates)}")
    if score.debt:
        parts.append(f"debt {money(game, -score.debt)}")
    return f"{money(game, score.total)} ({', '.join(parts)})"


def result_line(live: LiveGame) -> str:
    """The winner, then every player's score in its parts, best first."""
    game = live.game
    scores = sorted((game.shares.player_score(p) for p in game.players), key=lambda s: -s.total)
    reason = end_reason(game)
    head = f"Game over: {reason}." if reason else "Game over."
    if not scores:
        return head
    best = scores[0].total
    won = [s for s in scores if s.total == best]
    winners = [live.name_of(int(s.player.key)) for s in won]
    said = f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} with {score_text(game, won[0])}."
    rest = "; ".join(f"{live.name_of(int(s.player.key))} {score_text(game, s)}" for s in scores[len(won):])
    return f"{head} {said}" + (f" Then: {rest}." if rest else "")


def refused_action(failure: ReplayFailure) -> str:
    """ "stored action 12 (lay_tile) is no longer accepted: <the engine's message>" """
    message = failure.message.rstrip(". ")
    if failure.seq == 0:
        return f"the engine cannot set the game up: {message}"
    number = f"action {failure.seq}"
    if failure.action_id is not None and failure.action_id != failure.seq:
        number += f" (engine id {failure.action_id})"
    return f"stored {number}, {failure.action_type}, is no longer accepted: {message}"


def broken_text(record: GameRecord, failure: ReplayFailure) -> str:
    """What the players of a game whose log no longer replays are told, and what they can do."""
    return (
        f"{game_name(record)} game #{record.id} cannot continue with this version of the rules engine: "
        f"{refused_action(failure)}.\n"
        "Nothing was deleted, and nothing can be played until it replays again. You can `export` the game "
        "(18xx.games JSON with every stored action). `undo` is not possible: the game cannot be rebuilt up "
        "to that action. The bot's operator can run `python -m bot check-games` to list the games affected; "
        "once the engine accepts the log again, the game continues where it stopped."
    )


def status_lines(live: LiveGame) -> list[str]:
    """A compact text status, used when the renderer's status card is not available."""
    game = live.game
    lines = [headline(live), waiting_line(live), "Players:"]
    for p in game.players:
        holdings: dict[str, int] = {}
        for s in p.shares:
            holdings[s.corp] = holdings.get(s.corp, 0) + s.percent
        shares = " ".join(f"{c} {v}%" for c, v in sorted(holdings.items()))
        privates = " ".join(c.sym for c in p.companies if not c.closed)
        extra = " · ".join(x for x in (shares, privates) if x)
        seat = live.user_of(p.id)
        name = seat.display_name if seat else p.name
        lines.append(
            f"  {name}: {money(game, p.cash)}"
            + (f" · {extra}" if extra else "")
            + (" · bankrupt" if p.bankrupt else "")
        )
    corps = [c for c in game.corporations.values() if c.ipoed and not c.closed]
    if corps:
        lines.append("Companies:")
        for c in corps:
            cell = game.market.location.get(c.sym)
            price = money(game, cell.price) if cell is not None else "-"
            pres = c.owner.name if c.owner is not None else "-"
            trains = ", ".join(t.name for t in c.trains) or "no trains"
            lines.append(
                f"  {c.sym}: {price} · president {pres} · treasury {money(game, c.cash)} · {trains}"
                + ("" if c.floated else " · not floated")
            )
    depot = game.trains.available_depot_trains()
    if depot:
        lines.append("Trains for sale: " + ", ".join(f"{t.name} ({money(game, t.price)})" for t in depot))
    return lines


def who_lines(live: LiveGame, notes: Mapping[str, str] | None = None) -> list[str]:
    """Who is up and who sits where; ``notes`` adds a remark per chat user (" (away)", local time)."""
    notes = notes or {}
    game = live.game
    from bot.core.forced import hints

    lines = [waiting_line(live), *(f"  {h}" for h in hints(game)), "Seats:"]
    order = {p.id: i for i, p in enumerate(game.players)}
    for seat in sorted(live.seats, key=lambda s: order.get(s.player_id or 0, 99)):
        player = next((p for p in game.players if p.id == seat.player_id), None)
        pres = [c.sym for c in game.corporations.values() if c.owner is player and not c.closed]
        tail = f" (president of {', '.join(pres)})" if pres else ""
        lines.append(f"  {seat.display_name}{notes.get(seat.user_id, '')}{tail}")
    return lines


def history_page(lines: list[str], page: int, size: int) -> tuple[list[str], int]:
    """Page ``page`` (1 = newest) of a log, and the number of pages."""
    pages = max(1, -(-len(lines) // size))
    page = min(max(page, 1), pages)
    end = len(lines) - (page - 1) * size
    return lines[max(0, end - size) : end], pages


def split_text(text: str, limit: int, *, empty: str = "") -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where possible.

    Chat platforms cap one message's text; blank pieces are dropped, and a text with nothing to show becomes
    ``[empty]`` (Slack refuses an empty section, Discord an empty message without files).
    """
    pieces: list[str] = []
    current = ""
    for line in text.splitlines() or [""]:
        while len(line) > limit:  # a single overlong line: cut it hard
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            pieces.append(current)
            current = line
        else:
            current = candidate
    pieces.append(current)
    return [p for p in pieces if p.strip()] or [empty]
