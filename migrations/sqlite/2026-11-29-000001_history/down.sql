ALTER TABLE user_stats DROP COLUMN best_streak;
ALTER TABLE user_stats DROP COLUMN streak;
DROP INDEX games_history_result;
DROP INDEX games_history_reason;
DROP INDEX games_history_variant;
DROP INDEX games_history;
DROP TABLE game_players;
ALTER TABLE games DROP COLUMN score_before_north;
ALTER TABLE games DROP COLUMN score_before_south;
