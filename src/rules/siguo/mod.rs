//! Four-player 四国军棋 (RULES §5), built up from its board: the 129 stations, their
//! connections and straight lines, and where pieces can go over them. The seats, turns,
//! views and scoring of §5.2–5.9 are to come on top of these.

pub mod alliance;
pub mod board;
pub mod deploy;
pub mod geometry;
pub mod hand;
pub mod options;
pub mod scoring;
pub mod station;
pub mod tuoguan;

use crate::rules::options::{Caps, Variant};

/// What 四国 allows, in the capability table's terms. Play is §4's on this board
/// (deployed hidden pieces, any enemy piece outside a camp may be attacked, the HQ
/// lock, passes, the flag shown when the marshal falls: RULES §5.3–5.4), so it is
/// standard's row until 四国 has its own in `Variant`.
pub const CAPS: Caps = Variant::Standard.caps();

pub use alliance::Alliance;
pub use deploy::{DeployError, DeployView, Deployment4, Violation};
pub use geometry::FourPlayer;
pub use hand::{Hand, HandDeal, Hands};
pub use options::{FirstMover, SiguoOptions};
pub use station::{Kind, Seat4, Station, StationSet};
