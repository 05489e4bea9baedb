-- Standard 军棋: the deployment in progress (both layouts and who is ready; the layouts
-- move to the deal column when play starts), saved and last-used layouts, and piece marks.
ALTER TABLE games ADD COLUMN deployment TEXT;

CREATE TABLE saved_layouts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    layout TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (user_id, name)
);

-- The layout each player last went to battle with, offered first next time.
CREATE TABLE last_layouts (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users(id),
    layout TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- A player's guesses about enemy pieces, keyed by the square the piece was deployed
-- on, so a mark follows its piece without being rewritten at every move.
CREATE TABLE piece_marks (
    game_id TEXT NOT NULL REFERENCES games(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    origin TEXT NOT NULL,
    mark TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id, origin)
);
