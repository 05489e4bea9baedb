//! hard-v1's copy of `engine::assess` as it stood at commit 57c6d4f, frozen as the
//! baseline the arena measures engine changes against: it must not change (the
//! golden test in `frozen::hard_v1` holds it to that commit's decisions).
//!
//! Answering draw offers and resigning: both read the balance of the position as the
//! evaluation sees it (flip chess: the public position; standard: the mean over a few
//! determinizations).

use super::eval::{evaluate, value};
use super::sample::{determinize, flip_position};
use super::state::{Rules, State};
use crate::engine::information::Information;
use crate::rules::{Piece, SetupKind};
use rand::Rng;

/// A draw is taken when behind by more than this.
const ACCEPT_BELOW: i32 = -60;
/// Resigning needs a deficit past this, and almost nothing left that moves.
const RESIGN_BELOW: i32 = -250;

/// The position's worth to the seat, and the worth of its pieces that can move.
fn balance<R: Rng + ?Sized>(info: &Information, rng: &mut R) -> Option<(i32, i32)> {
    let me = info.my_colour()?;
    let rules = Rules {
        variant: info.variant,
        options: info.options,
    };
    let states: Vec<State> = match info.variant.caps().setup {
        SetupKind::Deal => vec![State {
            pos: flip_position(info),
            to_move: me,
            pool: info.pool,
            winner: None,
        }],
        SetupKind::Deployment => (0..4)
            .filter_map(|_| determinize(info, rng))
            .map(|pos| State {
                pos,
                to_move: me,
                pool: [[0; 12]; 2],
                winner: None,
            })
            .collect(),
    };
    if states.is_empty() {
        return None;
    }
    let n = states.len() as i32;
    let worth = states
        .iter()
        .map(|st| evaluate(&rules, st, me))
        .sum::<i32>()
        / n;
    let st = &states[0];
    let mut army: i32 = st.pool[me.index()]
        .iter()
        .enumerate()
        .filter(|(k, _)| Piece::ALL[*k].movable())
        .map(|(k, &c)| c as i32 * value(Piece::ALL[k]))
        .sum();
    for s in st.pos.of_colour(me).iter() {
        if let Some(t) = st.known(&rules, s)
            && t.piece.movable()
        {
            army += value(t.piece);
        }
    }
    Some((worth, army))
}

pub fn accepts_draw<R: Rng + ?Sized>(info: &Information, rng: &mut R) -> bool {
    balance(info, rng).is_some_and(|(worth, _)| worth <= ACCEPT_BELOW)
}

pub fn hopeless<R: Rng + ?Sized>(info: &Information, rng: &mut R) -> bool {
    balance(info, rng).is_some_and(|(worth, army)| worth <= RESIGN_BELOW && army <= 30)
}
