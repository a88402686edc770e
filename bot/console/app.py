"""The console adapter: chat lines on standard input, the bot's replies on standard output.

Each input line is one chat message, ``USER: TEXT``, optionally in a channel:
``#tables alice: /18xx new 1882``.
Messages addressed to the bot start with ``/18xx``; other chat is ignored. Replies are printed as

    bot: TEXT                        (a message in the channel)
    bot (to alice): [code] TEXT      (a refusal or other reply meant for the sender only)
    bot -> @bob: TEXT                (a personal ping: their turn, a request to approve)
    image: out/game1-0042-map.png    (an attachment, written into --out)
    file: out/1882-game1.json
    stored: game 1 action 42         (with --trace: the action was stored)

``import PATH`` reads the 18xx.games JSON file at PATH and hands it to the bot as an attachment.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
from pathlib import Path
from typing import TextIO

from bot import logs
from bot.config import Settings, load_settings
from bot.core.commands import strip_prefix, tokenize
from bot.core.import_file import MAX_IMPORT_BYTES, ImportRefused
from bot.core.replies import Outcome, Reply
from bot.core.service import GameService

PLATFORM = "console"
_LINE = re.compile(r"^\s*(?:#(?P<channel>[\w.\-]+)\s+)?(?P<user>[^\s:#][^:]*?)\s*:\s?(?P<text>.*)$")



def read_capped(path: Path) -> bytes:
    """A file's bytes, read no further than the upload cap: ``/dev/zero`` or a huge file is refused at once
    (as an oversized upload is), instead of filling the memory."""
    with path.open("rb") as file:
        data = file.read(MAX_IMPORT_BYTES + 1)
    if len(data) > MAX_IMPORT_BYTES:
        raise ImportRefused(f"the file is too large (over {MAX_IMPORT_BYTES // 2**20} MiB, the upload limit)")
    return data

class Console:
    """Reads chat lines, passes commands to the service and prints what it answers."""

    def __init__(
        self,
        service: GameService,
        settings: Settings,
        out_dir: Path,
        *,
        stdout: TextIO,
        default_user: str | None = None,
        trace: bool = False,
    ) -> None:
        self.service = service
        self.settings = settings
        self.out_dir = out_dir
        self.stdout = stdout
        self.default_user = default_user
        self.trace = trace
        self.names: dict[str, str] = {}

    def emit(self, line: str) -> None:
        self.stdout.write(line + "\n")
        self.stdout.flush()

    async def line(self, raw: str, number: int = 0) -> None:
        text = raw.rstrip("\n")
        if not text.strip() or text.lstrip().startswith("# ") or text.strip() == "#":
            return
        match = _LINE.match(text)
        channel = self.settings.channel
        if match is not None:
            channel = match.group("channel") or channel
            user, message = match.group("user").strip(), match.group("text")
        elif self.default_user is not None and text.lstrip().startswith(self.settings.command_prefix):
            user, message = self.default_user, text
        else:
            self.emit(
                f"console: line {number} is not a chat line; write NAME: {self.settings.command_prefix} "
                "COMMAND"
            )
            return
        command = strip_prefix(message, self.settings.command_prefix)
        if command is None:
            return  # ordinary chat
        user_id = user.lower()
        name = self.names.setdefault(user_id, user)
        attachments: list[bytes] = []
        words = tokenize(command)
        if len(words) == 2 and words[0].lower() == "import" and not words[1].startswith("{"):
            try:
                attachments.append(read_capped(Path(words[1]).expanduser()))
            except OSError as exc:
                self.emit(f"bot (to {name}): [{Outcome.MALFORMED}] cannot read {words[1]}: {exc.strerror}")
                return
            except ImportRefused as exc:
                self.emit(f"bot (to {name}): [{Outcome.MALFORMED}] cannot import {words[1]}: {exc}")
                return
            command = "import"
        replies = await self.service.handle(
            PLATFORM, channel, user_id, name, command, attachments=attachments
        )
        for reply in replies:
            self.show(reply, name)

    def show(self, reply: Reply, sender: str) -> None:
        if reply.ephemeral:
            head = f"bot (to {sender}): "
            code = "" if reply.outcome in (Outcome.OK, Outcome.PENDING) else f"[{reply.outcome}] "
        else:
            head, code = "bot: ", ""
        lines = reply.text.splitlines() or [""]
        self.emit(head + code + lines[0])
        for extra in lines[1:]:
            self.emit(head + extra)
        for attachment in reply.attachments:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / attachment.filename
            path.write_bytes(attachment.data)
            self.emit(f"{'image' if attachment.kind == 'image' else 'file'}: {path}")
        if self.trace and reply.seq is not None:
            self.emit(f"stored: game {reply.game_id} action {reply.seq}")
        for note in reply.notify:
            who = self.names.get(note.user_id, note.user_id)
            for extra in note.text.splitlines():
                self.emit(f"bot -> @{who}: {extra}")

    async def run(self, stdin: TextIO) -> None:
        number = 0
        while True:
            raw = await asyncio.to_thread(stdin.readline)
            if not raw:
                return
            number += 1
            await self.line(raw, number)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot console",
        description="Play 18xx games from a terminal, one chat line per input line.",
    )
    parser.add_argument("--db", help="SQLite database (default from config: data/roundhouse.db)")
    parser.add_argument("--out", help="folder for pictures and exports (default: out)")
    parser.add_argument("--channel", help="channel of lines without a #channel prefix (default: console)")
    parser.add_argument("--user", help="sender of lines that are only a command (interactive use)")
    parser.add_argument("--no-images", action="store_true", help="do not draw the map and market after moves")
    parser.add_argument("--trace", action="store_true", help="print a 'stored:' line for every stored action")
    parser.add_argument("--config", help="a TOML file with settings on top of config/defaults.toml")
    return parser


async def amain(
    argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = build_parser().parse_args(argv)
    settings = load_settings(args.config).with_overrides(
        database=args.db, out_dir=args.out, channel=args.channel, images=False if args.no_images else None
    )
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    service = await GameService.open(settings.database, settings)
    try:
        console = Console(
            service, settings, Path(settings.out_dir), stdout=stdout, default_user=args.user, trace=args.trace
        )
        if stdin.isatty():
            console.emit(
                f"Roundhouse console ({settings.database}). Type lines such as "
                f"'alice: {settings.command_prefix} new 1882'; Ctrl-D quits."
            )
        await console.run(stdin)
    finally:
        await service.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    logs.configure(logging.WARNING, "%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(amain(argv))
    except KeyboardInterrupt:
        return 130
