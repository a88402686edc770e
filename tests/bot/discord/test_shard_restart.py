"""One shard's process restarts while moves flow through the others (three processes on one database): no move is
lost or doubled, and the restarted process carries on from the stored log, its old buttons included."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.config import Settings
from tests.bot.conftest import FakeClock
from tests.bot.discord.conftest import Bot, new_game, open_bot
from tests.bot.discord.fakes import FakeChannel, FakeUser, World

#: (player, command) in turn order: the private auction of a 4-player 1882 game.
MOVES = [("alice", "buy HB"), ("bob", "pass"), ("carol", "pass"), ("dave", "pass"), ("alice", "pass")]


async def test_a_shard_process_restarts_while_moves_flow_through_the_others(
    tmp_path: Path, world: World, clock: FakeClock, settings: Settings, lobby: FakeChannel, users: dict[str, FakeUser]
) -> None:
    db = tmp_path / "games.db"
    opened = [await open_bot(db, world, clock, settings) for _ in range(3)]
    restarting, *others = (bot for bot, _ in opened)
    services = [service for _, service in opened]
    try:
        thread = await new_game(restarting, lobby, users)
        storage = services[1].storage

        async def moves_through_the_others() -> list[str]:
            answers = []
            for n, (player, command) in enumerate(MOVES[:3]):
                verb, *args = command.split()
                options = {"what": args[0]} if args else {}
                answer = await others[n % 2].slash(users[player], verb, thread, **options)
                answers.append(answer.private_text)
                await asyncio.sleep(0)
            return answers

        async def restart() -> Bot:
            await services[0].close()  # the process stops (its cache and locks are gone)...
            await asyncio.sleep(0.01)
            bot, service = await open_bot(db, world, clock, settings)  # ...and starts again
            services[0] = service
            return bot

        answers, restarted = await asyncio.gather(moves_through_the_others(), restart())
        assert answers == ["", "", ""], answers  # each move accepted (refusals would be private)
        assert await storage.last_seq(1) == 3
        # The restarted process goes on from the stored log: dave's move and alice's.
        answer = await restarted.slash(users["dave"], "pass", thread)
        assert answer.private_text == ""
        answer = await restarted.slash(users["alice"], "pass", thread)
        assert answer.private_text == ""
        records = await storage.load_action_records(1)
        assert [r.seq for r in records] == [1, 2, 3, 4, 5]
        by_user = {str(u.id): name for name, u in users.items()}
        assert [by_user[r.actor] for r in records] == [player for player, _ in MOVES]
    finally:
        for service in services:
            await service.close()
