"""Hand-rolled stand-ins for the discord.py objects the adapter touches (chatbots.md §(c)).

Every method records its call. The keyword names of each fake method are a subset of the real method's
(``test_fakes.py`` checks this against ``inspect.signature`` of discord.py), so a call the fakes accept is a
call discord.py accepts too.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

_ids = itertools.count(900_000_000_000_000_001)


def snowflake() -> int:
    return next(_ids)


@dataclass
class Sent:
    """One message as the bot sent it."""

    content: str | None
    allowed_mentions: discord.AllowedMentions | None = None
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    ephemeral: bool = False
    where: str = ""  # "channel <id>", "dm <id>", "followup", "response"
    id: int = field(default_factory=snowflake)
    edits: list[dict[str, Any]] = field(default_factory=list)
    pinned_now: bool = False

    async def edit(self, *, content: str | None = None, view: discord.ui.View | None = None) -> Sent:
        self.edits.append({"content": content, "view": view})
        if view is None:
            self.view = None
        if content is not None:
            self.content = content
        return self

    async def pin(self) -> None:
        self.pinned_now = True

    @property
    def pinged(self) -> list[int]:
        """User ids this message may ping (discord.py's allowed_mentions semantics, as sent)."""
        am = self.allowed_mentions
        if am is None or am.users is False or am.users is True:
            return []
        return [u.id for u in am.users]

    @property
    def custom_ids(self) -> list[str]:
        if self.view is None:
            return []
        return [getattr(item, "custom_id", "") for item in self.view.children]

    @property
    def labels(self) -> list[str]:
        if self.view is None:
            return []
        return [str(getattr(item, "item", item).label) for item in self.view.children]

    @property
    def pictures(self) -> list[discord.File]:
        return [f for f in self.files if f.filename.endswith(".png")]


class FakeChannel:
    """A text channel or thread: records sends, creates threads (registered in the world)."""

    def __init__(self, world: World, channel_id: int, kind: discord.ChannelType, name: str = "") -> None:
        self.world = world
        self.id = channel_id
        self.type = kind
        self.name = name
        self.sent: list[Sent] = []
        self.deleted = False
        self.parent: FakeChannel | None = None  # a thread's channel
        self.members: list[int] = []  # users added to a private thread

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    async def add_user(self, user: Any, /) -> None:
        assert self.type == discord.ChannelType.private_thread, "users are added to private threads only"
        self.members.append(user.id)

    async def send(
        self,
        content: str | None = None,
        *,
        allowed_mentions: discord.AllowedMentions | None = None,
        files: list[discord.File] | None = None,
        view: discord.ui.View | None = None,
    ) -> Sent:
        if self.world.fail_sends:
            raise RuntimeError("the fake channel was told to fail")
        if self.world.refuse is not None:  # Discord's own answer: 403 with a JSON error code
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), {"code": self.world.refuse})
        message = Sent(content, allowed_mentions, list(files or []), view, where=f"channel {self.id}")
        self.sent.append(message)
        return message

    async def create_thread(
        self,
        *,
        name: str,
        type: discord.ChannelType | None = None,
        auto_archive_duration: int = 10080,
        invitable: bool = True,
        reason: str | None = None,
    ) -> FakeChannel:
        if self.type not in (discord.ChannelType.text, discord.ChannelType.news):
            raise AssertionError("threads are created from text channels only")
        if type == discord.ChannelType.private_thread:  # a practice copy: its owner's alone
            assert not invitable, "a practice copy's thread must not be open to invitations"
        else:
            assert type == discord.ChannelType.public_thread, "game threads must be public (spectators read them)"
        thread = self.world.add_channel(type, name)
        thread.parent = self
        return thread

    async def delete(self, *, reason: str | None = None) -> None:
        self.deleted = True


class FakeUser:
    def __init__(self, world: World, user_id: int, name: str) -> None:
        self.world = world
        self.id = user_id
        self.name = name
        self.display_name = name
        self.dms: list[Sent] = []
        self.dms_closed = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    async def send(
        self,
        content: str | None = None,
        *,
        allowed_mentions: discord.AllowedMentions | None = None,
        view: discord.ui.View | None = None,
    ) -> Sent:
        if self.dms_closed:
            raise discord.Forbidden(
                SimpleNamespace(status=403, reason="Forbidden"), "Cannot send messages to this user"
            )
        message = Sent(content, allowed_mentions, view=view, where=f"dm {self.id}")
        self.dms.append(message)
        return message


