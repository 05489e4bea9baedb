DROP INDEX games_by_north;
DROP INDEX games_by_south;
DROP INDEX games_by_creator;
DROP INDEX games_open_by_settings;
