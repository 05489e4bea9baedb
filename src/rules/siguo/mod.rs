//! Four-player 四国军棋 (RULES §5), built up from its board: the 129 stations, their
//! connections and straight lines, and where pieces can go over them. The seats, turns,
//! views and scoring of §5.2–5.9 are to come on top of these.

pub mod board;
pub mod station;

pub use station::{Kind, Seat4, Station, StationSet};
