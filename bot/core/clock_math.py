"""Waking time: the seconds of a stretch of time that fall outside a player's quiet hours and away periods.

The pace clock (:mod:`bot.core.clock`) counts only waking time, so that a player in Winnipeg is not charged
for the night while a player in Berlin moves. Quiet hours are a daily local window in the player's own time
zone (daylight saving included, :func:`bot.core.prefs.quiet_until`); away periods are absolute stretches.
Pure functions, no storage.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.core.prefs import Quiet

#: A stretch of unix seconds [start, end).
Span = tuple[float, float]


def quiet_spans(quiet: Quiet | None, start: float, end: float) -> Iterator[Span]:
    """The quiet windows that meet [start, end), as absolute spans (clipped to it)."""
    if quiet is None or end <= start:
        return
    zone = ZoneInfo(quiet.zone)
    day = datetime.fromtimestamp(start, zone).date() - timedelta(days=1)
    last = datetime.fromtimestamp(end, zone).date()
    while day <= last:
        begin = datetime.combine(day, time(quiet.start // 60, quiet.start % 60), zone).timestamp()
        stop_day = day if quiet.start < quiet.end else day + timedelta(days=1)
        stop = datetime.combine(stop_day, time(quiet.end // 60, quiet.end % 60), zone).timestamp()
        lo, hi = max(begin, start), min(stop, end)
        if lo < hi:
            yield lo, hi
        day += timedelta(days=1)


def _union(spans: Iterable[Span]) -> list[Span]:
    out: list[Span] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def asleep(quiet: Quiet | None, away: Sequence[Span], start: float, end: float) -> list[Span]:
    """The parts of [start, end) that do not count: quiet hours and away periods, merged and clipped."""
    clipped = [(max(lo, start), min(hi, end)) for lo, hi in away if min(hi, end) > max(lo, start)]
    return _union([*quiet_spans(quiet, start, end), *clipped])


def waking_seconds(quiet: Quiet | None, away: Sequence[Span], start: float, end: float) -> float:
    """Seconds of [start, end) outside quiet hours and away periods.

    >>> waking_seconds(None, [(10.0, 20.0)], 0.0, 100.0)
    90.0
    """
    if end <= start:
        return 0.0
    return (end - start) - sum(hi - lo for lo, hi in asleep(quiet, away, start, end))


def waking_deadline(quiet: Quiet | None, start: float, seconds: float, *, horizon_days: int = 30) -> float | None:
    """When ``seconds`` of waking time will have passed since ``start`` (None beyond the horizon).

    Away periods are not foreseen: the caller checks the clock again when the deadline comes.

    >>> waking_deadline(None, 100.0, 50.0)
    150.0
    """
    left = seconds
    cursor = start
    horizon = start + horizon_days * 86400.0
    while cursor < horizon:
        window_end = min(cursor + 86400.0, horizon)
        for lo, hi in [*quiet_spans(quiet, cursor, window_end), (window_end, window_end)]:
            awake = lo - cursor
            if awake >= left:
                return cursor + left
            left -= max(awake, 0.0)
            cursor = max(cursor, hi)
    return None
