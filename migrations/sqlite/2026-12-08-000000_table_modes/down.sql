DROP INDEX game_players_history;
CREATE INDEX game_players_history ON game_players (user_id, ended_at DESC, game_id DESC,
    variant, outcome, rated, base, south_id, north_id, south_name, north_name, result, reason, steps, score_south, score_north, score_before_south, score_before_north, colour_south);
DROP INDEX games_history_alliance;
ALTER TABLE game_players DROP COLUMN alliance;
ALTER TABLE games DROP COLUMN alliance;
