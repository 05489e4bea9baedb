//! 四国's two baselines, deciding from the seat's information set only:
//! - `random`: uniform among the legal moves;
//! - `greedy`: the attack with the best gain it expects, over what the target may
//!   still be (each kind weighted by how many a set holds); otherwise a random move.

use super::beliefs::kind_bit;
use super::eval::gain;
use super::information::SeatInfo;
use crate::rules::Piece;
use crate::rules::siguo::Station;
use rand::{Rng, RngExt};

pub fn random<R: Rng + ?Sized>(info: &SeatInfo, rng: &mut R) -> Option<(Station, Station)> {
    let legal = info.legal();
    (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())])
}

/// What this seat expects an attack from `from` on `to` to win; `None` if `to` is
/// empty or the attacker is not one it can name.
pub fn expected_gain(info: &SeatInfo, from: Station, to: Station) -> Option<f64> {
    let cells = &info.view().cells;
    let cell = |s: Station| cells.iter().find(|(at, _)| *at == s).map(|&(_, c)| c);
    let attacker = cell(from)?.piece?;
    let target = cell(to)?;
    if let Some(d) = target.piece {
        return Some(gain(attacker, d) as f64);
    }
    let t = info.beliefs().at(to)?;
    let (mut sum, mut n) = (0.0, 0.0);
    for p in Piece::ALL {
        if t.kinds & kind_bit(p) != 0 {
            let w = p.count() as f64;
            sum += w * gain(attacker, p) as f64;
            n += w;
        }
    }
    (n > 0.0).then(|| sum / n)
}

pub fn greedy<R: Rng + ?Sized>(info: &SeatInfo, rng: &mut R) -> Option<(Station, Station)> {
    let mut best: Option<(f64, (Station, Station))> = None;
    for &(from, to) in info.legal() {
        if let Some(g) = expected_gain(info, from, to)
            && g > 0.0
            && best.is_none_or(|(b, _)| g > b)
        {
            best = Some((g, (from, to)));
        }
    }
    match best {
        Some((_, m)) => Some(m),
        None => random(info, rng),
    }
}
