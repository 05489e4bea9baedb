//! Four-player 四国军棋 (RULES §5), built up from its board: the 129 stations, their
//! connections and straight lines, and where pieces can go over them; its tables,
//! hands, deployment, scoring and 托管 policy. Play itself is the shared hidden-piece
//! game (`hidden_game`) on this board.

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

/// What 四国 allows: its row of the capability table.
pub const CAPS: Caps = Variant::Siguo.caps();

pub use alliance::Alliance;
pub use deploy::{DeployError, DeployView, Deployment4, Violation};
pub use geometry::FourPlayer;
pub use hand::{Hand, HandDeal, Hands};
pub use options::{FirstMover, SiguoOptions};
pub use station::{Kind, Seat4, Station, StationSet};
