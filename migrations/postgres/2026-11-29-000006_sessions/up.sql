-- Server-side sessions. The cookie carries a random token; only its SHA-256 is kept
-- here, so a reader of the database cannot turn a row into a login. Ending a session
-- (logout, "log out everywhere") deletes its row; expires_at slides forward while the
-- session is used.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    user_agent TEXT
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);
-- The cookie key of the release before, under which a cookie carried the user id itself
-- (whoever read this row could log in as anyone). A new key is made at start; it only
-- seals the token, so a forged cookie is dropped before the database is asked.
DELETE FROM settings WHERE key = 'session_key';
