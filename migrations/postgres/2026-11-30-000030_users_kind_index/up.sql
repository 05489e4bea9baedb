-- The site's computer accounts are looked up by kind on every profile (the record
-- against the computer) and when a game against the computer starts: an index, not a
-- scan of every account.
CREATE INDEX users_kind ON users (kind);
