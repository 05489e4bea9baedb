-- The seats of a game at a table of more than two (四国): one row per seat, so that a
-- game of any seat count keeps its players, results and 托管 history alike rather than
-- in a column per seat. `seat` is the seat's name (south, east, north, west); `state`
-- is seated, ready (pressed ready before the start), playing, tuoguan (the server plays
-- it), exited (left for good), defeated or done (the game ended with it in play).
-- `result` (win, loss, draw) and `score_change` are set when the game ends.
CREATE TABLE game_seats (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    alliance INTEGER NOT NULL,
    state TEXT NOT NULL,
    result TEXT,
    score_change INTEGER,
    score_before BIGINT,
    tuoguan_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_user ON game_seats (user_id);
