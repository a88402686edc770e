"""User preferences and consent requests."""

from __future__ import annotations

import pytest

from bot.storage import ConsentStatus, NotFoundError, StatusConflictError, Storage
from tests.bot.storage.conftest import FakeClock, make_game


async def test_prefs_round_trip(storage: Storage) -> None:
    assert await storage.get_prefs("discord", "alice") == {}
    prefs = {"dm_on_turn": True, "timezone": "Europe/Zürich", "quiet_hours": [22, 7]}
    await storage.set_prefs("discord", "alice", prefs)
    assert await storage.get_prefs("discord", "alice") == prefs
    assert await storage.get_prefs("slack", "alice") == {}

    await storage.set_prefs("discord", "alice", {"dm_on_turn": False})  # replaces, does not merge
    assert await storage.get_prefs("discord", "alice") == {"dm_on_turn": False}
    with pytest.raises(TypeError):
        await storage.set_prefs("discord", "alice", "loud")  # type: ignore[arg-type]


async def test_consent_lifecycle(storage: Storage, clock: FakeClock) -> None:
    game_id = await make_game(storage)
    consent_id = await storage.create_consent(
        game_id=game_id,
        kind="undo",
        requested_by="alice",
        approvers=["bob", "carol"],
        payload={"to_seq": 41},
        expires_at=clock.now + 3600,
    )
    consent = await storage.get_consent(consent_id)
    assert consent.status == ConsentStatus.PENDING
    assert consent.approvers == {"bob": None, "carol": None}
    assert consent.payload == {"to_seq": 41}

    consent = await storage.record_vote(consent_id, "bob", True)
    assert consent.approvers == {"bob": True, "carol": None}
    with pytest.raises(NotFoundError, match="approver"):
        await storage.record_vote(consent_id, "mallory", True)

    clock.advance(10)
    resolved = await storage.resolve_consent(consent_id, ConsentStatus.APPROVED)
    assert (resolved.status, resolved.resolved_at) == (ConsentStatus.APPROVED, clock.now)
    # Only one resolution wins; late votes are refused.
    with pytest.raises(StatusConflictError, match="'approved', expected 'pending'"):
        await storage.resolve_consent(consent_id, ConsentStatus.REJECTED)
    with pytest.raises(StatusConflictError):
        await storage.record_vote(consent_id, "carol", False)
    with pytest.raises(ValueError, match="final status"):
        await storage.resolve_consent(consent_id, ConsentStatus.PENDING)

    assert await storage.list_consents(game_id) == []
    assert [c.id for c in await storage.list_consents(game_id, status=None)] == [consent_id]
    with pytest.raises(NotFoundError):
        await storage.get_consent(999)
    with pytest.raises(NotFoundError):
        await storage.create_consent(
            game_id=404, kind="undo", requested_by="a", approvers=[], payload={}, expires_at=0.0
        )


async def test_expire_consents(storage: Storage, clock: FakeClock) -> None:
    game_id = await make_game(storage)

    async def create(expires_in: float) -> int:
        return await storage.create_consent(
            game_id=game_id,
            kind="kick",
            requested_by="alice",
            approvers=["bob"],
            payload={},
            expires_at=clock.now + expires_in,
        )

    soon, later, resolved = await create(60), await create(600), await create(30)
    await storage.resolve_consent(resolved, ConsentStatus.CANCELLED)

    clock.advance(60)
    with pytest.raises(StatusConflictError, match="expired"):
        await storage.record_vote(soon, "bob", True)  # past its deadline even before the sweep ran
    expired = await storage.expire_consents()
    assert [(c.id, c.status, c.resolved_at) for c in expired] == [(soon, ConsentStatus.EXPIRED, clock.now)]
    assert await storage.expire_consents() == []
    assert [c.id for c in await storage.list_consents(game_id)] == [later]
    assert [c.id for c in await storage.expire_consents(now=clock.now + 540)] == [later]
