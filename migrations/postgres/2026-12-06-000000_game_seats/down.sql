DROP TABLE game_seats;
