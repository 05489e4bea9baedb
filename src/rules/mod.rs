//! The rules of 军棋: the board, flip chess and standard two-player games, per-seat
//! views, scores and ranks. Pure: no IO, no clock, no randomness but what is passed in.

pub mod board;
pub mod deal;
pub mod delta;
pub mod game;
pub mod layout;
pub mod options;
pub mod piece;
pub mod position;
pub mod rank;
pub mod scoring;
pub mod siguo;
mod tables;
pub mod view;

pub use board::{EdgeKind, Square, SquareSet, StationKind};
pub use deal::Deal;
pub use game::{Action, Applied, EndReason, Game, LegalActions, Outcome, RuleError};
pub use layout::{Layout, LayoutViolation};
pub use options::{ColourRule, Options, Variant};
pub use piece::{Colour, Combat, Piece, Seat, Token};
pub use position::Position;
pub use rank::Rank;
pub use view::{View, Viewer};
