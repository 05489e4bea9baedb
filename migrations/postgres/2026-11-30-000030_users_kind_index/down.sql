DROP INDEX users_kind;
