"""Seeded junk through a whole game: whatever players and spectators type, the bot answers it, never crashes.

Between the legal moves of a seeded game, players and a spectator send mutated copies of the next move and
random verbs with random words (huge numbers, unknown names, stray quotes and mentions); at three points of
the game every verb is also sent with each awkward word. No reply may be an ``internal`` outcome (an
unexpected exception). Junk that happens to be legal is kept, and the game is
followed from what the bot stored (its export) rather than from the script.
"""

from __future__ import annotations

import json
import random

from bot.console.scripted import Policy, next_move
from bot.core.commands import VERBS
from bot.core.replies import Outcome, Reply
from bot.core.service import GameService
from engine import new_game
from engine.importer import parse_game_json, replay

USERS = ("alice", "bob", "carol")
WORDS = [
    "CPR", "CNR", "HBR", "GT", "SC", "QLL", "CN", "NWR", "TB", "CP", "HB", "pool", "auto", "trade", "from",
    "D", "2", "3", "6", "0", "-1", "1.5", "99999999999999999999", "E9", "G11", "Z99", "57", "63", "abc",
    "é", "'\"", ";", "@here", "<@123>", "x" * 300, "#7", "$100",
]  # fmt: skip
AWKWARD = ["99999999999999999999", "-99999999999999999999", "-1", "0", "1.5", "#", "$", "zz", "x" * 300]
SWEEP_AT = (0, 40, 100)  # moves into the game


async def test_junk_between_the_moves_of_a_game_never_crashes_the_bot(service: GameService) -> None:
    rng = random.Random(20261123)
    verbs = [v.name for v in VERBS]

    async def say(user: str, text: str) -> list[Reply]:
        replies = await service.handle("test", "junk", user, user, text)
        crashes = [r.text for r in replies if r.outcome == Outcome.INTERNAL]
        assert not crashes, f"{user}: {text!r} -> {crashes}"
        return replies

    await say("alice", "new 1882 seed=13")
    for user in USERS[1:]:
        await say(user, "join")
    await say("alice", "start")
    game = new_game("1882", [(i + 1, u) for i, u in enumerate(USERS)], seed=13)
    names = {i + 1: u for i, u in enumerate(USERS)}
    policy = Policy(13)

    async def follow_the_bot() -> None:
        nonlocal game
        exported = next(a for r in await say("alice", "export") for a in r.attachments)
        game = replay(parse_game_json(json.loads(exported.data)))

    async def junk(user: str, text: str) -> bool:
        """Send junk; True when it happened to be a legal move or a request (the game is then re-read)."""
        replies = await say(user, text)
        if not any(r.seq is not None or r.outcome == Outcome.PENDING for r in replies):
            return False
        for other in USERS:
            await say(other, "decline")
        await follow_the_bot()
        return True

    sent = 0
    for moves in range(120):
        if moves in SWEEP_AT:
            for verb in verbs:
                if verb in ("abandon", "leave", "new", "import"):
                    continue  # they end or replace the game; their refusals are tested elsewhere
                for word in AWKWARD:
                    await junk(rng.choice((*USERS, "spectator")), f"{verb} {word} {word}")
                    sent += 1
        move = next_move(game, policy, names)
        if move is None:
            break
        user = rng.choice((*USERS, "spectator"))
        if rng.random() < 0.5:
            words = move.command.split()
            words[rng.randrange(len(words))] = rng.choice(WORDS)
            text, user = " ".join(words), rng.choice((move.user, user))
        else:
            text = " ".join([rng.choice(verbs)] + [rng.choice(WORDS) for _ in range(rng.randrange(4))])
        sent += 1
        if await junk(user, text):
            continue
        replies = await say(move.user, move.command)
        if move.approver is not None:
            replies += await say(move.approver, "approve")
        if not any(r.ok for r in replies):
            await follow_the_bot()
    assert sent >= 100 + len(SWEEP_AT) * len(AWKWARD) * 20
    assert len(game.raw_actions) > 60  # the game moved on between the junk
