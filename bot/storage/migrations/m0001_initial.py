"""Initial schema: games, seats, the append-only action log, snapshots, outbox, user prefs and consents."""

SQL = """
CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    platform       TEXT    NOT NULL,
    channel        TEXT    NOT NULL,
    title          TEXT    NOT NULL,
    seed           INTEGER NOT NULL,
    options        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    engine_version TEXT    NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'open'
                           CHECK (status IN ('open', 'active', 'finished', 'abandoned')),
    created_by     TEXT    NOT NULL,
    created_at     REAL    NOT NULL,
    updated_at     REAL    NOT NULL
);

-- At most one open or active game per chat channel; finished and abandoned games free the channel.
CREATE UNIQUE INDEX games_one_live_per_channel ON games (platform, channel)
    WHERE status IN ('open', 'active');

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    platform     TEXT    NOT NULL,
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    player_id    INTEGER,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    UNIQUE (game_id, player_id)
);

CREATE INDEX seats_by_user ON seats (platform, user_id);

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    data       TEXT    NOT NULL CHECK (json_valid(data)),
    actor      TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The log is the source of truth: gaps, duplicates, edits and deletions are refused by the database itself.
-- Storage.append_action relies on this trigger and the primary key for its optimistic-concurrency check.
CREATE TRIGGER actions_contiguous BEFORE INSERT ON actions
    WHEN NEW.seq <> (SELECT coalesce(max(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'actions: seq must be last seq + 1');
END;

-- Appending is a single INSERT (one implicit transaction, one round trip), so the game's bookkeeping
-- rides along in a trigger.
CREATE TRIGGER actions_touch_game AFTER INSERT ON actions
BEGIN
    UPDATE games SET updated_at = max(updated_at, NEW.created_at) WHERE id = NEW.game_id;
END;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions: the log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions: the log is append-only');
END;

-- Only the latest snapshot of each game is kept, hence game_id as the key.
CREATE TABLE snapshots (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    data       BLOB    NOT NULL,
    created_at REAL    NOT NULL
);

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER REFERENCES games (id),
    platform   TEXT    NOT NULL,
    user_id    TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    payload    TEXT    NOT NULL CHECK (json_valid(payload)),
    due_at     REAL    NOT NULL,
    sent_at    REAL,
    dedupe_key TEXT    NOT NULL UNIQUE,
    attempts   INTEGER NOT NULL DEFAULT 0,
    created_at REAL    NOT NULL
);

CREATE INDEX outbox_pending ON outbox (due_at, id) WHERE sent_at IS NULL;

CREATE TABLE user_prefs (
    platform   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    data       TEXT NOT NULL CHECK (json_valid(data)),
    updated_at REAL NOT NULL,
    PRIMARY KEY (platform, user_id)
);

CREATE TABLE consents (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    kind         TEXT    NOT NULL,
    requested_by TEXT    NOT NULL,
    payload      TEXT    NOT NULL CHECK (json_valid(payload)),
    approvers    TEXT    NOT NULL CHECK (json_valid(approvers)),
    status       TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'cancelled')),
    expires_at   REAL    NOT NULL,
    created_at   REAL    NOT NULL,
    resolved_at  REAL
);

CREATE INDEX consents_pending ON consents (expires_at) WHERE status = 'pending';
CREATE INDEX consents_by_game ON consents (game_id, status);
"""
