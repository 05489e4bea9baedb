-- The figure (角色秀) a player picked for their seat card, profile and lobby rows: a
-- name from the set in src/avatars.rs. NULL until they pick one; the service then
-- shows a default derived from the id, and the computer players always show their
-- level's own figure.
ALTER TABLE users ADD COLUMN avatar TEXT;
