"""Pictures go through Slack's external upload (three steps, real PNG bytes), and only when they changed."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.core.pictures import PictureMemory
from bot.core.replies import Attachment, Reply
from tests.bot.conftest import FakeClock
from tests.bot.slack.conftest import CHANNEL, Slack, open_bot, start_game
from tests.bot.slack.fake_slack import FakeSlack

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def drawing(tmp_path: Path, fake: FakeSlack, clock: FakeClock) -> AsyncIterator[Slack]:
    bot, service, handled = await open_bot(tmp_path / "bot.db", fake, clock, images=True)
    try:
        yield Slack(bot, fake)
    finally:
        await handled.close()
        await service.close()


def _uploaded(fake: FakeSlack, mark: int) -> list[tuple[str, bytes]]:
    ids = [c.params["file_id"] for c in fake.since(mark, "upload")]
    return [(fake.uploads[i].filename, fake.uploads[i].data) for i in ids]


async def test_pictures_use_the_three_step_upload_and_skip_unchanged_ones(drawing: Slack, fake: FakeSlack) -> None:
    mark = fake.mark()
    await start_game(drawing, ("U1", "U2"))
    names = [name for name, _ in _uploaded(fake, mark)]
    assert [n.rsplit("-", 1)[1] for n in names] == ["map.png", "market.png"]
    [complete] = fake.since(mark, "files.completeUploadExternal")  # both in one message
    assert len(complete.params["files"]) == 2

    mark = fake.mark()
    await drawing.command("U2", "map")  # asked for: posted although the same as before
    steps = [c.method for c in fake.since(mark) if c.method.startswith("files.") or c.method == "upload"]
    assert steps == ["files.getUploadURLExternal", "upload", "files.completeUploadExternal"]
    [(name, data)] = _uploaded(fake, mark)
    assert name.endswith("-map.png") and data.startswith(PNG_SIGNATURE)
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        assert image.format == "PNG" and image.width > 200 and image.height > 200
    [get_url] = fake.since(mark, "files.getUploadURLExternal")
    assert int(get_url.params["length"]) == len(data)
    [complete] = fake.since(mark, "files.completeUploadExternal")
    assert complete.params["channel_id"] == CHANNEL
    assert complete.params["files"][0]["id"] == get_url.result["file_id"]
    assert "the map" in complete.params["files"][0]["title"]

    mark = fake.mark()
    await drawing.command("U1", "pass")  # changes neither picture: the text alone
    assert fake.since(mark, "chat.postMessage")
    assert not fake.since(mark, "files.getUploadURLExternal")

    mark = fake.mark()
    await drawing.command("U2", "buy HB")  # the map shows the owner; the market is as it was
    [(name, data)] = _uploaded(fake, mark)
    assert name.endswith("-map.png") and data.startswith(PNG_SIGNATURE)
    message_at = fake.calls.index(fake.since(mark, "chat.postMessage")[0])
    assert message_at < fake.calls.index(fake.since(mark, "files.getUploadURLExternal")[0])  # text first
    assert not fake.of("files.upload")  # the retired method is never used


async def test_a_click_in_a_thread_answers_and_uploads_in_that_thread(drawing: Slack, fake: FakeSlack) -> None:
    await start_game(drawing, ("U1", "U2"))
    mark = fake.mark()
    await drawing.click("U1", drawing.button("Buy HB $20"), thread_ts="1700000000.000042")
    [move] = fake.since(mark, "chat.postMessage")
    assert move.params["thread_ts"] == "1700000000.000042"
    [complete] = fake.since(mark, "files.completeUploadExternal")
    assert complete.params["thread_ts"] == "1700000000.000042"


def test_picture_memory_remembers_per_game_and_kind() -> None:
    memory = PictureMemory(capacity=2)
    a, b = Attachment("game1-0001-map.png", b"a"), Attachment("game1-0002-map.png", b"b")
    assert memory.changed(1, a) and not memory.changed(1, a)
    assert memory.changed(2, a)  # another game
    assert memory.changed(1, b)
    move = Reply("x", game_id=1, seq=3, attachments=[b, Attachment("g.json", b"{}", kind="file")])
    assert [f.filename for f in memory.to_post(move)] == ["g.json"]  # files always, the same map not
    asked = Reply("x", game_id=1, attachments=[b])
    assert memory.to_post(asked) == [b]
