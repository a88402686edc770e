"""Asynchronous play (issue 29): the pace clock, away periods, programmed auto-actions and practice forks.

``pace_spans`` holds one row per stretch of time a game waited on one player: opened when the player became
the one to act, closed when they acted or stopped being active, with the waking seconds in it (outside their
quiet hours and away periods) written when it closes. At most one open span per game and player, which the
partial unique index enforces across processes. ``away_spans`` records when a user was away (``away on`` to
``away off``), so a clock can leave those hours out later. ``game_extras`` holds per-game settings of these
features (the pace nudge). ``auto_actions`` holds programmed moves, armed until ``ended_at``. ``forks`` links a
practice copy (a game of its own) to the game it was copied from.
"""

SQL = """
CREATE TABLE pace_spans (
    id         $ID,
    game_id    $INT NOT NULL REFERENCES games (id),
    user_id    TEXT    NOT NULL,
    started_at $REAL   NOT NULL,
    ended_at   $REAL,
    waking     $REAL
);

CREATE UNIQUE INDEX pace_spans_open ON pace_spans (game_id, user_id) WHERE ended_at IS NULL;
CREATE INDEX pace_spans_by_user ON pace_spans (user_id, game_id);

CREATE TABLE away_spans (
    platform   TEXT  NOT NULL,
    user_id    TEXT  NOT NULL,
    started_at $REAL NOT NULL,
    ended_at   $REAL,
    PRIMARY KEY (platform, user_id, started_at)
);

CREATE TABLE game_extras (
    game_id    $INT PRIMARY KEY REFERENCES games (id),
    data       TEXT  NOT NULL CHECK (json_valid(data)),
    updated_at $REAL NOT NULL
);

CREATE TABLE auto_actions (
    id         $ID,
    game_id    $INT NOT NULL REFERENCES games (id),
    user_id    TEXT    NOT NULL,
    spec       TEXT    NOT NULL CHECK (json_valid(spec)),
    created_at $REAL   NOT NULL,
    ended_at   $REAL,
    ended_why  TEXT
);

CREATE INDEX auto_actions_armed ON auto_actions (game_id) WHERE ended_at IS NULL;

CREATE TABLE forks (
    game_id    $INT PRIMARY KEY REFERENCES games (id),
    source_id  $INT NOT NULL REFERENCES games (id),
    at_seq     $INT NOT NULL CHECK (at_seq >= 0),
    owner      TEXT    NOT NULL,
    expires_at $REAL   NOT NULL,
    closed_at  $REAL
);
"""
