DROP TABLE watch_permits;
