//! Who plays a seat in the arena: an engine level or one of the baselines it is
//! measured against.

use super::information::Information;
use super::{Decision, Level, baseline, choose, deploy};
use rand::Rng;

/// Who plays a seat in the arena: an engine level or a baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    Engine(Level),
    /// Uniform among the legal flips and moves.
    Random,
    /// The best capture it can see, otherwise a random action.
    Greedy,
}

impl Player {
    pub fn name(self) -> &'static str {
        match self {
            Player::Engine(l) => l.name(),
            Player::Random => "random",
            Player::Greedy => "greedy",
        }
    }

    pub fn from_name(s: &str) -> Option<Player> {
        match s {
            "random" => Some(Player::Random),
            "greedy" => Some(Player::Greedy),
            _ => Level::from_name(s).map(Player::Engine),
        }
    }

    pub fn decide<R: Rng + ?Sized>(self, info: &Information, rng: &mut R) -> Decision {
        match self {
            Player::Engine(level) => choose(info, level, rng),
            Player::Random => baseline::random(info, rng),
            Player::Greedy => baseline::greedy(info, rng),
        }
    }

    /// A standard layout for `seat`: the engine's own, random for the baselines.
    pub fn layout<R: Rng + ?Sized>(
        self,
        seat: crate::rules::Seat,
        rng: &mut R,
    ) -> crate::rules::Layout {
        match self {
            Player::Engine(level) => deploy(level, seat, rng),
            Player::Random | Player::Greedy => crate::rules::Layout::random(seat, rng),
        }
    }
}
