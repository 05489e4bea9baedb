-- API tokens of bot accounts. A token is shown to its owner once, when it is made; only
-- its SHA-256 is kept here, so a reader of the database cannot act as a bot. Revoking
-- a token deletes its row. last_used_at moves forward at most once a minute.
CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);
