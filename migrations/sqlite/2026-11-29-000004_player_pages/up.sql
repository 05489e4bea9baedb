-- A player's row of a finished game carries everything a history line shows, so
-- a player's history and profile read one index range instead of fetching each game
-- and both players' names (usernames never change, so the copies stay true).
ALTER TABLE game_players ADD COLUMN rated BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD COLUMN base INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD COLUMN south_id BIGINT;
ALTER TABLE game_players ADD COLUMN north_id BIGINT;
ALTER TABLE game_players ADD COLUMN south_name TEXT;
ALTER TABLE game_players ADD COLUMN north_name TEXT;
ALTER TABLE game_players ADD COLUMN result TEXT;
ALTER TABLE game_players ADD COLUMN reason TEXT;
ALTER TABLE game_players ADD COLUMN steps INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD COLUMN score_south INTEGER;
ALTER TABLE game_players ADD COLUMN score_north INTEGER;
ALTER TABLE game_players ADD COLUMN score_before_south BIGINT;
ALTER TABLE game_players ADD COLUMN score_before_north BIGINT;
ALTER TABLE game_players ADD COLUMN colour_south TEXT;
UPDATE game_players SET
    rated = g.rated,
    base = g.base,
    south_id = g.south_id,
    north_id = g.north_id,
    south_name = s.username,
    north_name = n.username,
    result = g.result,
    reason = g.reason,
    steps = g.steps,
    score_south = g.score_south,
    score_north = g.score_north,
    score_before_south = g.score_before_south,
    score_before_north = g.score_before_north,
    colour_south = g.colour_south
FROM games g
LEFT JOIN users s ON s.id = g.south_id
LEFT JOIN users n ON n.id = g.north_id
WHERE g.id = game_players.game_id;
DROP INDEX game_players_recent;
-- Covering: every column a history line shows is in the index (SQLite has no INCLUDE).
CREATE INDEX game_players_history ON game_players (user_id, ended_at DESC, game_id DESC,
    variant, outcome, rated, base, south_id, north_id, south_name, north_name, result, reason, steps, score_south, score_north, score_before_south, score_before_north, colour_south);

-- The profile's score chart: each player's latest 200 scores in a variant, oldest first,
-- kept beside the stats it is drawn with so that a profile is read in one query.
ALTER TABLE user_stats ADD COLUMN recent_scores TEXT NOT NULL DEFAULT '';
UPDATE user_stats SET recent_scores = COALESCE((
    SELECT group_concat(score_after, ',' ORDER BY id)
    FROM (SELECT id, score_after FROM score_history h
          WHERE h.user_id = user_stats.user_id AND h.variant = user_stats.variant
          ORDER BY id DESC LIMIT 200) latest
), '');
