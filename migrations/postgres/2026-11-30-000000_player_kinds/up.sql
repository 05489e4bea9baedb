-- Who an account is: a person, an outside bot its owner drives with API tokens, or one
-- of the site's own computer players (one account per level). Bots' games are scored
-- only against other bots; games against the computer are casual.
ALTER TABLE users ADD COLUMN kind TEXT NOT NULL DEFAULT 'person';
