//! The rules of 军棋: the board, flip chess and standard two-player games, per-seat
//! views, scores and ranks. Pure: no IO, no clock, no randomness but what is passed in.

/// Display, Debug and serde for a place on a board by its name: written with `as_str`,
/// read with `FromStr` (the squares of the two-player board, the stations of 四国).
macro_rules! shown_by_name {
    ($t:ty) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

pub mod board;
pub mod deal;
pub mod delta;
pub mod game;
pub mod geometry;
pub mod hidden_game;
pub mod layout;
pub mod options;
pub mod piece;
pub mod position;
pub mod rank;
pub mod scoring;
mod side;
pub mod siguo;
mod tables;
pub mod view;

pub use board::{EdgeKind, Square, SquareSet, StationKind, TwoPlayer};
pub use deal::Deal;
pub use game::{Action, Applied, EndReason, Game, LegalActions, Outcome, RuleError};
pub use layout::{Layout, LayoutViolation};
pub use options::{ColourRule, Options, ScoreTable, SetupKind, Variant};
pub use piece::{Colour, Combat, Piece, Seat, Token};
pub use position::Position;
pub use rank::Rank;
pub use view::{View, Viewer};
