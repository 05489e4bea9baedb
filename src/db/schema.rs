// One schema for both backends: ids and times are BIGINT (times in ms since the epoch).

diesel::table! {
    users (id) {
        id -> BigInt,
        username -> Text,
        username_key -> Text,
        password_hash -> Text,
        created_at -> BigInt,
        display_name -> Nullable<Text>,
        kind -> Text,
        avatar -> Nullable<Text>,
    }
}

diesel::table! {
    user_stats (user_id, variant) {
        user_id -> BigInt,
        variant -> Text,
        score -> BigInt,
        wins -> Integer,
        draws -> Integer,
        losses -> Integer,
        games -> Integer,
        streak -> Integer,
        best_streak -> Integer,
        recent_scores -> Text,
    }
}

diesel::table! {
    games (id) {
        id -> Text,
        variant -> Text,
        status -> Text,
        rated -> Bool,
        seconds_per_action -> Integer,
        options -> Text,
        base -> Integer,
        creator_id -> BigInt,
        south_id -> Nullable<BigInt>,
        north_id -> Nullable<BigInt>,
        first_seat -> Nullable<Text>,
        deal -> Nullable<Text>,
        salt -> Nullable<Text>,
        commitment -> Nullable<Text>,
        previous_game -> Nullable<Text>,
        next_game -> Nullable<Text>,
        result -> Nullable<Text>,
        reason -> Nullable<Text>,
        score_south -> Nullable<Integer>,
        score_north -> Nullable<Integer>,
        colour_south -> Nullable<Text>,
        steps -> Integer,
        created_at -> BigInt,
        started_at -> Nullable<BigInt>,
        ended_at -> Nullable<BigInt>,
        deadline_at -> Nullable<BigInt>,
        end_ms -> Nullable<BigInt>,
        score_before_south -> Nullable<BigInt>,
        score_before_north -> Nullable<BigInt>,
        deployment -> Nullable<Text>,
        alliance -> Nullable<Text>,
        tuoguan -> Nullable<Text>,
    }
}

diesel::table! {
    game_seats (game_id, seat) {
        game_id -> Text,
        seat -> Text,
        user_id -> BigInt,
        alliance -> Integer,
        state -> Text,
        result -> Nullable<Text>,
        score_change -> Nullable<Integer>,
        score_before -> Nullable<BigInt>,
        tuoguan_count -> Integer,
    }
}

diesel::table! {
    saved_layouts (id) {
        id -> BigInt,
        user_id -> BigInt,
        name -> Text,
        layout -> Text,
        updated_at -> BigInt,
    }
}

diesel::table! {
    piece_marks (game_id, user_id, origin) {
        game_id -> Text,
        user_id -> BigInt,
        origin -> Text,
        mark -> Text,
    }
}

diesel::table! {
    game_players (user_id, game_id) {
        user_id -> BigInt,
        game_id -> Text,
        variant -> Text,
        outcome -> Text,
        ended_at -> BigInt,
        rated -> Bool,
        base -> Integer,
        south_id -> Nullable<BigInt>,
        north_id -> Nullable<BigInt>,
        south_name -> Nullable<Text>,
        north_name -> Nullable<Text>,
        result -> Nullable<Text>,
        reason -> Nullable<Text>,
        steps -> Integer,
        score_south -> Nullable<Integer>,
        score_north -> Nullable<Integer>,
        score_before_south -> Nullable<BigInt>,
        score_before_north -> Nullable<BigInt>,
        colour_south -> Nullable<Text>,
        alliance -> Nullable<Text>,
    }
}

diesel::table! {
    game_actions (game_id, idx) {
        game_id -> Text,
        idx -> Integer,
        seat -> Text,
        action -> Text,
        at_ms -> BigInt,
    }
}

diesel::table! {
    live_steps (seq) {
        seq -> BigInt,
        game_id -> Text,
        idx -> Integer,
        seat -> Text,
        action -> Text,
        at_ms -> BigInt,
    }
}

diesel::table! {
    score_history (id) {
        id -> BigInt,
        user_id -> BigInt,
        game_id -> Text,
        variant -> Text,
        delta -> Integer,
        score_after -> BigInt,
        created_at -> BigInt,
    }
}

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::table! {
    sessions (token_hash) {
        token_hash -> Text,
        user_id -> BigInt,
        created_at -> BigInt,
        last_seen_at -> BigInt,
        expires_at -> BigInt,
        user_agent -> Nullable<Text>,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        name -> Text,
        token_hash -> Text,
        created_at -> BigInt,
        last_used_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    follows (follower_id, followee_id) {
        follower_id -> BigInt,
        followee_id -> BigInt,
        created_at -> BigInt,
    }
}

diesel::table! {
    blocks (blocker_id, blocked_id) {
        blocker_id -> BigInt,
        blocked_id -> BigInt,
        created_at -> BigInt,
    }
}

diesel::table! {
    challenges (id) {
        id -> Text,
        challenger_id -> BigInt,
        challenged_id -> BigInt,
        variant -> Text,
        seconds_per_action -> Integer,
        rated -> Bool,
        status -> Text,
        game_id -> Nullable<Text>,
        created_at -> BigInt,
        decided_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    watch_permits (owner_id, viewer_id) {
        owner_id -> BigInt,
        viewer_id -> BigInt,
        created_at -> BigInt,
    }
}

diesel::joinable!(user_stats -> users (user_id));
diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(saved_layouts -> users (user_id));
diesel::joinable!(score_history -> users (user_id));
diesel::joinable!(game_actions -> games (game_id));
diesel::joinable!(game_players -> games (game_id));
diesel::joinable!(game_seats -> games (game_id));
diesel::joinable!(game_seats -> users (user_id));
diesel::joinable!(game_players -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    user_stats,
    games,
    game_seats,
    game_actions,
    game_players,
    live_steps,
    score_history,
    settings,
    saved_layouts,
    piece_marks,
    sessions,
    api_tokens,
    follows,
    blocks,
    challenges,
    watch_permits
);
