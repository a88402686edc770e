"""A fake Slack Web API on 127.0.0.1: records every call and answers like Slack does.

It serves ``/api/<method>`` for the methods the adapter uses, the ``upload_url`` that
files.getUploadURLExternal hands out (pointing back at itself), and a ``response_url`` sink. A method can be
told to fail with a Slack error code (``fake.fail["chat.postMessage"] = "not_in_channel"``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    authorization: str
    result: dict[str, Any] = field(default_factory=dict)


@dataclass
class Upload:
    file_id: str
    filename: str
    data: bytes


class FakeSlack:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.uploads: dict[str, Upload] = {}
        self.responses: list[dict[str, Any]] = []  # what was posted to response_urls
        self.fail: dict[str, str] = {}
        self.limited: dict[str, int] = {}  # method -> how many calls are answered 429 (Retry-After: 1) first
        self.url = ""  # set once the server listens
        self.posted = asyncio.Event()  # set by every chat.postMessage, for tests that wait for background work
        self._ts = itertools.count(1)
        self._files = itertools.count(1)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_post("/respond/{n}", self._respond)
        return app

    # ------------------------------------------------------------------ queries for tests

    def of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def posts(self, channel: str | None = None) -> list[Call]:
        """Messages posted (the game's pinned board message aside: see :meth:`boards`)."""
        return [
            c
            for c in self.of("chat.postMessage")
            if (channel is None or c.params.get("channel") == channel) and not _is_board(c)
        ]

    def boards(self) -> list[Call]:
        """Posts and updates of the game's board message (the one kept pinned and edited in place)."""
        return [c for c in self.calls if c.method in ("chat.postMessage", "chat.update") and _is_board(c)]

    def ephemerals(self, user: str | None = None) -> list[Call]:
        return [c for c in self.of("chat.postEphemeral") if user is None or c.params.get("user") == user]

    def mark(self) -> int:
        """A position in the call log; ``since(mark)`` gives the calls after it."""
        return len(self.calls)

    def since(self, mark: int, method: str | None = None) -> list[Call]:
        """Calls after ``mark`` (of one method); the board message's posts and updates are left out."""
        return [c for c in self.calls[mark:] if (method is None or c.method == method) and not _is_board(c)]

    # ------------------------------------------------------------------ the API

    async def _params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = dict(request.query)
        if request.content_type == "application/json":
            params.update(await request.json())
        else:
            params.update({k: v for k, v in (await request.post()).items() if isinstance(v, str)})
        for key in ("blocks", "files", "view"):  # form-encoded calls send these as JSON text
            if isinstance(params.get(key), str):
                params[key] = json.loads(params[key])
        return params

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        call = Call(method, await self._params(request), request.headers.get("Authorization", ""))
        self.calls.append(call)
        if self.limited.get(method, 0) > 0:
            self.limited[method] -= 1
            call.result = {"ok": False, "error": "ratelimited"}
            return web.json_response(call.result, status=429, headers={"Retry-After": "1"})
        if method in self.fail:
            call.result = {"ok": False, "error": self.fail[method]}
        else:
            call.result = self._answer(method, call.params)
        return web.json_response(call.result)

    def _answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "auth.test":
            return {"ok": True, "team_id": "T1", "user_id": "UBOT", "bot_id": "B1", "team": "Test", "user": "rh"}
        if method == "chat.postMessage":
            self.posted.set()
            ts = f"1700000000.{next(self._ts):06d}"
            message = {"type": "message", "ts": ts, "text": params.get("text", ""), "blocks": params.get("blocks")}
            return {"ok": True, "channel": params.get("channel"), "ts": ts, "message": message}
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": f"1700000000.{next(self._ts):06d}"}
        if method == "chat.delete":
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}
        if method == "chat.update":
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}
        if method == "pins.add":
            return {"ok": True}
        if method == "conversations.open":
            return {"ok": True, "channel": {"id": "D" + str(params.get("users", ""))}}
        if method == "views.publish":
            return {"ok": True, "view": {"id": "V1", **(params.get("view") or {})}}
        if method == "files.getUploadURLExternal":
            file_id = f"F{next(self._files):04d}"
            self.uploads[file_id] = Upload(file_id, str(params.get("filename", "")), b"")
            return {"ok": True, "file_id": file_id, "upload_url": f"{self.url}/upload/{file_id}"}
        if method == "files.completeUploadExternal":
            files = params.get("files") or []
            return {"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in files]}
        return {"ok": False, "error": "unknown_method"}

    async def _upload(self, request: web.Request) -> web.Response:
        file_id = request.match_info["file_id"]
        if file_id not in self.uploads:
            return web.Response(status=404, text="no such upload")
        self.uploads[file_id].data = await request.read()
        self.calls.append(Call("upload", {"file_id": file_id}, request.headers.get("Authorization", "")))
        return web.Response(text="OK - " + str(len(self.uploads[file_id].data)))

    async def _respond(self, request: web.Request) -> web.Response:
        self.responses.append(await request.json())
        return web.Response(text="ok")


BOARD_MARK = "📌"


def _is_board(call: Call) -> bool:
    return call.method in ("chat.postMessage", "chat.update") and str(call.params.get("text", "")).startswith(
        BOARD_MARK
    )
