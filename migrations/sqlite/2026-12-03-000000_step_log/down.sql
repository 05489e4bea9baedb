-- Back to one table: the running games' actions still in the log join the others.
INSERT INTO game_actions (game_id, idx, seat, action, at_ms)
    SELECT game_id, idx, seat, action, at_ms FROM live_steps WHERE true
    ORDER BY game_id, idx
    ON CONFLICT DO NOTHING;
DROP TABLE live_steps;
