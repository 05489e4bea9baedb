-- The social layer. follows: who follows whom (关注), shown on /friends with whether
-- each is online or playing. blocks: a blocked player cannot challenge the blocker,
-- and the blocker's sockets are not sent their phrases. challenges: an invitation to
-- one named player to a game of given settings; `status` is pending, accepting (taken
-- by the accept that is starting the game), accepted (with its game), declined,
-- cancelled or expired (pending past its five minutes, set when next read).
CREATE TABLE follows (
    follower_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    followee_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (follower_id, followee_id)
);
CREATE TABLE blocks (
    blocker_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    blocked_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id)
);
CREATE TABLE challenges (
    id TEXT PRIMARY KEY NOT NULL,
    challenger_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    challenged_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    seconds_per_action INTEGER NOT NULL,
    rated BOOLEAN NOT NULL,
    status TEXT NOT NULL,
    game_id TEXT,
    created_at BIGINT NOT NULL,
    decided_at BIGINT
);
CREATE INDEX challenges_challenged ON challenges (challenged_id, created_at);
CREATE INDEX challenges_challenger ON challenges (challenger_id, created_at);
