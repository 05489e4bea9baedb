-- Every player has a standing at 四国 from the start, as at the two-player variants:
-- the 四国 ladder and profile tab list them at 0 until their first rated table.
INSERT INTO user_stats (user_id, variant)
SELECT id, 'siguo' FROM users
WHERE id NOT IN (SELECT user_id FROM user_stats WHERE variant = 'siguo');
