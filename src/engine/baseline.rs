//! The arena's two baselines. Both decide from the information set only.
//! - `random`: uniform among the legal flips and moves.
//! - `greedy`: the attack with the best gain it can see (flip chess: exact, from the
//!   face-up pieces; standard: expected over what the target may still be), otherwise a
//!   random action.

use super::Decision;
use super::beliefs::kind_bit;
use super::eval::value;
use super::information::Information;
use crate::rules::piece::resolve;
use crate::rules::{Action, Combat, Piece};
use rand::{Rng, RngExt};

/// What a baseline does when an offer is open: it declines; otherwise waits its turn.
fn not_my_turn(info: &Information) -> Option<Decision> {
    if info.is_over() {
        return Some(Decision::Wait);
    }
    if info.open_offer() == Some(info.seat().other()) {
        return Some(Decision::DeclineDraw);
    }
    (info.to_move() != info.seat()).then_some(Decision::Wait)
}

pub fn random<R: Rng + ?Sized>(info: &Information, rng: &mut R) -> Decision {
    if let Some(d) = not_my_turn(info) {
        return d;
    }
    let legal = info.legal();
    if legal.is_empty() {
        return Decision::Play(Action::Pass);
    }
    Decision::Play(legal[rng.random_range(0..legal.len())])
}

/// Material won minus material lost when `attacker` meets `defender`.
fn gain(attacker: Piece, defender: Piece) -> f64 {
    let (a, d) = (value(attacker) as f64, value(defender) as f64);
    let flag = if defender == Piece::Flag {
        10_000.0
    } else {
        0.0
    };
    flag + match resolve(attacker, defender) {
        Combat::AttackerWins => d,
        Combat::DefenderWins => -a,
        Combat::BothRemoved => d - a,
    }
}

pub fn greedy<R: Rng + ?Sized>(info: &Information, rng: &mut R) -> Decision {
    if let Some(d) = not_my_turn(info) {
        return d;
    }
    let mut best: Option<(f64, Action)> = None;
    for &a in info.legal() {
        let Action::Move { from, to } = a else {
            continue;
        };
        let Some((attacker, _)) = info.known_piece(from) else {
            continue;
        };
        if info.cell(to).is_none() {
            continue;
        }
        let g = match (
            info.variant().caps().owners_know_hidden,
            info.known_piece(to),
        ) {
            (_, Some((defender, _))) => gain(attacker, defender),
            // A hidden piece is someone's: what is believed of it weighs the gain.
            (true, None) => match info.beliefs.at(to) {
                Some(t) => {
                    let (mut sum, mut n) = (0.0, 0.0);
                    for p in Piece::ALL {
                        if t.kinds & kind_bit(p) != 0 {
                            let w = p.count() as f64;
                            sum += w * gain(attacker, p);
                            n += w;
                        }
                    }
                    if n > 0.0 { sum / n } else { 0.0 }
                }
                None => 0.0,
            },
            // A face-down piece is nobody's yet and cannot be attacked.
            (false, None) => continue,
        };
        if g > 0.0 && best.is_none_or(|(b, _)| g > b) {
            best = Some((g, a));
        }
    }
    match best {
        Some((_, a)) => Decision::Play(a),
        None => random(info, rng),
    }
}
