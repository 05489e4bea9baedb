CREATE TABLE last_layouts (
    user_id BIGINT PRIMARY KEY NOT NULL REFERENCES users(id),
    layout TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
