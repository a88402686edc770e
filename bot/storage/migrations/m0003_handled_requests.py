"""Slack's record of handled requests, kept in the game database itself.

Slack may deliver a request twice (``x-slack-retry-num``). Each request's key is claimed here before any
work is done, so of two copies, reaching one process or two processes on different machines that share
this database, exactly one is carried out. ``handled_at`` lets old keys be forgotten.
"""

SQL = """
CREATE TABLE handled_requests (
    key        TEXT PRIMARY KEY,
    handled_at $REAL NOT NULL
);
CREATE INDEX handled_requests_at ON handled_requests (handled_at);
"""
