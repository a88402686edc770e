"""1822: a company upgrades one of its own L trains to a 2 train for £80 (1822 rules 8.2), refused at another price,
for a train it does not own, or beyond its treasury. The position: minor 15's train purchase in the recorded 1822+
game (../shared/fixtures/1822/33845.json before action 262), where it upgrades L-0."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import query
from engine.core.errors import GameError
from engine.titles.g1822.game import G1822
from tests.engine.test_1822_rules import PLUS_GAME, recorded_until


def _minor_15_buying() -> tuple[G1822, dict[str, Any]]:
    assert PLUS_GAME is not None, "the recorded 1822+ game 33845 is missing"
    game, rest = recorded_until(262)
    [upgrade] = [c for c in query.choices(game, game.corporations["15"], "buy_train") if c.get("exchange")]
    assert upgrade == {k: v for k, v in rest[0].items() if k not in ("id", "created_at")}
    return game, upgrade


def test_an_l_train_is_upgraded_to_a_2_train_for_80() -> None:
    game, upgrade = _minor_15_buying()
    assert game.corporations["15"].cash == 80
    with pytest.raises(GameError, match="upgrading an L train to a 2 train costs £80"):
        game.process({**upgrade, "price": 70})
    with pytest.raises(GameError, match="15 can only upgrade its own L trains to 2 trains"):
        game.process({**upgrade, "train": "L-1", "exchange": "L-1"})
    game.process(upgrade)
    minor = game.corporations["15"]
    assert minor.cash == 0 and [(t.id, t.name) for t in minor.trains] == [("L-0", "2")]


def test_an_l_train_upgrade_is_paid_from_the_treasury() -> None:
    game, upgrade = _minor_15_buying()
    game.corporations["15"].cash = 79
    game._checkpoint = None  # a refusal restores this position
    with pytest.raises(GameError, match="15 cannot afford to upgrade its L train"):
        game.process(upgrade)
    assert [(t.id, t.name) for t in game.corporations["15"].trains] == [("L-0", "L")]
