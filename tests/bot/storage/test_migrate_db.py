"""``python -m bot migrate-db``: a bot's SQLite file moved to PostgreSQL, checked, and playable there."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path

from bot.__main__ import main as bot_main
from bot.config import Settings
from bot.core.replies import Reply
from bot.core.service import GameService
from bot.migrate_db import main, verify
from bot.storage import GameStatus, Storage
from tests.bot.storage.conftest import FakeClock, raw

HOUR = 3600.0


async def _in_thread(call: Callable[[], int]) -> int:
    return await asyncio.to_thread(call)


async def say(service: GameService, user: str, text: str, channel: str) -> Reply:
    (reply,) = await service.handle("test", channel, user, user.capitalize(), text)
    return reply


async def a_bots_file(path: Path, clock: FakeClock) -> dict[str, int]:
    """A file as a bot leaves it: games in every state, seats, prefs, a vote and a pending reminder."""
    settings = Settings(images=False, snapshot_every=2)  # a snapshot gets written too
    service = GameService(await Storage.open(path, clock=clock), settings, clock=clock)
    try:
        for user in ("alice", "bob", "carol"):
            assert (await say(service, user, "remind 12", "busy")).ok
        assert (await say(service, "alice", "new 1882 seed=5", "busy")).ok
        for user in ("bob", "carol"):
            assert (await say(service, user, "join", "busy")).ok
        assert (await say(service, "alice", "start", "busy")).ok
        for user, move in (("alice", "buy HB"), ("bob", "pass"), ("carol", "pass")):
            assert (await say(service, user, move, "busy")).ok, move
        assert (await say(service, "alice", "undo", "busy")).outcome.value == "pending"  # a vote stays open
        assert (await say(service, "dave", "new 1882 seed=9", "open")).ok  # an open game with one seat
        assert (await say(service, "erin", "new 1882 seed=3", "gone")).ok
        assert (await say(service, "frank", "join", "gone")).ok
        assert (await say(service, "erin", "start", "gone")).ok
        gone = (await service.storage.find_game("test", "gone"))
        assert gone is not None
        await service.storage.update_game_status(gone.id, GameStatus.ABANDONED)
        busy = await service.storage.find_game("test", "busy")
        assert busy is not None
        assert await service.storage.outbox_pending(busy.id)  # the next reminder waits in the outbox
        return {"busy": busy.id, "last_seq": await service.storage.last_seq(busy.id)}
    finally:
        await service.close()


async def test_migrate_db_moves_everything_and_the_game_goes_on(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    file = tmp_path / "bot.db"
    made = await a_bots_file(file, clock)
    out = io.StringIO()
    # Through the real entry point (asyncio.run inside): the test's own loop is not involved.
    assert await _in_thread(lambda: main([str(file), postgres_url], out=out)) == 0, out.getvalue()
    assert "3 games, 6 seats, 3 actions" in out.getvalue() and "3 user_prefs, 1 consents" in out.getvalue()
    assert "games replay alike on both" in out.getvalue()

    service = GameService(await Storage.open(postgres_url, clock=clock), Settings(images=False), clock=clock)
    try:
        assert await service.storage.last_seq(made["busy"]) == made["last_seq"]
        assert (await say(service, "bob", "approve", "busy")).ok  # the open vote came along
        assert (await say(service, "carol", "approve", "busy")).ok
        who = await say(service, "bob", "who", "busy")
        assert who.ok
        clock.advance(13 * HOUR)
        reminded = {n.user_id for n in await service.due_notifications()}
        assert reminded  # the pending reminder chain moved too
        assert (await say(service, "gina", "new 1882 seed=1", "fresh")).ok  # new ids follow the copied ones
        fresh = await service.storage.find_game("test", "fresh")
        assert fresh is not None and fresh.id == 4
    finally:
        await service.close()

    again = io.StringIO()
    assert await _in_thread(lambda: main([str(file), postgres_url], out=again)) == 2
    assert "nothing copied" in again.getvalue()


async def test_a_difference_between_the_sides_is_reported(
    tmp_path: Path, postgres_url: str, clock: FakeClock
) -> None:
    file = tmp_path / "bot.db"
    made = await a_bots_file(file, clock)
    assert await _in_thread(lambda: main([str(file), postgres_url], out=io.StringIO())) == 0
    async with await Storage.open(file) as source, await Storage.open(postgres_url) as target:
        await raw(target, "UPDATE seats SET display_name = 'Mallory' WHERE game_id = ?", (made["busy"],))
        _, problems = await verify(source, target)
    assert any(p.startswith("seats:") for p in problems), problems


def test_the_bot_entry_point_knows_the_command(tmp_path: Path) -> None:
    assert bot_main(["migrate-db", str(tmp_path / "missing.db"), "postgresql://nobody@/none"]) == 2
