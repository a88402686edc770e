"""1822: P18 (Cromford & High Peak) moves one of its company's tokens between the charter's available tokens and its
exchange tokens, either way, and then closes (1822 rules, P18); a player's P18 offers nothing, and no other move is
taken. The position: the recorded 1822+ game (../shared/fixtures/1822/33845.json) before action 974, with P18
handed to CR (2 of its 3 exchange tokens left, 2 stations available)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import GameError
from engine.titles.g1822.game import G1822
from engine.titles.g1822.private_choices import company_choices, make_company_choice, token_choices
from tests.engine.test_1822_rules import PLUS_GAME, recorded_until


def _p18_to_cr() -> tuple[G1822, Any]:
    assert PLUS_GAME is not None, "the recorded 1822+ game 33845 is missing"
    game, _ = recorded_until(974)
    p18, cr = game.companies["P18"], game.corporations["CR"]
    assert token_choices(game, p18) == []  # a player's P18 moves nothing
    held: list[Any] = getattr(p18.owner, "companies", [])
    held.remove(p18)
    p18.owner = cr
    cr.companies.append(p18)
    return game, p18


def test_p18_moves_an_available_token_to_the_exchange_tokens_and_closes() -> None:
    game, p18 = _p18_to_cr()
    cr = game.corporations["CR"]
    assert (game.exchange_tokens["CR"], game.rules["exchange_tokens"]["CR"], len(cr.unused_tokens())) == (2, 3, 2)
    assert company_choices(game, p18, "token") == ["exchange", "available"]
    assert company_choices(game, p18, "issue") == []  # P18 acts at the token and track steps only
    tokens = len(cr.tokens)
    make_company_choice(game, p18, "available", "token")
    assert game.exchange_tokens["CR"] == 3 and len(cr.tokens) == tokens - 1 and len(cr.unused_tokens()) == 1
    assert p18.closed


def test_p18_moves_only_what_its_company_can() -> None:
    game, p18 = _p18_to_cr()
    with pytest.raises(GameError, match="that choice is not available now"):
        make_company_choice(game, p18, "M3_top", "track")
    game.exchange_tokens["CR"] = 3  # none used: nothing to take back to the charter
    assert token_choices(game, p18) == ["exchange"]
    with pytest.raises(GameError, match="that choice is not available now"):
        make_company_choice(game, p18, "available", "track")
    assert not p18.closed
