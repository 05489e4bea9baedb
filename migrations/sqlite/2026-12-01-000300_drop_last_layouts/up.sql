-- A new standard deployment starts from a random layout, no longer from the one the
-- player last went to battle with (which the finished game's record shows its
-- opponent): nothing reads the last-used layouts any more.
DROP TABLE last_layouts;
