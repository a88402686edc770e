"""What the game service answers: platform-neutral replies that adapters only translate.

A command produces a list of :class:`Reply`. Each carries text, attachments (PNG images, the exported JSON),
the chat users to mention in that message, and :class:`Notification` s for users who should be pinged
personally (players who just became active, approvers of a request). Adapters decide how to deliver a
notification (channel mention, direct message, outbox); they never compute who to ping.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Outcome(StrEnum):
    """Stable result codes: tests and adapters match on these, never on the text."""

    OK = "ok"  # an informational command answered, or a game action accepted
    NO_GAME = "no_game"  # the channel has no game (or not the kind the command needs)
    NOT_SEATED = "not_seated"  # a spectator tried to act
    NOT_YOUR_TURN = "not_your_turn"
    MALFORMED = "malformed"  # the command could not be read (unknown verb, missing or bad argument)
    ILLEGAL = "illegal"  # readable, but against the rules or the game's state
    DENIED = "denied"  # not allowed for this user (start, redo, approve someone else's request ...)
    PENDING = "pending"  # accepted as a request that needs other players' consent
    CONFLICT = "conflict"  # the game changed under the command (race); nothing was stored
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to attach: a PNG image (``kind="image"``) or another file such as the JSON export."""

    filename: str
    data: bytes
    alt: str = ""
    kind: str = "image"  # "image" or "file"


@dataclass(frozen=True, slots=True)
class Notification:
    """A personal ping for one chat user (their turn, a request to approve, the game's end)."""

    user_id: str
    text: str
    kind: str = "turn"  # "turn", "consent", "game_end"
    game_id: int | None = None


@dataclass(slots=True)
class Reply:
    """One message from the bot.

    ``ephemeral`` replies are meant for the sender only (refusals, help); adapters that cannot whisper
    post them normally. ``mentions`` are chat user ids to mention inside this message.
    """

    text: str
    outcome: Outcome = Outcome.OK
    ephemeral: bool = False
    attachments: list[Attachment] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)
    notify: list[Notification] = field(default_factory=list)
    game_id: int | None = None
    seq: int | None = None  # the stored seq of the accepted action, when one was stored

    @property
    def ok(self) -> bool:
        return self.outcome in (Outcome.OK, Outcome.PENDING)

    @property
    def images(self) -> list[Attachment]:
        return [a for a in self.attachments if a.kind == "image"]


def refusal(outcome: Outcome, text: str, game_id: int | None = None) -> Reply:
    """A reply that refuses a command; only the sender needs to see it."""
    return Reply(text, outcome=outcome, ephemeral=True, game_id=game_id)
