"""Games whose stored log no longer replays with the running engine: why, and whether the players were told.

``broken`` is NULL for a healthy game, else a JSON object naming the first stored action the engine refuses
(``seq``, ``action_id``, ``type``, ``message``, ``engine_version``, ``found_at``). ``broken_noticed_at`` is when
the notice was posted in the game's channel. The action log itself is never touched.
"""

SQL = """
ALTER TABLE games ADD COLUMN broken TEXT CHECK (broken IS NULL OR json_valid(broken));
ALTER TABLE games ADD COLUMN broken_noticed_at $REAL;
"""
