"""Turning the service's replies into Discord message parts: text chunks, files, mentions.

Which pictures go out at all (only those that changed) is decided by :mod:`bot.core.pictures`.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence

import discord

from bot.core.replies import Attachment, Notification
from bot.core.text import split_text as core_split

MAX_CONTENT = 2000  # Discord's limit for a message's text
MAX_FILES = 10  # attachments per message
MAX_UPLOAD = 10 * 1024 * 1024  # default upload limit per message (bytes)


def split_text(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """``text`` in pieces that fit one Discord message each."""
    return core_split(text, limit)


def to_files(attachments: Sequence[Attachment]) -> tuple[list[discord.File], list[str]]:
    """Discord files for the attachments (a File is single-use), and notes on those left out for size."""
    files: list[discord.File] = []
    left_out: list[str] = []
    total = 0
    for attachment in attachments:
        size = len(attachment.data)
        if len(files) >= MAX_FILES or total + size > MAX_UPLOAD:
            left_out.append(f"({attachment.filename} is too large to attach)")
            continue
        total += size
        files.append(
            discord.File(io.BytesIO(attachment.data), filename=attachment.filename, description=attachment.alt or None)
        )
    return files, left_out


def user_ids(ids: Iterable[str]) -> list[int]:
    """Discord snowflakes among chat user ids (other platforms' ids are skipped)."""
    return [int(u) for u in dict.fromkeys(ids) if u.isdigit()]


def mentions_only(ids: Iterable[str]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly these users: no roles, no @everyone, no replied-to author."""
    users = [discord.Object(id=u) for u in user_ids(ids)]
    if not users:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(users=users, everyone=False, roles=False, replied_user=False)


def ping_lines(mentions: Sequence[str], notes: Sequence[Notification]) -> list[str]:
    """The mentions a public reply ends with.

    A player whose turn it now is gets a line of their own with the gist of their turn notification (its
    headline, and the one-line digest after it). Everyone else mentioned (approvers of a request, players at
    the game's end) shares one line of bare mentions: the reply's own text already says what it is about.
    """
    turns = {n.user_id: n for n in notes if n.kind == "turn" and n.text}
    lines: list[str] = []
    others: list[str] = []
    for user in dict.fromkeys(u for u in mentions if u.isdigit()):
        note = turns.get(user)
        if note is None:
            others.append(f"<@{user}>")
            continue
        text = [line.strip() for line in note.text.splitlines() if line.strip()]
        gist = text[0]
        if len(text) > 1 and not text[1].endswith(":"):
            gist += " " + text[1]
        lines.append(f"<@{user}> {gist}")
    if others:
        lines.append(" ".join(others))
    return lines


def channel_link(channel: str) -> str:
    return f"<#{channel}>" if channel.isdigit() else channel


def link_channel(text: str, channel: str) -> str:
    """``text`` with the bare id of a Discord channel (as the service writes it) turned into a channel link."""
    if not channel.isdigit():
        return text
    return re.sub(rf"(?<![<#@\d]){channel}(?!\d)", f"<#{channel}>", text)
