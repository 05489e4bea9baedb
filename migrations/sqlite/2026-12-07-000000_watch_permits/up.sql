-- 指定旁观 (RULES §5.6): each player's list, empty by default, of the users allowed to
-- see that player's pieces while watching the player's games (四国 tables and
-- two-player standard games). A listed spectator sees exactly the player's view.
CREATE TABLE watch_permits (
    owner_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    viewer_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (owner_id, viewer_id)
);
