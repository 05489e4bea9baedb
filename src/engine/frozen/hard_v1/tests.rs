//! hard-v1 stays what 困难 was at commit 57c6d4f: the openings of three seeded arena
//! games against greedy (two flip, one standard; hard-v1 North in one, South in the
//! others), hashed. The goldens were produced at that commit by
//! `Player::Engine(Level::Hard)` in hard-v1's seat, and hard-v1 played the very same
//! actions then; a change here means hard-v1 moved and no longer measures what it was
//! kept for. (Greedy reads hard-v1's frozen value table, so it stays put too.)

use crate::engine::Player;
use crate::engine::arena::play_index;
use crate::rules::{Action, Variant};

/// FNV-1a over the actions' debug text: the same on any machine and build.
fn actions_hash(actions: &[Action]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for a in actions {
        for b in format!("{a:?};").bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// (variant, seed, game index, steps played, hash of those steps' actions). Index 0
/// seats hard-v1 South, 1 North.
const GOLDEN: [(Variant, u64, u64, u32, u64); 3] = [
    (Variant::Flip, 12, 1, 80, 0xaaf6_0128_9de3_3972),
    (Variant::Flip, 3, 0, 60, 0x5a1d_e538_af1f_b36b),
    (Variant::Standard, 2, 0, 12, 0xc03c_79d4_3be5_093f),
];

fn opening(
    player: Player,
    (variant, seed, index, steps, _): (Variant, u64, u64, u32, u64),
) -> Vec<Action> {
    let played = play_index(variant, player, Player::Greedy, seed, index, steps);
    assert_eq!(
        played.game.steps(),
        steps,
        "the game lasts past the opening"
    );
    played.actions
}

#[test]
fn hard_v1_plays_the_openings_hard_played_at_57c6d4f() {
    for case in GOLDEN {
        let actions = opening(Player::HardV1, case);
        assert_eq!(actions_hash(&actions), case.4, "{case:?}: {actions:?}");
    }
}
