-- Scores before the game, so history can show each player's rank at the time.
ALTER TABLE games ADD COLUMN score_before_south BIGINT;
ALTER TABLE games ADD COLUMN score_before_north BIGINT;

-- One row per player of a finished game: the per-player history and its keyset index.
CREATE TABLE game_players (
    user_id BIGINT NOT NULL REFERENCES users(id),
    game_id TEXT NOT NULL REFERENCES games(id),
    variant TEXT NOT NULL,
    outcome TEXT NOT NULL,
    ended_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX game_players_recent ON game_players (user_id, ended_at DESC, game_id DESC);

-- Finished games newest first, whole and per variant, reason and result. Status leads
-- each index (rather than a partial index) because the query binds it as a parameter,
-- which a partial index's WHERE clause cannot be matched against.
CREATE INDEX games_history ON games (status, ended_at DESC, id DESC);
CREATE INDEX games_history_variant ON games (status, variant, ended_at DESC, id DESC);
CREATE INDEX games_history_reason ON games (status, reason, ended_at DESC, id DESC);
CREATE INDEX games_history_result ON games (status, result, ended_at DESC, id DESC);

-- Streaks, kept up to date at each game end.
ALTER TABLE user_stats ADD COLUMN streak INTEGER NOT NULL DEFAULT 0;
ALTER TABLE user_stats ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0;
