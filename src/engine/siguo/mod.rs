//! The computer at a 四国 table (RULES §5). It plays one seat from that seat's
//! information set ([`SeatInfo`]), which is built from the [`SeatView`] the seat is
//! sent and the [`EventView`]s cut to it, and from nothing else: it cannot be handed
//! a game, so it cannot see more than the player in that chair.
//!
//! - [`choose`]: the step a level takes; [`choose_within`] the same with a deadline.
//! - [`decide`]: a level or a baseline (`random`, `greedy`), as the arena seats them.
//! - [`arena`]: `junqi arena --variant siguo`.
//!
//! [`SeatView`]: crate::rules::hidden_game::SeatView
//! [`EventView`]: crate::rules::hidden_game::EventView

pub mod arena;
pub mod baseline;
pub mod beliefs;
mod eval;
pub mod information;
mod sample;
mod search;

pub use information::SeatInfo;

use super::{Level, Player};
use crate::rules::hidden_game::Step;
use crate::rules::siguo::Station;
use rand::Rng;
use search::Budget;
use std::time::Instant;

/// What each level may spend on one decision. 困难 tries each of its moves in five
/// worlds and lets the three seats after it answer with attacks (a whole round of
/// the table); 普通 lets only the next seat answer, in four worlds; 入门 looks at its
/// own move alone and errs on purpose.
const fn budget(level: Level) -> Budget {
    match level {
        Level::Easy => Budget {
            worlds: 2,
            depth: 1,
            quiet_plies: 0,
            world_nodes: 200,
            noise: 40,
        },
        Level::Normal => Budget {
            worlds: 4,
            depth: 1,
            quiet_plies: 1,
            world_nodes: 2_000,
            noise: 8,
        },
        Level::Hard => Budget {
            worlds: 5,
            depth: 1,
            quiet_plies: 3,
            world_nodes: 3_000,
            noise: 0,
        },
        // 大师: as 困难, in twice the worlds with twice the nodes each.
        Level::Master => Budget {
            worlds: 10,
            depth: 1,
            quiet_plies: 3,
            world_nodes: 6_000,
            noise: 0,
        },
    }
}

/// The step `level` takes for the seat of `info`: a move, or a pass when it has none
/// (the rules then defeat it before its turn, so this is for a view out of date).
/// `None` when it is not this seat's turn or the game is over.
pub fn choose<R: Rng + ?Sized>(
    info: &SeatInfo,
    level: Level,
    rng: &mut R,
) -> Option<Step<Station>> {
    choose_within(info, level, rng, None)
}

/// [`choose`], cutting the search short at `deadline` if one is given: a move is still
/// chosen from what was seen.
pub fn choose_within<R: Rng + ?Sized>(
    info: &SeatInfo,
    level: Level,
    rng: &mut R,
    deadline: Option<Instant>,
) -> Option<Step<Station>> {
    if !info.to_act() {
        return None;
    }
    Some(
        match search::best_move(info, budget(level), rng, deadline) {
            Some((from, to)) => Step::Move { from, to },
            None => Step::Pass,
        },
    )
}

/// What `player` does for the seat of `info` now.
pub fn decide<R: Rng + ?Sized>(
    player: Player,
    info: &SeatInfo,
    rng: &mut R,
) -> Option<Step<Station>> {
    if !info.to_act() {
        return None;
    }
    let mv = match player {
        Player::Engine(level) => return choose(info, level, rng),
        Player::Random => baseline::random(info, rng),
        Player::Greedy => baseline::greedy(info, rng),
        // The arena refuses them at a 四国 table before any game starts.
        Player::HardV1 | Player::Expectimax2 => {
            panic!("{} plays only the two-player variants", player.name())
        }
    };
    Some(match mv {
        Some((from, to)) => Step::Move { from, to },
        None => Step::Pass,
    })
}
