"""A fake Discord REST API on 127.0.0.1 for running the real discord.py client offline.

``discord.http.Route.BASE`` is pointed at this server, so ``client.login()`` runs discord.py's own
``static_login``, ``application_info`` and ``setup_hook`` (with the command sync), and every answer of the bot
goes through discord.py's HTTP client, webhook follow-ups and serialisation. Interactions are fed to the
connection state as the gateway would deliver them. The server records each request and can answer a route
with a Discord error (``refuse``), as a real server does when a permission is missing or DMs are closed.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

APP_ID = 4_000_000_000_000_000_01
BOT_ID = APP_ID
GUILD_ID = 4_000_000_000_000_000_02
_ids = itertools.count(4_000_000_000_000_001_000)
STAMP = "2026-01-01T00:00:00+00:00"


def snowflake() -> int:
    return next(_ids)


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0", "avatar": None, "bot": bot}


@dataclass
class Request:
    method: str
    path: str
    body: dict[str, Any]


@dataclass
class FakeDiscord:
    requests: list[Request] = field(default_factory=list)
    #: (method, path regex) -> (status, Discord error code): the next matching requests are refused.
    refuse: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    commands: list[dict[str, Any]] = field(default_factory=list)
    channels: dict[int, dict[str, Any]] = field(default_factory=dict)  # threads created, DMs opened
    dms: set[int] = field(default_factory=set)
    closed_dms: bool = False  # users refuse direct messages from the bot (50007)
    url: str = ""

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("*", "/api/v10/{tail:.*}", self._handle)
        return app

    def of(self, method: str, pattern: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and re.fullmatch(pattern, r.path)]

    async def _body(self, request: web.Request) -> dict[str, Any]:
        if request.content_type.startswith("multipart/"):
            body: dict[str, Any] = {}
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body.update(json.loads(await part.text()))  # type: ignore[union-attr]
            return body
        raw = await request.read()
        return json.loads(raw) if raw else {}

    async def _handle(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body = await self._body(request)
        self.requests.append(Request(request.method, path, body))
        match = re.fullmatch(r"/channels/(\d+)/messages", path)
        if self.closed_dms and match and int(match[1]) in self.dms:
            return _json({"code": 50007, "message": "Cannot send messages to this user"}, 403)
        for (method, pattern), (status, code) in self.refuse.items():
            if method == request.method and re.fullmatch(pattern, path):
                return _json({"code": code, "message": f"refused ({code})"}, status)
        answer = self._answer(request.method, path, body)
        if answer is None:
            return web.Response(status=204)
        return _json(answer)

    def _answer(self, method: str, path: str, body: dict[str, Any]) -> Any:
        if path == "/users/@me":
            return user_payload(BOT_ID, "roundhouse", bot=True)
        if path == "/oauth2/applications/@me":
            return {
                "id": str(APP_ID),
                "name": "roundhouse",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": user_payload(1, "owner"),
                "verify_key": "0" * 64,
                "flags": 0,
            }
        if method == "PUT" and path.endswith("/commands"):
            self.commands = [{**c, "id": str(snowflake()), "application_id": str(APP_ID), "version": "1"} for c in body]
            return self.commands
        if method == "POST" and re.fullmatch(r"/interactions/\d+/[^/]+/callback", path):
            interaction_id = path.split("/")[2]
            return {"interaction": {"id": interaction_id, "type": body.get("type"), "response_message_id": None}}
        if method == "POST" and re.fullmatch(r"/webhooks/\d+/[^/]+", path):
            return self.message(snowflake(), body)
        if method in ("PATCH", "DELETE") and "/webhooks/" in path:
            return None if method == "DELETE" else self.message(snowflake(), body)
        match = re.fullmatch(r"/channels/(\d+)/threads", path)
        if match:
            thread = thread_payload(snowflake(), int(match[1]), str(body.get("name", "")))
            self.channels[int(thread["id"])] = thread
            return thread
        match = re.fullmatch(r"/channels/(\d+)", path)
        if match and method == "GET":
            return self.channels.get(int(match[1])) or channel_payload(int(match[1]))
        match = re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", path)
        if match:
            return self.message(int(match[2] or snowflake()), body, int(match[1]))
        if path == "/users/@me/channels":
            dm = snowflake()
            self.dms.add(dm)
            return {"id": str(dm), "type": 1, "recipients": [user_payload(int(body["recipient_id"]), "dm")]}
        match = re.fullmatch(r"/users/(\d+)", path)
        if match:
            return user_payload(int(match[1]), f"user{match[1][-3:]}")
        return None

    def message(self, message_id: int, body: dict[str, Any], channel_id: int = 0) -> dict[str, Any]:
        return {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": user_payload(BOT_ID, "roundhouse", bot=True),
            "content": body.get("content") or "",
            "timestamp": STAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": body.get("flags", 0),
            "components": body.get("components", []),
        }


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py compares the whole Content-Type header: aiohttp's json_response adds a charset.
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def channel_payload(channel_id: int, name: str = "games") -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(GUILD_ID),
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
    }


def thread_payload(thread_id: int, parent_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(thread_id),
        "type": 11,
        "guild_id": str(GUILD_ID),
        "parent_id": str(parent_id),
        "owner_id": str(BOT_ID),
        "name": name,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 10080,
            "archive_timestamp": STAMP,
            "locked": False,
        },
        "message_count": 0,
        "member_count": 0,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def guild_payload(channels: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": str(GUILD_ID),
        "name": "test server",
        "owner_id": "1",
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [
            {
                "id": str(GUILD_ID),
                "name": "@everyone",
                "permissions": str((1 << 41) - 1),
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
            }
        ],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "member_count": 3,
        "channels": channels,
        "threads": [],
        "members": [],
        "large": False,
        "unavailable": False,
    }


class Interactions:
    """Builds interaction payloads as the gateway delivers them."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def _base(self, kind: int, user: tuple[int, str], channel: dict[str, Any], permissions: int) -> dict[str, Any]:
        return {
            "id": str(snowflake()),
            "application_id": str(APP_ID),
            "type": kind,
            "token": f"tok{snowflake()}",
            "version": 1,
            "guild_id": str(GUILD_ID),
            "channel_id": channel["id"],
            "channel": channel,
            "member": {
                "user": user_payload(*user),
                "roles": [],
                "joined_at": STAMP,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str((1 << 41) - 1),
            },
            "app_permissions": str(permissions),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def command(
        self,
        user: tuple[int, str],
        channel: dict[str, Any],
        path: str,
        options: list[dict[str, Any]] | None = None,
        *,
        kind: int = 2,
        permissions: int = (1 << 41) - 1,
    ) -> dict[str, Any]:
        [command] = self.fake.commands
        nested: list[dict[str, Any]] = list(options or [])
        words = path.split()
        for depth, word in enumerate(reversed(words)):
            nested = [{"type": 1 if depth == 0 else 2, "name": word, "options": nested}]
        payload = self._base(kind, user, channel, permissions)
        payload["data"] = {"id": command["id"], "name": command["name"], "type": 1, "options": nested}
        return payload

    def click(
        self, user: tuple[int, str], channel: dict[str, Any], message: dict[str, Any], custom_id: str
    ) -> dict[str, Any]:
        payload = self._base(3, user, channel, (1 << 41) - 1)
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        payload["message"] = message
        return payload


async def settle() -> None:
    """Wait until discord.py's dispatch tasks (commands, autocomplete, buttons) are done."""
    for _ in range(500):
        await asyncio.sleep(0.01)
        pending = [
            t
            for t in asyncio.all_tasks()
            if not t.done() and t.get_name().startswith(("CommandTree-invoker", "discord-ui-dynamic-item"))
        ]
        if not pending:
            return
    raise AssertionError("discord.py's dispatch did not finish")
