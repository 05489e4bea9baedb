//! Who plays a seat in the arena: an engine level, a frozen earlier engine, or one of
//! the baselines they are measured against.

use super::information::Information;
use super::{Decision, Level, baseline, choose, deploy, frozen};
use rand::Rng;

/// Who plays a seat in the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    Engine(Level),
    /// 困难 frozen as it stood at commit 57c6d4f (`frozen::hard_v1`), two-player only.
    HardV1,
    /// Two plies of expectimax over material (`baseline::expectimax2`), two-player
    /// only.
    Expectimax2,
    /// Uniform among the legal flips and moves.
    Random,
    /// The best capture it can see, otherwise a random action.
    Greedy,
}

impl Player {
    /// Every name the arena accepts, in the order its help lists them.
    pub const NAMES: [&'static str; 8] = [
        "easy",
        "normal",
        "hard",
        "master",
        "hard-v1",
        "expectimax2",
        "random",
        "greedy",
    ];

    pub fn name(self) -> &'static str {
        match self {
            Player::Engine(l) => l.name(),
            Player::HardV1 => "hard-v1",
            Player::Expectimax2 => "expectimax2",
            Player::Random => "random",
            Player::Greedy => "greedy",
        }
    }

    pub fn from_name(s: &str) -> Option<Player> {
        match s {
            "hard-v1" => Some(Player::HardV1),
            "expectimax2" => Some(Player::Expectimax2),
            "random" => Some(Player::Random),
            "greedy" => Some(Player::Greedy),
            _ => Level::from_name(s).map(Player::Engine),
        }
    }

    /// Whether it can take a seat at a 四国 table (the frozen engine and the
    /// expectimax baseline know only the two-player board).
    pub fn plays_siguo(self) -> bool {
        !matches!(self, Player::HardV1 | Player::Expectimax2)
    }

    pub fn decide<R: Rng + ?Sized>(self, info: &Information, rng: &mut R) -> Decision {
        match self {
            Player::Engine(level) => choose(info, level, rng),
            Player::HardV1 => frozen::hard_v1::choose(info, rng),
            Player::Expectimax2 => baseline::expectimax2(info, rng),
            Player::Random => baseline::random(info, rng),
            Player::Greedy => baseline::greedy(info, rng),
        }
    }

    /// A standard layout for `seat`: the engine's own; hard-v1's frozen copy of it for
    /// hard-v1 and expectimax2 (so that a measurement against them is of play, not of
    /// a layout that moves with the engine); random for random and greedy.
    pub fn layout<R: Rng + ?Sized>(
        self,
        seat: crate::rules::Seat,
        rng: &mut R,
    ) -> crate::rules::Layout {
        match self {
            Player::Engine(level) => deploy(level, seat, rng),
            Player::HardV1 | Player::Expectimax2 => frozen::hard_v1::deploy(seat, rng),
            Player::Random | Player::Greedy => crate::rules::Layout::random(seat, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for name in Player::NAMES {
            let p = Player::from_name(name).expect(name);
            assert_eq!(p.name(), name);
        }
        assert_eq!(Player::from_name("hard_v1"), None);
        assert!(!Player::HardV1.plays_siguo() && !Player::Expectimax2.plays_siguo());
        assert!(Player::Engine(Level::Master).plays_siguo() && Player::Greedy.plays_siguo());
    }
}
