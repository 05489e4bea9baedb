-- The actions of running games, in the order they were stored. Each batch of the
-- writer appends at the log's end (one or two pages, whatever games it holds), where
-- rows keyed by game scattered every action over a page of its own. A game's actions
-- go to game_actions together when it ends; the log's front is trimmed as games end
-- (see src/db/step_log.rs). No index and no reference to games: the log is only read
-- whole, and every game it names exists.
CREATE TABLE live_steps (
    seq BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
