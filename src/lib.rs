//! 军棋翻翻棋 (flip chess) and standard 军棋: the rules core, game records, and the
//! tools built on them.

pub mod cli;
pub mod record;
pub mod rules;
pub mod selfplay;
pub mod db;
