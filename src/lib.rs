//! 军棋翻翻棋 (flip chess) and standard 军棋: the rules core, game records, the
//! database, live games and the web service.

pub mod avatars;
pub mod cli;
pub mod db;
pub mod engine;
pub mod error;
pub mod layout_file;
pub mod live;
pub mod load;
pub mod quote;
pub mod record;
pub mod record_input;
pub mod review;
pub mod rules;
pub mod seed;
pub mod selfplay;
pub mod selfplay_siguo;
pub mod text;
pub mod web;
