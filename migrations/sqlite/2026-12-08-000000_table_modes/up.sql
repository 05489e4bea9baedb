-- A 四国 table's alliance mode (option `alliance`: opposite 对家, adjacent 并肩, none
-- 混战, RULES §5.2) as a column of its own, on the game and on each player's history
-- line, so that the history lists filter by mode through an index rather than by
-- reading each table's options. Written when a table's game ends (the lists show
-- finished games only); NULL for two-player games.
ALTER TABLE games ADD COLUMN alliance TEXT;
ALTER TABLE game_players ADD COLUMN alliance TEXT;
-- The stored options are serialised SiguoOptions under "siguo", whose `alliance` is
-- always written; a table stored without it plays the default, opposite.
UPDATE games SET alliance = CASE
        WHEN options LIKE '%"alliance":"adjacent"%' THEN 'adjacent'
        WHEN options LIKE '%"alliance":"none"%' THEN 'none'
        ELSE 'opposite'
    END
WHERE variant = 'siguo' AND status = 'finished';
UPDATE game_players SET alliance = (SELECT g.alliance FROM games g WHERE g.id = game_players.game_id)
WHERE variant = 'siguo';
-- Finished tables of one mode newest first, as games_history_variant is for a variant
-- (only 四国 rows have a mode, so the mode alone picks them).
CREATE INDEX games_history_alliance ON games (status, alliance, ended_at DESC, id DESC);
-- The covering index of a player's history takes the new column too.
DROP INDEX game_players_history;
CREATE INDEX game_players_history ON game_players (user_id, ended_at DESC, game_id DESC,
    variant, outcome, rated, base, south_id, north_id, south_name, north_name, result, reason, steps, score_south, score_north, score_before_south, score_before_north, colour_south, alliance);
