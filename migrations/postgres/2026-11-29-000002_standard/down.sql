DROP TABLE piece_marks;
DROP TABLE last_layouts;
DROP TABLE saved_layouts;
ALTER TABLE games DROP COLUMN deployment;
