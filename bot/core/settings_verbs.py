"""The notification settings verbs: ``notify``, ``remind``, ``quiet``, ``away`` and ``prefs``.

Settings belong to a chat user on one platform (``Storage.get_prefs``); ``notify`` and ``remind`` may be
set for one game with a trailing ``here``. Changing whether a user gets reminders restarts (or drops) the
reminders of the games where it is their turn now, so the new setting counts from the moment it is made.
Parsing and the time arithmetic live in :mod:`bot.core.prefs`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from bot.core import prefs as prefs_mod
from bot.core.commands import CommandError, malformed
from bot.core.live import LoadError
from bot.core.notify import acting_player_ids
from bot.core.reminders import REMINDER, LiveOf, Pings
from bot.core.replies import Notification, Outcome, Reply
from bot.storage import GameRecord, GameStatus, Storage

_EXPLAIN = {
    "channel": "a mention in the game's channel",
    "dm": "a direct message",
    "both": "a mention in the game's channel and a direct message",
    "off": "nowhere: no turn pings or reminders (requests and the game's end still reach you)",
}


class Sender(Protocol):
    """Who sent a settings command, and where (``GameService``'s request)."""

    @property
    def platform(self) -> str: ...
    @property
    def channel(self) -> str: ...
    @property
    def user_id(self) -> str: ...
    @property
    def user_name(self) -> str: ...


class SettingsVerbs:
    """Carries out the settings verbs for the game service."""

    def __init__(
        self, storage: Storage, pings: Pings, clock: Callable[[], float], locked_live: LiveOf
    ) -> None:
        self.storage = storage
        self.pings = pings
        self.clock = clock
        self.locked_live = locked_live

    async def _stored(self, who: Sender) -> dict[str, Any]:
        return dict(await self.storage.get_prefs(who.platform, who.user_id))

    async def _save(self, who: Sender, data: dict[str, Any]) -> None:
        await self.storage.set_prefs(who.platform, who.user_id, data)

    async def _scope(self, who: Sender, words: Sequence[str], usage: str) -> GameRecord | None:
        """The channel's game for a trailing ``here``; None when nothing follows."""
        if not words:
            return None
        if len(words) > 1 or words[0].lower() != "here":
            raise malformed(f"unexpected `{' '.join(words)}`; {usage}")
        record = await self.storage.find_game(who.platform, who.channel)
        if record is None:
            raise CommandError(Outcome.NO_GAME, "`here` needs a game in this channel; there is none")
        return record

    @staticmethod
    def _put(data: dict[str, Any], key: str, value: Any, record: GameRecord | None) -> str:
        """Set one setting for every game or for ``record``'s; returns " in game #N" or ""."""
        if record is None:
            data[key] = value
            return ""
        data.setdefault("games", {}).setdefault(str(record.id), {})[key] = value
        return f" in game #{record.id}"

    # ------------------------------------------------------------------ the verbs

    async def notify(self, who: Sender, args: Sequence[str]) -> list[Reply]:
        usage = "use `notify channel|dm|both|off [here]` or `notify test`"
        if not args:
            current = prefs_mod.load(await self._stored(who))
            return [Reply(f"Your turn pings go to: {current.notify}. To change: {usage}.", ephemeral=True)]
        if args[0].lower() == "test":
            if len(args) > 1:
                raise malformed(f"`notify test` takes nothing more; {usage}")
            return await self._test(who)
        mode = prefs_mod.parse_notify(args[0])
        record = await self._scope(who, args[1:], usage)
        data = await self._stored(who)
        was_off = prefs_mod.load(data, record.id if record else None).notify == "off"
        where = self._put(data, "notify", mode, record)
        await self._save(who, data)
        if was_off != (mode == "off"):
            await self.rearm(who)
        return [Reply(f"Your turn pings{where} now go to {_EXPLAIN[mode]}.", ephemeral=True)]

    async def _test(self, who: Sender) -> list[Reply]:
        record = await self.storage.find_game(who.platform, who.channel)
        current = await self.pings.prefs(who.platform, who.user_id, record.id if record else None)
        if current.notify == "off":
            text = "Your turn pings are off, so no test was sent; `notify channel` turns them on."
            return [Reply(text, ephemeral=True)]
        note = Notification(
            who.user_id,
            f"Test ping from Roundhouse for {who.user_name}: this is how your turn pings reach you "
            f"({current.notify}).",
            "test",
            record.id if record else None,
            platform=who.platform,
            channel=who.channel,
            delivery=current.notify,
        )
        away = " You are away, so real turn pings are held back until `away off`." if current.away else ""
        if current.notify == "dm":
            return [Reply(f"Sent you a test ping by direct message.{away}", ephemeral=True, notify=[note])]
        # Public, because a whispered message mentions nobody: this reply is the channel ping.
        text = f"Test ping for {who.user_name} ({current.notify}).{away}"
        return [Reply(text, mentions=[who.user_id], notify=[replace(note, mentioned=True)])]

    async def remind(self, who: Sender, args: Sequence[str]) -> list[Reply]:
        usage = "use `remind HOURS [here]` (e.g. `remind 12`) or `remind off`"
        if not args:
            current = prefs_mod.load(await self._stored(who))
            line = prefs_mod.describe(current, self.clock())[1]
            return [Reply(f"{line}. To change: {usage}.", ephemeral=True)]
        hours = prefs_mod.parse_remind(args[0])
        record = await self._scope(who, args[1:], usage)
        data = await self._stored(who)
        where = self._put(data, "remind", "off" if hours is None else hours, record)
        await self._save(who, data)
        await self.rearm(who)
        if hours is None:
            return [Reply(f"No more reminders{where}.", ephemeral=True)]
        later = [
            prefs_mod.reminder_gap(hours, n) / prefs_mod.HOUR for n in range(2, prefs_mod.MAX_REMINDERS + 1)
        ]
        text = (
            f"Reminders{where}: after {hours:g} h of your turn, then after "
            f"{', '.join(f'{g:g}' for g in later)} h more (at most {prefs_mod.MAX_REMINDERS})."
        )
        return [Reply(text, ephemeral=True)]

    async def quiet(self, who: Sender, args: Sequence[str]) -> list[Reply]:
        data = await self._stored(who)
        quiet = prefs_mod.parse_quiet(tuple(args), prefs_mod.load(data).quiet)
        data["quiet"] = prefs_mod.store_quiet(quiet)
        await self._save(who, data)
        if quiet is None:
            return [Reply("No quiet hours: pings come when they are due.", ephemeral=True)]
        now_local = prefs_mod.local_time(prefs_mod.load(data), self.clock())
        text = (
            f"Quiet hours {quiet.describe()} (your time now: {now_local}): pings due then wait until "
            f"{prefs_mod.hhmm(quiet.end)}."
        )
        return [Reply(text, ephemeral=True)]

    async def away(self, who: Sender, args: Sequence[str]) -> list[Reply]:
        if len(args) != 1:
            raise malformed("use `away on` or `away off`")
        away = prefs_mod.parse_away(args[0])
        data = await self._stored(who)
        data["away"] = away
        await self._save(who, data)
        await self.rearm(who)
        if away:
            text = f"{who.user_name} is away: no turn pings or reminders until `away off`."
        else:
            text = f"Welcome back, {who.user_name}: turn pings and reminders are on again."
        return [Reply(text, ephemeral=True)]

    async def show(self, who: Sender, args: Sequence[str]) -> list[Reply]:
        data = await self._stored(who)
        lines = ["Your notification settings:", *prefs_mod.describe(prefs_mod.load(data), self.clock())]
        record = await self.storage.find_game(who.platform, who.channel)
        if record is not None and (data.get("games") or {}).get(str(record.id)):
            here = prefs_mod.load(data, record.id)
            remind = "off" if here.remind_hours is None else f"{here.remind_hours:g} h"
            lines.append(f"In game #{record.id} here: turn pings {here.notify}, reminders {remind}")
        lines.append("Change with `notify`, `remind`, `quiet`, `away` (`help notify`).")
        return [Reply("\n".join(lines), ephemeral=True)]

    async def rearm(self, who: Sender) -> None:
        """Restart the user's reminders in the games where it is their turn (or drop them, if now unwanted)."""
        records = await self.storage.list_games_for_user(
            who.platform, who.user_id, statuses=[GameStatus.ACTIVE]
        )
        for record in records:
            try:
                async with self.locked_live(record) as live:
                    await self.pings.cancel(record.id, who.user_id, kinds=(REMINDER,))
                    player = live.player_of(who.user_id)
                    if player is not None and player.id in acting_player_ids(live.game):
                        # A fresh turn id: the keys of this turn's first reminders may be taken already.
                        await self.pings.start(live, who.user_id, f"{live.seq}r{int(self.clock())}")
            except LoadError:
                continue  # its log no longer replays: nobody is reminded there

