"""A game's history for the charts (``chart``) and the end-of-game summary (``summary``, and when a game ends).

The history is read by replaying the stored log once (``engine.history``), on a worker thread, only when one of
those pictures is asked for: ordinary moves never pay for it. It is kept per game and position, so asking again
costs nothing until the next move.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING

from bot.core.live import LiveGame, engine_options, engine_players
from bot.core.replies import Attachment
from bot.storage import ActionRecord, Storage
from engine import new_game
from engine.api import Game

if TYPE_CHECKING:
    from engine.history import GameHistory

log = logging.getLogger(__name__)

#: Actions stored by ``import`` carry the time 18xx.games recorded; the database's time is that of the import.
IMPORTED = "import"
CHART_WORDS = {"": "all", "all": "all", "value": "value", "values": "value", "worth": "value", "prices": "prices",
               "price": "prices", "revenue": "revenue", "revenues": "revenue", "dividends": "revenue"}


class StoryCache:
    """The last histories built, by (game, stored seq)."""

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = capacity
        self._kept: OrderedDict[tuple[int, int], GameHistory] = OrderedDict()

    def get(self, game_id: int, seq: int) -> GameHistory | None:
        found = self._kept.get((game_id, seq))
        if found is not None:
            self._kept.move_to_end((game_id, seq))
        return found

    def put(self, game_id: int, seq: int, history: GameHistory) -> None:
        self._kept[(game_id, seq)] = history
        while len(self._kept) > self.capacity:
            self._kept.popitem(last=False)


def _time(record: ActionRecord) -> float:
    stamp = record.data.get("created_at")
    if record.actor == IMPORTED and isinstance(stamp, int | float):
        return float(stamp)
    return record.created_at


def _build(live: LiveGame, records: list[ActionRecord]) -> GameHistory:
    from engine.history import game_history

    game = new_game(live.record.title, engine_players(live.record, live.seats), live.record.seed,
                    engine_options(live.record))
    return game_history(game, [r.data for r in records], [_time(r) for r in records])


async def history_of(storage: Storage, cache: StoryCache, live: LiveGame) -> GameHistory:
    """The history of ``live`` up to its current position (built on a worker thread, then kept)."""
    kept = cache.get(live.id, live.seq)
    if kept is not None:
        return kept
    records = [r for r in await storage.load_action_records(live.id) if r.seq <= live.seq]
    history = await asyncio.to_thread(_build, live, records)
    cache.put(live.id, live.seq, history)
    return history


def seat_names(live: LiveGame) -> dict[str, str]:
    """Engine player names (``Player 1`` in an imported game) to the names at the table."""
    return {p.name: live.name_of(p.id) for p in live.game.players}


def _draw_charts(history: GameHistory, kind: str, game_id: int, seq: int) -> list[Attachment]:
    from rendering import to_png
    from rendering.charts import render_chart

    image = render_chart(history, kind, caption=f"{history.title} game #{game_id}")  # type: ignore[arg-type]
    return [Attachment(f"game{game_id}-{seq:04d}-chart-{kind}.png", to_png(image), f"{kind} chart of game #{game_id}")]


async def chart_pictures(history: GameHistory, kind: str, game_id: int, seq: int) -> list[Attachment]:
    try:
        return await asyncio.to_thread(_draw_charts, history, kind, game_id, seq)
    except Exception:
        log.exception("drawing the %s chart of game %s failed", kind, game_id)
        return []


def _draw_summary(history: GameHistory, names: dict[str, str], game_id: int, seq: int) -> list[Attachment]:
    from rendering import to_png
    from rendering.summary import render_summary

    card = to_png(render_summary(history, names))
    return [Attachment(f"game{game_id}-{seq:04d}-summary.png", card, f"summary of game #{game_id}"),
            *_draw_charts(history, "all", game_id, seq)]


async def summary(
    storage: Storage, cache: StoryCache, live: LiveGame, *, pictures: bool = True
) -> tuple[str, list[Attachment]]:
    """The summary message of ``live`` and, with ``pictures``, its card and charts."""
    from rendering.summary import summary_text

    history = await history_of(storage, cache, live)
    names = seat_names(live)
    drawn: list[Attachment] = []
    if pictures:
        try:
            drawn = await asyncio.to_thread(_draw_summary, history, names, live.id, live.seq)
        except Exception:
            log.exception("drawing the summary of game %s failed", live.id)
    return summary_text(history, names), drawn


def network_hexes(game: Game, sym: str) -> list[str]:
    """The hexes where company ``sym`` has stations, home first; empty for an unknown company."""
    from engine.core.statusbuild import status_view

    for corp in status_view(game).corporations:
        if corp.sym.lower() == sym.lower():
            return list(corp.token_hexes)
    return []
