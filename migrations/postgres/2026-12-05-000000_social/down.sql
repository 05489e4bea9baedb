DROP TABLE challenges;
DROP TABLE blocks;
DROP TABLE follows;
