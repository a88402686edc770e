"""Initial schema: games, seats, the append-only action log, snapshots, outbox, user prefs and consents.

``SQL`` is both databases' (``$ID``, ``$INT``, ``$REAL``, ``$BLOB`` name their types, see
:mod:`bot.storage.migrations`); the triggers that guard the log are each database's own language.
"""

SQL = """
CREATE TABLE games (
    id             $ID,
    platform       TEXT    NOT NULL,
    channel        TEXT    NOT NULL,
    title          TEXT    NOT NULL,
    seed           $INT NOT NULL,
    options        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    engine_version TEXT    NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'open'
                           CHECK (status IN ('open', 'active', 'finished', 'abandoned')),
    created_by     TEXT    NOT NULL,
    created_at     $REAL    NOT NULL,
    updated_at     $REAL    NOT NULL
);

-- At most one open or active game per chat channel; finished and abandoned games free the channel.
CREATE UNIQUE INDEX games_one_live_per_channel ON games (platform, channel)
    WHERE status IN ('open', 'active');

CREATE TABLE seats (
    game_id      $INT NOT NULL REFERENCES games (id),
    seat         $INT NOT NULL CHECK (seat >= 0),
    platform     TEXT    NOT NULL,
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    player_id    $INT,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    UNIQUE (game_id, player_id)
);

CREATE INDEX seats_by_user ON seats (platform, user_id);

CREATE TABLE actions (
    game_id    $INT NOT NULL REFERENCES games (id),
    seq        $INT NOT NULL CHECK (seq >= 1),
    data       TEXT    NOT NULL CHECK (json_valid(data)),
    actor      TEXT    NOT NULL,
    created_at $REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Only the latest snapshot of each game is kept, hence game_id as the key.
CREATE TABLE snapshots (
    game_id    $INT PRIMARY KEY REFERENCES games (id),
    seq        $INT NOT NULL CHECK (seq >= 0),
    data       $BLOB    NOT NULL,
    created_at $REAL    NOT NULL
);

CREATE TABLE outbox (
    id         $ID,
    game_id    $INT REFERENCES games (id),
    platform   TEXT    NOT NULL,
    user_id    TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    payload    TEXT    NOT NULL CHECK (json_valid(payload)),
    due_at     $REAL    NOT NULL,
    sent_at    $REAL,
    dedupe_key TEXT    NOT NULL UNIQUE,
    attempts   $INT NOT NULL DEFAULT 0,
    created_at $REAL    NOT NULL
);

CREATE INDEX outbox_pending ON outbox (due_at, id) WHERE sent_at IS NULL;

CREATE TABLE user_prefs (
    platform   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    data       TEXT NOT NULL CHECK (json_valid(data)),
    updated_at $REAL NOT NULL,
    PRIMARY KEY (platform, user_id)
);

CREATE TABLE consents (
    id           $ID,
    game_id      $INT NOT NULL REFERENCES games (id),
    kind         TEXT    NOT NULL,
    requested_by TEXT    NOT NULL,
    payload      TEXT    NOT NULL CHECK (json_valid(payload)),
    approvers    TEXT    NOT NULL CHECK (json_valid(approvers)),
    status       TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'cancelled')),
    expires_at   $REAL    NOT NULL,
    created_at   $REAL    NOT NULL,
    resolved_at  $REAL
);

CREATE INDEX consents_pending ON consents (expires_at) WHERE status = 'pending';
CREATE INDEX consents_by_game ON consents (game_id, status);
"""

_GUARDS_SQLITE = """
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
"""

# PostgreSQL has no json_valid(); the CHECKs above call this one. The guards raise class 23 (integrity
# constraint violation) errors like the constraints themselves, so the storage code handles both alike.
_FUNCTIONS_POSTGRES = """
CREATE FUNCTION json_valid(doc TEXT) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    PERFORM doc::json;
    RETURN TRUE;
EXCEPTION WHEN others THEN
    RETURN FALSE;
END $fn$;
"""

_GUARDS_POSTGRES = """
-- The log is the source of truth: gaps, duplicates, edits and deletions are refused by the database itself.
-- Each statement in a plpgsql function sees what committed before it started (READ COMMITTED), so a racing
-- append of the same seq is refused by the primary key, and one that would leave a gap by this check.
CREATE FUNCTION actions_contiguous() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF NEW.seq <> (SELECT coalesce(max(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id) THEN
        RAISE EXCEPTION 'actions: seq must be last seq + 1' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $fn$;
CREATE TRIGGER actions_contiguous BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION actions_contiguous();

CREATE FUNCTION actions_touch_game() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    UPDATE games SET updated_at = greatest(updated_at, NEW.created_at) WHERE id = NEW.game_id;
    RETURN NULL;
END $fn$;
CREATE TRIGGER actions_touch_game AFTER INSERT ON actions FOR EACH ROW EXECUTE FUNCTION actions_touch_game();

CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    RAISE EXCEPTION 'actions: the log is append-only' USING ERRCODE = 'integrity_constraint_violation';
END $fn$;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions FOR EACH ROW EXECUTE FUNCTION actions_append_only();
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions FOR EACH ROW EXECUTE FUNCTION actions_append_only();
CREATE TRIGGER actions_no_truncate BEFORE TRUNCATE ON actions EXECUTE FUNCTION actions_append_only();
"""

BEFORE = {"postgresql": _FUNCTIONS_POSTGRES}
AFTER = {"sqlite": _GUARDS_SQLITE, "postgresql": _GUARDS_POSTGRES}
