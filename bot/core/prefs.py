"""A player's notification preferences and the reminder schedule (pure functions, no storage).

Preferences are kept as one JSON object per platform and user (``Storage.get_prefs``). Missing keys mean the
defaults, so old rows keep working when a setting is added. A game may override ``notify`` and ``remind``
for one user (``notify dm here``): those live under ``games[<game id>]``.

Reminders escalate (chatbots.md §3, AsyncTI4): the first comes ``remind`` hours after the player became
active, each later one after half the previous gap, but never closer than :data:`MIN_REMINDER_GAP_HOURS`
and never more than :data:`MAX_REMINDERS` for one turn. Any ping due inside the player's quiet hours waits
for the end of the quiet window, in the player's own time zone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.core.commands import malformed

NOTIFY_MODES = ("channel", "dm", "both", "off")
DEFAULT_NOTIFY = "channel"
#: Hours a player may sit on a turn before the first reminder (the default of ``remind``).
DEFAULT_REMIND_HOURS = 24.0
#: Reminders never come closer together than this, however short ``remind`` or the escalation gets.
MIN_REMINDER_GAP_HOURS = 2.0
#: The longest ``remind`` accepted: two weeks; beyond that a reminder is no longer a reminder.
MAX_REMIND_HOURS = 336.0
#: At most this many reminders for one turn; after that the player is left alone until the turn changes.
MAX_REMINDERS = 5
DEFAULT_TIME_ZONE = "UTC"
HOUR = 3600.0

_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")


@dataclass(frozen=True, slots=True)
class Quiet:
    """Quiet hours: a daily window ``start``-``end`` (local wall-clock minutes) in time zone ``zone``."""

    start: int  # minutes after local midnight
    end: int
    zone: str = DEFAULT_TIME_ZONE

    def describe(self) -> str:
        return f"{hhmm(self.start)}-{hhmm(self.end)} {self.zone}"


@dataclass(frozen=True, slots=True)
class Prefs:
    """The settings that apply to one user (in one game, once :meth:`for_game` merged its overrides)."""

    notify: str = DEFAULT_NOTIFY
    remind_hours: float | None = DEFAULT_REMIND_HOURS  # None: no reminders
    quiet: Quiet | None = None
    away: bool = False

    @property
    def pings_turns(self) -> bool:
        """Whether the user gets turn pings and reminders at all."""
        return self.notify != "off" and not self.away

    @property
    def delivery(self) -> str:
        """Where the user's notifications go; "off"/away users still get consent and game-end pings in the
        channel, where everyone sees them anyway."""
        return self.notify if self.notify != "off" and not self.away else "channel"


def load(data: Mapping[str, Any], game_id: int | None = None) -> Prefs:
    """The preferences in a stored prefs object, with the overrides of ``game_id`` applied."""
    prefs = Prefs(
        notify=_mode(data.get("notify")),
        remind_hours=_hours(data.get("remind", DEFAULT_REMIND_HOURS)),
        quiet=_quiet(data.get("quiet")),
        away=bool(data.get("away", False)),
    )
    if game_id is not None:
        override = (data.get("games") or {}).get(str(game_id)) or {}
        if "notify" in override:
            prefs = replace(prefs, notify=_mode(override["notify"]))
        if "remind" in override:
            prefs = replace(prefs, remind_hours=_hours(override["remind"]))
    return prefs


def _mode(value: Any) -> str:
    return value if value in NOTIFY_MODES else DEFAULT_NOTIFY


def _hours(value: Any) -> float | None:
    if value is None or value == "off":
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return DEFAULT_REMIND_HOURS


def _quiet(value: Any) -> Quiet | None:
    if not isinstance(value, Mapping):
        return None
    try:
        return Quiet(int(value["start"]), int(value["end"]), str(value.get("zone", DEFAULT_TIME_ZONE)))
    except (KeyError, TypeError, ValueError):
        return None


# ---------------------------------------------------------------------- reading the commands


def parse_notify(word: str) -> str:
    mode = word.lower()
    if mode not in NOTIFY_MODES:
        raise malformed(
            f"`{word}` is not a delivery mode; use `notify channel`, `notify dm`, `notify both`, `notify off` "
            "or `notify test`"
        )
    return mode


def parse_remind(word: str) -> float | None:
    """Hours for ``remind``: a number (``24``, ``12h``, ``1.5``) or ``off``."""
    text = word.lower().removesuffix("h")
    if text == "off":
        return None
    try:
        hours = float(text)
    except ValueError:
        raise malformed(
            f"`remind {word}`: give a number of hours (e.g. `remind 24`) or `remind off`"
        ) from None
    if not MIN_REMINDER_GAP_HOURS <= hours <= MAX_REMIND_HOURS:
        raise malformed(
            f"`remind {word}`: reminders can come after {MIN_REMINDER_GAP_HOURS:g} to {MAX_REMIND_HOURS:g} hours"
        )
    return hours


def parse_clock(text: str) -> int:
    match = _CLOCK.match(text)
    if match is None or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise malformed(f"`{text}` is not a time of day; write 24-hour HH:MM, e.g. 22:30")
    return int(match.group(1)) * 60 + int(match.group(2))


def zone_named(name: str) -> str:
    """The canonical spelling of an IANA time zone (case-insensitive), or a refusal with a near miss."""
    if name.upper() in ("UTC", "Z", "GMT"):
        return "UTC"
    zones = available_timezones()
    by_lower = {z.lower(): z for z in zones}
    hit = by_lower.get(name.lower())
    if hit is None:
        from bot.core.commands import did_you_mean

        raise malformed(
            f"`{name}` is not an IANA time zone{did_you_mean(name, sorted(zones))}; e.g. Europe/Berlin, "
            "America/Winnipeg, UTC"
        )
    try:
        ZoneInfo(hit)
    except ZoneInfoNotFoundError:  # listed but unreadable: a broken tz database
        raise malformed(f"time zone {hit} cannot be loaded on this server") from None
    return hit


def parse_quiet(args: tuple[str, ...], current: Quiet | None) -> Quiet | None:
    """``quiet 22:00-07:00 [Zone]`` or ``quiet off``; the zone defaults to the one set before, or UTC."""
    usage = "write `quiet HH:MM-HH:MM [time zone]`, e.g. `quiet 22:30-07:00 Europe/Berlin`, or `quiet off`"
    if not args:
        raise malformed(f"say when: {usage}")
    if args[0].lower() == "off":
        return None
    window = args[0]
    rest = list(args[1:])
    if "-" not in window and len(rest) >= 2 and rest[0] == "-":  # "22:00 - 07:00"
        window = f"{window}-{rest[1]}"
        rest = rest[2:]
    start_text, sep, end_text = window.partition("-")
    if not sep:
        raise malformed(f"`{window}` is not a window of time; {usage}")
    start, end = parse_clock(start_text), parse_clock(end_text)
    if start == end:
        raise malformed(f"`{window}` is an empty window (start and end are the same); {usage}")
    if len(rest) > 1:
        raise malformed(f"too many words after the window: {' '.join(rest)}; {usage}")
    zone = zone_named(rest[0]) if rest else (current.zone if current else DEFAULT_TIME_ZONE)
    return Quiet(start, end, zone)


def parse_away(word: str) -> bool:
    low = word.lower()
    if low in ("on", "yes", "true"):
        return True
    if low in ("off", "no", "false", "back"):
        return False
    raise malformed(f"`away {word}`: use `away on` or `away off`")


def store_quiet(quiet: Quiet | None) -> dict[str, Any] | None:
    return None if quiet is None else {"start": quiet.start, "end": quiet.end, "zone": quiet.zone}


# ---------------------------------------------------------------------- time


def hhmm(minutes: int) -> str:
    """``"07:05"`` for 425 minutes after midnight."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def quiet_until(quiet: Quiet | None, when: float) -> float | None:
    """The end of the quiet window containing ``when`` (unix seconds), or None if ``when`` is not quiet.

    A window may run past midnight (22:00-07:00). Local times follow the zone's daylight-saving rules.
    """
    if quiet is None:
        return None
    zone = ZoneInfo(quiet.zone)
    local = datetime.fromtimestamp(when, zone)
    minute = local.hour * 60 + local.minute
    if quiet.start < quiet.end:
        inside = quiet.start <= minute < quiet.end
        end_day = local.date()
    else:
        inside = minute >= quiet.start or minute < quiet.end
        end_day = local.date() + timedelta(days=1) if minute >= quiet.start else local.date()
    if not inside:
        return None
    end = datetime.combine(end_day, time(quiet.end // 60, quiet.end % 60), zone)
    return max(end.timestamp(), when)


def deliverable_at(prefs: Prefs, when: float) -> float:
    """When a ping due at ``when`` may go out: then, or at the end of the quiet hours around it."""
    until = quiet_until(prefs.quiet, when)
    return when if until is None else until


def reminder_gap(remind_hours: float, number: int) -> float:
    """Seconds before reminder ``number`` (1 = first), counted from the previous one (or the turn's start).

    >>> [reminder_gap(24, n) / 3600 for n in range(1, 6)]
    [24.0, 12.0, 6.0, 3.0, 2.0]
    """
    hours = remind_hours / 2.0 ** (number - 1)
    return max(hours, MIN_REMINDER_GAP_HOURS) * HOUR


def local_time(prefs: Prefs, when: float) -> str | None:
    """The user's wall-clock time, if they told us their zone (through quiet hours)."""
    if prefs.quiet is None:
        return None
    return datetime.fromtimestamp(when, ZoneInfo(prefs.quiet.zone)).strftime("%H:%M")


def describe(prefs: Prefs, now: float) -> list[str]:
    """The settings as lines for ``prefs``."""
    remind = (
        "off"
        if prefs.remind_hours is None
        else f"after {prefs.remind_hours:g} h, then sooner (at most {MAX_REMINDERS} per turn, "
        f"at least {MIN_REMINDER_GAP_HOURS:g} h apart)"
    )
    quiet = "none"
    if prefs.quiet is not None:
        quiet = f"{prefs.quiet.describe()} (your time now: {local_time(prefs, now)})"
    return [
        f"Turn pings: {prefs.notify}",
        f"Reminders: {remind}",
        f"Quiet hours: {quiet}",
        f"Away: {'yes, no turn pings or reminders' if prefs.away else 'no'}",
    ]


def available_zones() -> set[str]:
    """The IANA time zones this server knows (for autocomplete)."""
    return available_timezones()
