-- 托管 in two-player games (docs/protocol.md, "托管"): each seat's count of 托管 taken
-- up, the kind it is in now (manual or disconnect) and whether it was made permanent
-- (the 4th), as JSON like the game's options and deployment: written when it changes
-- and read when a running game's task is loaded, so that a restart mid-game keeps
-- the limit of three and who the computer plays for. NULL: no seat ever took it up.
-- Four-player tables keep theirs in their actions and game_seats.tuoguan_count.
ALTER TABLE games ADD COLUMN tuoguan TEXT;
