"""Plain-text views of a game for chat: status, who is up, history pages, the result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.live import LiveGame
from bot.storage import GameRecord, ReplayFailure
from engine.core import query


def money(game: Any, n: int) -> str:
    """An amount in the game's currency (the title's ``currency`` format), with a minus sign in front."""
    return f"-{game.format_money(-n)}" if n < 0 else str(game.format_money(n))


def bank_text(game: Any, cash: int) -> str:
    # 18xx.games keeps paying out of a broken bank, so its cash goes below zero; say what that means.
    return f"bank broken ({money(game, cash)})" if cash < 0 else f"bank {money(game, cash)}"


def round_name(game: Any) -> str:
    try:
        return str(game.round.name())
    except Exception:
        return "?"


def headline(live: LiveGame) -> str:
    game = live.game
    state = "finished" if game.finished else round_name(game)
    phase = game.phase["name"]
    return f"{live.record.title} game #{live.id} · {state} · phase {phase} · {bank_text(game, game.bank.cash)}"


def board_text(live: LiveGame) -> str:
    """The pinned board message: where the game stands, who must act and what they must do."""
    from bot.core.forced import hints

    game = live.game
    lines = [f"📌 {headline(live)}", waiting_line(live), *(f"  {h}" for h in hints(game))]
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
    for a in actors:
        who = live.name_of(a.player_id) if a.player_id is not None else "?"
        parts.append(a.label if who in a.label else f"{a.label} ({who})")
    return "Waiting for " + ", ".join(parts)


def end_reason(game: Any) -> str:
    """Why the game ended, in words (the status view's wording, not the engine's code)."""
    from engine.core.viewbuild import status_view

    try:
        return str(status_view(game).game_end_reason or "")
    except Exception:
        return str(game.game_end_reason or "")


def result_line(live: LiveGame) -> str:
    """The winner, then every player's cash, holdings and total, best first."""
    game = live.game
    result = game.result()
    ranked = sorted(result.items(), key=lambda kv: -kv[1])
    fmt = game.format_money
    players = {p.id: p for p in game.players}

    def worth(pid: int, total: int) -> str:
        player = players.get(pid)
        cash = player.cash if player is not None else 0
        return f"{fmt(total)} (cash {fmt(cash)}, shares and privates {fmt(total - cash)})"

    reason = end_reason(game)
    head = f"Game over: {reason}." if reason else "Game over."
    if not ranked:
        return head
    best = ranked[0][1]
    winners = [live.name_of(int(pid)) for pid, v in ranked if v == best]
    won = f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} with {worth(int(ranked[0][0]), best)}."
    rest = "; ".join(f"{live.name_of(int(pid))} {worth(int(pid), v)}" for pid, v in ranked[len(winners):])
    return f"{head} {won}" + (f" Then: {rest}." if rest else "")


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
        f"{record.title} game #{record.id} cannot continue with this version of the rules engine: "
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
    depot = game.available_depot_trains()
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
