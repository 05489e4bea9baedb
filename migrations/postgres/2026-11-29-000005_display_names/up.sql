-- A player's display name (昵称), shown beside the login name, which stays in URLs.
-- NULL when unset; checked by the service (1 to 12 characters, letters, digits,
-- spaces and _-·), not unique.
ALTER TABLE users ADD COLUMN display_name TEXT;
