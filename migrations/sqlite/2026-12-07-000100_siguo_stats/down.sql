-- Only the standings nobody has played yet: a rated table's results stay.
DELETE FROM user_stats WHERE variant = 'siguo' AND games = 0;
