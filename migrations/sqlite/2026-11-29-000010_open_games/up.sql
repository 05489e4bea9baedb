-- Quick pairing looks up open games by their settings, newest first, rather than
-- scanning the oldest open games; the per-player caps count a player's open games and
-- the rated games they are seated in.
CREATE INDEX games_open_by_settings ON games (status, variant, seconds_per_action, rated, created_at);
CREATE INDEX games_by_creator ON games (creator_id, status);
CREATE INDEX games_by_south ON games (south_id, status);
CREATE INDEX games_by_north ON games (north_id, status);