class FakeResponse:
    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction
        self.deferred: dict[str, bool] | None = None
        self.messages: list[Sent] = []

    def is_done(self) -> bool:
        return self.deferred is not None or bool(self.messages)

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert not self.is_done(), "an interaction is answered once"
        self.deferred = {"ephemeral": ephemeral, "thinking": thinking}

    async def send_message(
        self,
        content: Any | None = None,
        *,
        ephemeral: bool = False,
        allowed_mentions: discord.AllowedMentions = discord.utils.MISSING,
        files: list[discord.File] = discord.utils.MISSING,
        view: discord.ui.View = discord.utils.MISSING,
    ) -> None:
        assert not self.is_done(), "an interaction is answered once"
        self.messages.append(
            Sent(content, _given(allowed_mentions), list(_given(files) or []), _given(view), ephemeral, "response")
        )


class FakeFollowup:
    def __init__(self) -> None:
        self.messages: list[Sent] = []

    async def send(
        self,
        content: str = discord.utils.MISSING,
        *,
        ephemeral: bool = False,
        allowed_mentions: discord.AllowedMentions = discord.utils.MISSING,
        files: list[discord.File] = discord.utils.MISSING,
        view: discord.ui.View = discord.utils.MISSING,
    ) -> Sent:
        message = Sent(
            _given(content), _given(allowed_mentions), list(_given(files) or []), _given(view), ephemeral, "followup"
        )
        self.messages.append(message)
        return message


def _given(value: Any) -> Any:
    return None if value is discord.utils.MISSING else value


class FakeInteraction:
    """What a slash command, an autocomplete request or a button click gives the adapter."""

    def __init__(
        self,
        world: World,
        user: FakeUser,
        channel: FakeChannel | None,
        namespace: dict[str, Any] | None = None,
        message: Sent | None = None,
    ) -> None:
        self.world = world
        self.user = user
        self.channel = channel
        self.channel_id = channel.id if channel is not None else snowflake()
        self.guild_id = world.guild_id
        self.app_permissions = world.app_permissions
        self.namespace = SimpleNamespace(**(namespace or {}))
        self.response = FakeResponse(self)
        self.followup = FakeFollowup()
        self.client = world.client
        self.message = message
        self.original_deleted = False

    async def delete_original_response(self) -> None:
        assert self.response.deferred is not None, "nothing to delete"
        self.original_deleted = True

    @property
    def private(self) -> list[Sent]:
        """What only the user saw: the direct response and the follow-ups (all ephemeral here)."""
        return [*self.response.messages, *self.followup.messages]

    @property
    def private_text(self) -> str:
        return "\n".join(m.content or "" for m in self.private)


class FakeAttachment:
    def __init__(self, filename: str, data: bytes) -> None:
        self.filename = filename
        self.data = data
        self.size = len(data)

    async def read(self) -> bytes:
        return self.data


class World:
    """One Discord server as the adapter sees it; also the adapter's transport (channels and users by id)."""

    def __init__(self) -> None:
        self.guild_id = snowflake()
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {}
        self.client: Any = SimpleNamespace(roundhouse=None)
        self.fail_sends = False
        self.refuse: int | None = None  # an error code channels answer sends with (50013, 50083, ...)
        self.app_permissions = discord.Permissions.all()  # the bot's, as interactions carry them
        self.last_interaction: FakeInteraction | None = None

    def add_channel(self, kind: discord.ChannelType = discord.ChannelType.text, name: str = "") -> FakeChannel:
        channel = FakeChannel(self, snowflake(), kind, name)
        self.channels[channel.id] = channel
        return channel

    def add_user(self, name: str) -> FakeUser:
        user = FakeUser(self, snowflake(), name)
        self.users[user.id] = user
        return user

    # -- the adapter's Transport

    async def channel(self, channel_id: str) -> FakeChannel | None:
        return self.channels.get(int(channel_id)) if channel_id.isdigit() else None

    async def user(self, user_id: str) -> FakeUser | None:
        return self.users.get(int(user_id)) if user_id.isdigit() else None

    def interaction(
        self,
        user: FakeUser,
        channel: FakeChannel | None,
        namespace: dict[str, Any] | None = None,
        message: Sent | None = None,
    ) -> FakeInteraction:
        self.last_interaction = FakeInteraction(self, user, channel, namespace, message)
        return self.last_interaction

    def all_channel_messages(self) -> list[Sent]:
        return [m for c in self.channels.values() for m in c.sent]
