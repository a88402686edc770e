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
    STALE = "stale"  # a button (or a command with ``@N``) from an earlier step of the game; nothing was stored
    GAME_OVER = "game_over"
    BROKEN = "broken"  # the game's stored log no longer replays with this engine: it cannot continue
    INTERNAL = "internal"  # a bug on our side: logged with an incident id; nothing was stored


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to attach: a PNG image (``kind="image"``) or another file such as the JSON export."""

    filename: str
    data: bytes
    alt: str = ""
    kind: str = "image"  # "image" or "file"


#: Button styles adapters understand (Discord's and Slack's common ground).
BUTTON_STYLES = ("primary", "secondary", "success", "danger")


@dataclass(frozen=True, slots=True)
class Button:
    """A one-click command: clicking it sends ``command`` (without the bot's prefix) as the clicking user.

    The service checks every click like typed text, so a button in a channel is safe to show to everyone:
    only the acting player's click is accepted. A move button's command starts with ``@N``, the number of
    actions the game had when the button was made, so a second or late click is refused once the game has
    moved on (see :func:`bot.core.commands.split_position`).
    """

    label: str
    command: str
    style: str = "secondary"  # one of BUTTON_STYLES


#: Where a Notification goes: a mention in the game's channel, a direct message, or both.
DELIVERIES = ("channel", "dm", "both")


@dataclass(frozen=True, slots=True)
class Notification:
    """A personal ping for one chat user (their turn, a reminder, a request to approve, the game's end).

    The service has already applied the user's preferences: users who turned pings off or are away get no
    turn notification at all, and ``delivery`` is where this one must go. ``platform`` and ``channel`` name
    the game's channel (post there for "channel"; send button clicks from a DM there as well).

    ``mentioned`` is True when the reply carrying this notification already mentions the user, so the
    channel part is done once that reply is posted: adapters then only send the DM part (see
    :attr:`to_channel` and :attr:`to_dm`). Notifications from ``GameService.due_notifications`` (reminders,
    pings delayed by quiet hours) are never mentioned: adapters deliver both parts themselves.
    ``due_at`` is set on delayed deliveries (when it became due); None means "now". ``buttons`` are the
    user's one-click answers (their moves, Approve/Decline); clicks count as commands in ``channel``.
    """

    user_id: str
    text: str
    kind: str = "turn"  # "turn", "reminder", "consent", "game_end", "broken", "test"
    game_id: int | None = None
    platform: str = ""
    channel: str = ""
    delivery: str = "channel"  # one of DELIVERIES
    due_at: float | None = None
    mentioned: bool = False
    buttons: tuple[Button, ...] = ()

    @property
    def to_channel(self) -> bool:
        """Post ``text`` in ``channel`` mentioning the user (not done yet by a reply)."""
        return self.delivery in ("channel", "both") and not self.mentioned

    @property
    def to_dm(self) -> bool:
        """Send ``text`` to the user directly."""
        return self.delivery in ("dm", "both")


@dataclass(slots=True)
class Reply:
    """One message from the bot.

    ``ephemeral`` replies are meant for the sender only (refusals, help); adapters that cannot whisper
    post them normally. ``mentions`` are chat user ids to mention inside this message. ``buttons`` are
    one-click commands (the acting player's likely moves, Approve/Decline of a request).
    """

    text: str
    outcome: Outcome = Outcome.OK
    ephemeral: bool = False
    attachments: list[Attachment] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)
    notify: list[Notification] = field(default_factory=list)
    game_id: int | None = None
    seq: int | None = None  # the stored seq of the accepted action, when one was stored
    buttons: list[Button] = field(default_factory=list)  # one-click commands, most useful first (<= 10)
    #: The game's board message: adapters keep one per game pinned in its channel and edit it in place.
    board: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome in (Outcome.OK, Outcome.PENDING)

    @property
    def images(self) -> list[Attachment]:
        return [a for a in self.attachments if a.kind == "image"]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One of a user's games, for overviews that are not text (Slack's App Home)."""

    game_id: int
    title: str
    channel: str
    started: bool
    round: str = ""
    your_turn: tuple[str, ...] = ()  # what the user acts for now (their name, a company), if anything
    waiting_for: str = ""  # who must act, when it is not the user
    problem: str = ""  # why the game cannot go on (its log no longer replays)


def refusal(outcome: Outcome, text: str, game_id: int | None = None) -> Reply:
    """A reply that refuses a command; only the sender needs to see it."""
    return Reply(text, outcome=outcome, ephemeral=True, game_id=game_id)
