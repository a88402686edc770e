"""Which pictures to post: after a move only those that changed since the last post for the game.

A tile lay leaves the market as it was, a share sale leaves the map; posting them again would only bury
the conversation. Pictures someone asked for (``map``, ``market``) always go out. Every chat adapter uses this.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from collections.abc import Sequence

from bot.core.replies import Attachment, Reply

_KIND = re.compile(r"-(?P<kind>[a-z]+)\.png$")


def picture_kind(attachment: Attachment) -> str:
    """``map`` or ``market`` for ``game1-0042-map.png``; the whole name for anything else."""
    match = _KIND.search(attachment.filename)
    return match.group("kind") if match else attachment.filename


class PictureMemory:
    """The hash of the last picture of each kind posted for each game.

    Kept in memory only: after a restart the first move posts its pictures again, which is harmless.
    """

    def __init__(self, capacity: int = 4096) -> None:
        self.capacity = capacity
        self._seen: OrderedDict[tuple[int, str], str] = OrderedDict()

    def changed(self, game_id: int | None, attachment: Attachment) -> bool:
        """Whether ``attachment`` differs from the last one of its kind for the game; remembers it."""
        key = (game_id or 0, picture_kind(attachment))
        digest = hashlib.sha256(attachment.data).hexdigest()
        before = self._seen.pop(key, None)
        self._seen[key] = digest
        while len(self._seen) > self.capacity:
            self._seen.popitem(last=False)
        return before != digest

    def to_post(self, reply: Reply) -> Sequence[Attachment]:
        """The reply's attachments worth posting: files always, images of a stored move only if new."""
        if reply.seq is None:
            for picture in reply.images:
                self.changed(reply.game_id, picture)  # asked for: shown now, so remembered as shown
            return list(reply.attachments)
        return [a for a in reply.attachments if a.kind != "image" or self.changed(reply.game_id, a)]
