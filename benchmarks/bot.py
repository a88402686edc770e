"""Bot benchmarks: reply latency on a 900-action game, and a concurrent load run over 200 games.

Run from the repository root: ``.venv/bin/python benchmarks/bot.py [--games 200] [--seconds 60]``.

1. Latency. A seeded policy plays a 5-player 1882 game; its first 900 actions are sent through the console
   adapter, the process is "restarted" (a fresh service on the same database), and then every further command
   line is timed from the line to its printed reply (text only, no pictures). Requirement: p95 <= 50 ms.
2. Load. 200 games, each driven by its own task with 2-4 players, send commands concurrently for 60 s through
   two service instances sharing one database (as two bot processes would). Some commands are delivered twice
   at once, and some are raced by another player, on purpose. Every accepted reply carries the seq it was
   stored as; at the end each game's stored log must equal the actions acknowledged to the players (rebuilt
   command by command on a mirror game), with each seq acknowledged exactly once: nothing lost, nothing
   duplicated.

   ``--processes 4`` runs the bot as four separate processes instead (each its own GameService and database
   connections), reached over unix sockets; the players stay in this process and send each command to a
   random bot process. After the load, 2,000 due outbox items (reminders) are claimed by all bot processes at
   once: each must be claimed by exactly one, none left. ``--db postgresql`` runs all of it on a throwaway
   PostgreSQL server started here, with fsync on like SQLite's FULL (or ``--postgres-url URL``); the default
   is a SQLite file. E.g. ``--only load --processes 4 --db postgresql``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.config import Settings
from bot.console.app import Console
from bot.console.scripted import Move, Policy, command_intent, line, next_move
from bot.core.commands import CommandError
from bot.core.intents import deciding_player, to_command
from bot.core.replies import Outcome, Reply
from bot.core.service import GameService
from bot.storage import StaleStateError, Storage
from bot.storage.repo import DEFAULT_POOL_SIZE
from engine import GameError, new_game
from engine.core import query


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


# ---------------------------------------------------------------------- 1. latency


def long_game(min_moves: int, players: int) -> tuple[int, list[str], list[Move]]:
    """A policy game (seed, users, moves) lasting at least ``min_moves`` moves.

    Seeds are tried in order, each with the usual policy and with a calmer one (fewer purchases, so fewer
    bankruptcies), and with one more player; the first long enough game is used.
    """
    for seed in count(1):
        for n, bias in ((players, 0.85), (players + 1, 0.7)):
            found = _policy_game(seed, n, bias, min_moves)
            if found is not None:
                return seed, *found
    raise AssertionError("unreachable")


def _policy_game(seed: int, players: int, bias: float, min_moves: int) -> tuple[list[str], list[Move]] | None:
    users = [f"p{i + 1}" for i in range(players)]
    names = {i + 1: u for i, u in enumerate(users)}
    game = new_game("1882", [(i + 1, u) for i, u in enumerate(users)], seed=seed)
    policy = Policy(seed, bias)
    moves: list[Move] = []
    while not game.finished and len(moves) < min_moves:
        move = next_move(game, policy, names)
        if move is None:
            break
        moves.append(move)
    if len(moves) >= min_moves:
        return users, moves
    return None


def move_lines(move: Move) -> list[str]:
    out = [line(move.user, move.command)]
    if move.approver is not None:
        out.append(line(move.approver, "approve"))
    return out


async def latency(args: argparse.Namespace, folder: Path) -> bool:
    started = time.perf_counter()
    seed, users, moves = long_game(args.actions + args.measure, args.players)
    print(
        f"policy game: seed {seed}, {len(users)} players, {len(moves)} moves "
        f"({time.perf_counter() - started:.1f} s to play)"
    )
    db = await database(args, folder, "latency")
    settings = Settings(images=False, database=db, out_dir=str(folder / "out"))

    service = await GameService.open(db, settings)
    console = Console(service, settings, folder / "out", stdout=io.StringIO())
    setup = [
        line(users[0], f"new 1882 seed={seed}"),
        *(line(u, "join") for u in users[1:]),
        line(users[0], "start"),
    ]
    started = time.perf_counter()
    for text in setup + [x for m in moves[: args.actions] for x in move_lines(m)]:
        await console.line(text)
    stored = await service.storage.last_seq(1)
    took = time.perf_counter() - started
    print(f"built a game of {stored} stored actions through the console in {took:.1f} s")
    assert stored == args.actions, stored
    await service.close()

    # A new process: nothing cached.
    service = await GameService.open(db, settings)
    out = io.StringIO()
    console = Console(service, settings, folder / "out", stdout=out)
    t0 = time.perf_counter()
    await console.line(line("spectator", "status"))
    cold = time.perf_counter() - t0
    snapshot = await service.storage.load_snapshot(1)
    rows = await service.storage.load_actions(1)
    t0 = time.perf_counter()
    new_game("1882", [(i + 1, u) for i, u in enumerate(users)], seed=seed, actions=[a for _, a in rows])
    replay = time.perf_counter() - t0
    at = snapshot.seq if snapshot else None
    print(
        f"first command after a restart (load from the snapshot at {at} + log tail): {ms(cold)}; "
        f"a full replay of the {len(rows)} actions would take {ms(replay)}"
    )

    timings: dict[str, list[float]] = {"move": [], "approve": [], "refused": [], "status": [], "who": []}
    rng = random.Random(seed)
    acting = moves[args.actions].user
    for i, move in enumerate(moves[args.actions : args.actions + args.measure]):
        if i % 5 == 0:
            extra = [("status", line(rng.choice(users), "status")), ("who", line("spectator", "who"))]
            idle = next((u for u in users if u != move.user), users[0])
            extra.append(("refused", line(idle, move.command)))
            for kind, text in extra:
                t0 = time.perf_counter()
                await console.line(text)
                timings[kind].append(time.perf_counter() - t0)
        for kind, text in zip(("move", "approve"), move_lines(move), strict=False):
            t0 = time.perf_counter()
            await console.line(text)
            timings[kind].append(time.perf_counter() - t0)
        acting = move.user
    final = await service.storage.last_seq(1)
    await service.close()
    assert final == args.actions + args.measure, (final, acting)
    every = [t for values in timings.values() for t in values]
    print(
        f"{len(every)} command lines on the game with {args.actions}..{final} actions "
        "(text replies, no images):"
    )
    for kind, values in timings.items():
        if values:
            print(
                f"  {kind:8} n={len(values):4}  p50 {ms(statistics.median(values)):>9}  "
                f"p95 {ms(percentile(values, 95)):>9}  max {ms(max(values)):>9}"
            )
    p95 = percentile(every, 95)
    ok = p95 <= 0.050
    print(
        f"  all      n={len(every):4}  p50 {ms(statistics.median(every)):>9}  p95 {ms(p95):>9}  "
        f"max {ms(max(every)):>9}   requirement p95 <= 50 ms: {'PASS' if ok else 'FAIL'}"
    )
    return ok


# ---------------------------------------------------------------------- 2. load


@dataclass
class Stats:
    commands: int = 0
    latencies: list[float] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=dict)
    players_seconds: float = 0.0  # time the simulated players spent choosing and checking moves


@dataclass
class Played:
    """One game as its players saw it: acknowledged commands by seq, and the mirror rebuilt from them."""

    game_id: int
    users: list[str]
    mirror: Any
    acks: dict[int, tuple[str, str]] = field(default_factory=dict)  # seq -> (user, command)
    duplicate_acks: list[int] = field(default_factory=list)
    divergence: str | None = None


def choose(game: Any, policy: Policy, names: dict[int, str]) -> tuple[str, str, str | None] | None:
    """A legal move for the policy (user, command, approver), without applying it."""
    for ent in query.deciding_entities(game):
        player = deciding_player(ent)
        if player is None:
            continue
        for choice in policy.order(query.all_choices(game, ent)):
            try:
                text = to_command(game, choice)
                intent = command_intent(game, player, text)
            except (CommandError, KeyError, ValueError):
                continue
            other = names[intent.counterparty.id] if intent.counterparty is not None else None
            return names[player.id], text, other
    return None


class GameDriver:
    """The players of one channel: they start a game, play it out and start the next one."""

    def __init__(self, index: int, services: list[Any], stats: Stats, rng: random.Random) -> None:
        self.channel = f"table-{index}"
        self.services = services
        self.stats = stats
        self.rng = rng
        self.players = rng.randint(2, 4)
        self.users = [f"t{index}p{k + 1}" for k in range(self.players)]
        self.names = {k + 1: u for k, u in enumerate(self.users)}
        self.played: list[Played] = []
        self.policy = Policy(0)

    async def send(self, user: str, text: str) -> Reply:
        service = self.rng.choice(self.services)
        t0 = time.perf_counter()
        (reply,) = await service.handle("load", self.channel, user, user, text)
        self.stats.latencies.append(time.perf_counter() - t0)
        self.stats.commands += 1
        key = str(reply.outcome)
        self.stats.outcomes[key] = self.stats.outcomes.get(key, 0) + 1
        return reply

    async def new_game(self) -> None:
        seed = self.rng.randrange(1, 2**31)
        reply = await self.send(self.users[0], f"new 1882 seed={seed}")
        assert reply.ok, reply.text
        for user in self.users[1:]:
            assert (await self.send(user, "join")).ok
        reply = await self.send(self.users[0], "start")
        assert reply.ok and reply.game_id is not None, reply.text
        mirror = new_game("1882", [(k + 1, u) for k, u in enumerate(self.users)], seed=seed)
        self.played.append(Played(reply.game_id, self.users, mirror))
        self.policy = Policy(seed)

    def acknowledge(self, played: Played, acks: list[tuple[int, str, str]]) -> None:
        """Rebuild the acknowledged commands on the mirror, in the order the bot stored them."""
        for seq, user, text in sorted(acks):
            if seq in played.acks:
                played.duplicate_acks.append(seq)
                continue
            played.acks[seq] = (user, text)
            if played.divergence:
                continue
            player = next(p for p in played.mirror.players if p.id == self.users.index(user) + 1)
            try:
                played.mirror.process(command_intent(played.mirror, player, text).action)
            except (CommandError, GameError) as exc:
                played.divergence = f"seq {seq} {user}: {text}: {exc}"
                continue
            if len(played.mirror.raw_actions) != seq:
                played.divergence = f"seq {seq} acknowledged as action {len(played.mirror.raw_actions)}"

    async def run(self, deadline: float) -> None:
        await self.new_game()
        while time.perf_counter() < deadline:
            played = self.played[-1]
            if played.mirror.finished or played.divergence:
                await self.new_game()
                continue
            t0 = time.perf_counter()
            pick = choose(played.mirror, self.policy, self.names)
            self.stats.players_seconds += time.perf_counter() - t0
            if pick is None:
                await self.new_game()
                continue
            user, text, approver = pick
            batch = [(user, text)]
            roll = self.rng.random()
            if roll < 0.05:
                batch.append((user, text))  # delivered twice at once (a retry, a double click)
            elif roll < 0.08:
                batch.append((self.rng.choice(self.users), text))  # someone else races the same command
            replies = await asyncio.gather(*(self.send(u, t) for u, t in batch))
            acks: list[tuple[int, str, str]] = []
            for (u, t), reply in zip(batch, replies, strict=True):
                if reply.outcome == Outcome.OK and reply.seq is not None:
                    acks.append((reply.seq, u, t))
                elif reply.outcome == Outcome.PENDING and approver is not None:
                    answer = await self.send(approver, "approve")
                    if answer.outcome == Outcome.OK and answer.seq is not None:
                        acks.append((answer.seq, u, t))
            t0 = time.perf_counter()
            self.acknowledge(played, acks)
            self.stats.players_seconds += time.perf_counter() - t0


async def verify(storage: Storage, drivers: list[GameDriver]) -> tuple[int, int, list[str]]:
    problems: list[str] = []
    games = actions = 0
    for driver in drivers:
        for played in driver.played:
            games += 1
            records = await storage.load_action_records(played.game_id)
            actions += len(records)
            where = f"game {played.game_id} ({driver.channel})"
            if played.divergence:
                problems.append(f"{where}: {played.divergence}")
            if played.duplicate_acks:
                problems.append(f"{where}: seqs acknowledged twice: {played.duplicate_acks}")
            if sorted(played.acks) != list(range(1, len(records) + 1)):
                problems.append(
                    f"{where}: {len(records)} stored, acknowledged seqs {sorted(played.acks)[:5]}..."
                )
                continue
            if [r.data for r in records] != played.mirror.raw_actions:
                problems.append(f"{where}: the stored log differs from the acknowledged commands")
            wrong_actor = [r.seq for r in records if r.actor != played.acks[r.seq][0]]
            if wrong_actor:
                problems.append(f"{where}: actions stored for the wrong user: {wrong_actor[:5]}")
    return games, actions, problems


class RemoteService:
    """One bot process of the load run (``--worker``), reached over a unix socket: a JSON line per request."""

    def __init__(self, proc: asyncio.subprocess.Process, reader: asyncio.StreamReader, writer: Any) -> None:
        self.proc = proc
        self.reader = reader
        self.writer = writer
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.ids = count()
        self.listener = asyncio.create_task(self._listen())

    @classmethod
    async def start(cls, index: int, db: str, folder: Path, pool_size: int) -> RemoteService:
        path = folder / f"bot-{index}.sock"
        proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--worker", str(path), "--database", db, "--pool-size", str(pool_size)
        )
        for _ in range(600):
            if path.exists():
                break
            if proc.returncode is not None:
                raise RuntimeError(f"bot process {index} ended with {proc.returncode}")
            await asyncio.sleep(0.1)
        reader, writer = await asyncio.open_unix_connection(str(path), limit=2**24)
        return cls(proc, reader, writer)

    async def _listen(self) -> None:
        while line := await self.reader.readline():
            answer = json.loads(line)
            self.pending.pop(answer["id"]).set_result(answer)

    async def call(self, **request: Any) -> dict[str, Any]:
        request["id"] = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[request["id"]] = future
        self.writer.write(json.dumps(request).encode() + b"\n")
        await self.writer.drain()
        return await future

    async def handle(self, platform: str, channel: str, user_id: str, user_name: str, text: str) -> list[Reply]:
        a = await self.call(op="handle", platform=platform, channel=channel, user=user_id, name=user_name, text=text)
        return [Reply(a["text"], outcome=Outcome(a["outcome"]), game_id=a["game_id"], seq=a["seq"])]

    async def close(self) -> None:
        with contextlib.suppress(ConnectionError):
            await self.call(op="stop")
        self.writer.close()  # the bot process's reader sees the end and finishes
        await self.proc.wait()
        self.listener.cancel()


async def worker(socket_path: str, db: str, pool_size: int) -> None:
    """A bot process: a GameService on ``db`` answering the load run's requests until told to stop."""
    service = GameService(await Storage.open(db, pool_size=pool_size), Settings(images=False, database=db))
    stale = {"n": 0}
    real = service.storage.append_action

    async def counted(*a: Any, **k: Any) -> int:
        try:
            return await real(*a, **k)
        except StaleStateError:
            stale["n"] += 1
            raise

    service.storage.append_action = counted  # type: ignore[method-assign]
    stop = asyncio.Event()
    served = asyncio.Event()

    async def answer(request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "handle":
            (reply,) = await service.handle(
                request["platform"], request["channel"], request["user"], request["name"], request["text"]
            )
            return {"text": reply.text, "outcome": str(reply.outcome.value), "game_id": reply.game_id, "seq": reply.seq}
        if op == "claim_due":  # the reminder loop's claim: whatever is due, each item marked sent by one process
            claimed: list[int] = []
            while items := await service.storage.outbox_due(request["now"], limit=50):
                for item in items:
                    if await service.storage.outbox_mark_sent(item.id, now=request["now"]):
                        claimed.append(item.id)
            return {"claimed": claimed}
        if op == "stats":
            return {"stale": stale["n"], "pid": os.getpid()}
        stop.set()
        return {}

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        lock = asyncio.Lock()
        tasks: set[asyncio.Task[None]] = set()

        async def one(request: dict[str, Any]) -> None:
            result = await answer(request)
            async with lock:
                writer.write(json.dumps({"id": request["id"], **result}).encode() + b"\n")
                await writer.drain()

        while line := await reader.readline():
            task = asyncio.create_task(one(json.loads(line)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks, return_exceptions=True)
        served.set()

    server = await asyncio.start_unix_server(serve, socket_path, limit=2**24)
    try:
        await stop.wait()
        with contextlib.suppress(TimeoutError):  # the load run hangs up after "stop"
            await asyncio.wait_for(served.wait(), 10)
    finally:
        server.close()
        await service.close()


async def database(args: argparse.Namespace, folder: Path, name: str) -> str:
    """The load run's database: a SQLite file, or a fresh schema on the PostgreSQL server."""
    if args.db == "sqlite":
        return str(folder / f"{name}.db")
    import asyncpg

    conn = await asyncpg.connect(args.postgres_url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return f"{args.postgres_url}{'&' if '?' in args.postgres_url else '?'}search_path={name}"


async def claim_reminders(storage: Storage, services: list[RemoteService], items: int) -> list[str]:
    """Every bot process claims due reminders at once: each item exactly once, none left behind."""
    now = time.time()
    for n in range(items):
        await storage.outbox_enqueue(
            f"bench:{n}", platform="load", user_id=f"u{n % 97}", kind="bench", payload={"n": n}, due_at=now - n
        )
    started = time.perf_counter()
    answers = await asyncio.gather(*(s.call(op="claim_due", now=now + 1) for s in services))
    took = time.perf_counter() - started
    claims = [item for answer in answers for item in answer["claimed"]]
    per_process = [len(answer["claimed"]) for answer in answers]
    problems: list[str] = []
    twice = len(claims) - len(set(claims))
    left = await storage.outbox_due(now + 1, limit=items)
    print(
        f"  reminders: {items} due items claimed by {len(services)} bot processes at once in {took:.2f} s "
        f"(per process {per_process}); claimed twice: {twice}; left unclaimed: {len(left)}"
    )
    if twice:
        problems.append(f"{twice} reminders claimed by two processes")
    if len(set(claims)) != items or left:
        problems.append(f"{items - len(set(claims))} reminders never claimed")
    return problems


async def load(args: argparse.Namespace, folder: Path) -> bool:
    db = await database(args, folder, "load")
    settings = Settings(images=False, database=db)
    stale_counter = {"n": 0}
    services: list[Any]
    if args.processes:
        services = [await RemoteService.start(i, db, folder, args.pool_size) for i in range(args.processes)]
    else:
        services = [await GameService.open(db, settings) for _ in range(args.services)]
        for service in services:
            real = service.storage.append_action

            async def counted(*a: Any, _real: Any = real, **k: Any) -> int:
                try:
                    return int(await _real(*a, **k))
                except StaleStateError:
                    stale_counter["n"] += 1
                    raise

            service.storage.append_action = counted
    stats = Stats()
    rng = random.Random(args.seed)
    drivers = [GameDriver(i, services, stats, random.Random(rng.random())) for i in range(args.games)]
    started = time.perf_counter()
    deadline = started + args.seconds
    await asyncio.gather(*(d.run(deadline) for d in drivers))
    elapsed = time.perf_counter() - started
    problems: list[str] = []
    async with await Storage.open(db) as storage:
        games, actions, problems = await verify(storage, drivers)
        if args.processes:
            stale_counter["n"] = sum([(await s.call(op="stats"))["stale"] for s in services])
            problems += await claim_reminders(storage, services, args.reminders)
    for service in services:
        await service.close()
    lat = stats.latencies
    where = f"{args.processes} bot processes" if args.processes else f"{args.services} service instances"
    kind = "a SQLite file" if args.db == "sqlite" else "PostgreSQL"
    print(f"{args.games} channels, {games} games, {where} on one database ({kind}), {elapsed:.1f} s:")
    print(
        f"  {stats.commands} commands = {stats.commands / elapsed:.0f} commands/s; "
        f"{actions} actions stored = {actions / elapsed:.0f} actions/s"
    )
    bot_seconds = elapsed - stats.players_seconds
    print(
        f"  the simulated players used {stats.players_seconds:.1f} s of that (same process, same CPU); "
        f"per second of bot time: {stats.commands / bot_seconds:.0f} commands/s"
    )
    print(
        f"  outcomes: {dict(sorted(stats.outcomes.items()))}; appends refused as stale: {stale_counter['n']}"
    )
    print(
        f"  latency under load{' (with the unix-socket hop)' if args.processes else ''}: "
        f"p50 {ms(statistics.median(lat))}, p95 {ms(percentile(lat, 95))}, max {ms(max(lat))}"
    )
    if problems:
        print(f"  FAIL: {len(problems)} problems")
        for problem in problems[:20]:
            print("   ", problem)
        return False
    print(
        f"  PASS: every game's stored log equals its acknowledged commands; {actions} seqs acknowledged "
        "exactly once each, none lost, none duplicated"
        + ("; every reminder claimed exactly once" if args.processes else "")
    )
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=900, help="actions in the latency game before timing")
    parser.add_argument("--measure", type=int, default=150, help="moves timed after that")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--services", type=int, default=2, help="service instances sharing the database")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("latency", "load"))
    parser.add_argument("--processes", type=int, default=0, help="load: run the bot as this many processes")
    parser.add_argument("--reminders", type=int, default=2000, help="load with --processes: due items to claim")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite", help="the database to use")
    parser.add_argument("--postgres-url", help="with --db postgresql: this server instead of a throwaway one")
    parser.add_argument("--pool-size", type=int, default=DEFAULT_POOL_SIZE, help="PostgreSQL connections per bot")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # internal: be one bot process on this socket
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(worker(args.worker, args.database, args.pool_size))
        return 0
    ok = True
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as cleanup:
        folder = Path(tmp)
        if args.db == "postgresql" and not args.postgres_url:
            from tests import pg_server

            server = folder / "postgres"
            args.postgres_url = pg_server.start(server, durable=True)
            cleanup.callback(pg_server.stop, server)
            print(f"PostgreSQL: a throwaway server with fsync on, at {args.postgres_url}")
        if args.only in (None, "latency"):
            print("== latency ==")
            ok = asyncio.run(latency(args, folder)) and ok
        if args.only in (None, "load"):
            print("== load ==")
            ok = asyncio.run(load(args, folder)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
