DROP TABLE settings;
DROP TABLE score_history;
DROP TABLE game_actions;
DROP TABLE games;
DROP TABLE user_stats;
DROP TABLE users;
