"""The door of HTTP mode: a request is checked (signature, then shape) before Bolt parses anything.

Bolt reads the body (form fields, the ``payload`` JSON) before it verifies the signature, and some malformed
requests make that reading fail with a 500 and a traceback in the log: a non-numeric timestamp, a body that
is not UTF-8, a broken ``payload=``, invalid or deeply nested JSON. This aiohttp middleware answers them first:
401 for anything not signed by Slack (only the raw bytes and two headers are looked at), then 400 for a
signed body Bolt could not read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from aiohttp import web
from aiohttp.typedefs import Middleware

MAX_AGE = 5 * 60  # Slack's replay window
MAX_DEPTH = 64
Clock = Callable[[], float]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def check(body: bytes, headers: Any, secret: str, now: float) -> tuple[int, str] | None:
    """``(status, reason)`` for a request that must not reach Bolt, or None for one that may."""
    stamp = str(headers.get("x-slack-request-timestamp") or "")
    signature = str(headers.get("x-slack-signature") or "")
    if not stamp.isascii() or not stamp.isdigit() or len(stamp) > 12:
        return 401, "missing or malformed timestamp"
    if abs(now - int(stamp)) > MAX_AGE:
        return 401, "stale timestamp"
    expected = "v0=" + hmac.new(secret.encode(), b"v0:" + stamp.encode() + b":" + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace")):
        return 401, "invalid signature"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return 400, "the body is not UTF-8"
    kind = str(headers.get("content-type") or "").split(";")[0].strip().lower()
    if kind == "application/json":
        return _json_problem(text, "body")
    if "payload=" in text:
        try:
            fields = parse_qs(text, strict_parsing=False, errors="strict")
        except (ValueError, UnicodeDecodeError):
            return 400, "the form cannot be read"
        for payload in fields.get("payload", []):
            problem = _json_problem(payload, "payload")
            if problem is not None:
                return problem
    return None


def _json_problem(text: str, what: str) -> tuple[int, str] | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return 400, f"the {what} is not valid JSON"
    if not isinstance(data, dict):
        return 400, f"the {what} is not a JSON object"
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return 400, f"the {what} is nested too deeply"
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return None


def guard(secret: str, clock: Clock = time.time) -> Middleware:
    """The middleware: POST requests pass only when :func:`check` finds nothing wrong."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method == "POST":
            body = await request.read()  # aiohttp keeps it: Bolt's handler reads the same bytes
            problem = check(body, request.headers, secret, clock())
            if problem is not None:
                return web.Response(status=problem[0], text=problem[1])
        return await handler(request)

    return middleware
