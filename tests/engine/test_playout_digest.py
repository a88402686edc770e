"""The refactor proof's digest sees every difference between two playouts and none between two runs."""

from engine.playout_digest import game_digest


def test_the_same_seed_gives_the_same_digest_and_another_seed_another() -> None:
    first, actions = game_digest("1882", 3, 7, max_actions=120)
    again, _ = game_digest("1882", 3, 7, max_actions=120)
    other, _ = game_digest("1882", 3, 8, max_actions=120)
    shorter, _ = game_digest("1882", 3, 7, max_actions=119)
    assert actions == 120
    assert first == again
    assert other != first
    assert shorter != first
