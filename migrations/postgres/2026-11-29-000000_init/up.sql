CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE user_stats (
    user_id BIGINT NOT NULL REFERENCES users(id),
    variant TEXT NOT NULL,
    score BIGINT NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, variant)
);
CREATE INDEX user_stats_ladder ON user_stats (variant, score DESC, user_id);

CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    variant TEXT NOT NULL,
    status TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    seconds_per_action INTEGER NOT NULL,
    options TEXT NOT NULL,
    base INTEGER NOT NULL,
    creator_id BIGINT NOT NULL REFERENCES users(id),
    south_id BIGINT REFERENCES users(id),
    north_id BIGINT REFERENCES users(id),
    first_seat TEXT,
    deal TEXT,
    salt TEXT,
    commitment TEXT,
    previous_game TEXT,
    next_game TEXT,
    result TEXT,
    reason TEXT,
    score_south INTEGER,
    score_north INTEGER,
    colour_south TEXT,
    steps INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    started_at BIGINT,
    ended_at BIGINT,
    deadline_at BIGINT,
    end_ms BIGINT
);
CREATE INDEX games_by_status ON games (status, created_at);

CREATE TABLE game_actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE score_history (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    game_id TEXT NOT NULL REFERENCES games(id),
    variant TEXT NOT NULL,
    delta INTEGER NOT NULL,
    score_after BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX score_history_by_user ON score_history (user_id, id);

CREATE TABLE settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
