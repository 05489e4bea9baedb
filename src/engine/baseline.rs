//! The arena's baselines. All decide from the information set only.
//! - `random`: uniform among the legal flips and moves.
//! - `greedy`: the attack with the best gain it can see (flip chess: exact, from the
//!   face-up pieces; standard: expected over what the target may still be), otherwise a
//!   random action.
//! - `expectimax2`: two plies (its action and the reply) over material, flips averaged
//!   over the public pool, standard 军棋 averaged over a few determinizations.

use super::Decision;
use super::beliefs::kind_bit;
use super::frozen::hard_v1::{determinize, value as frozen_value};
use super::information::{Information, Pool};
use crate::rules::board::Square;
use crate::rules::options::Caps;
use crate::rules::piece::resolve;
use crate::rules::{Action, Colour, Combat, Options, Piece, Position, SetupKind, Token};
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

/// Material won minus material lost when `attacker` meets `defender` (hard-v1's frozen
/// value table: the engine's at commit 57c6d4f, so that greedy does not move with it).
fn gain(attacker: Piece, defender: Piece) -> f64 {
    let (a, d) = (frozen_value(attacker) as f64, frozen_value(defender) as f64);
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

/// Determinizations `expectimax2` averages over in standard 军棋.
const WORLDS: usize = 6;
/// Taking the flag, or leaving the opponent nothing to do: past any material.
const FLAG_TAKEN: f64 = 10_000.0;

/// What `expectimax2` searches: the variant's rules and its own colour.
struct Plies {
    caps: Caps,
    options: Options,
    me: Colour,
}

/// Two plies of expectimax over material: each safe action of the seat, then the
/// opponent's best reply, valued by material alone (hard-v1's frozen value table, the
/// engine's at commit 57c6d4f, so that the baseline does not move with the engine).
/// Flip chess: the public position; a flip of its own is averaged over the public
/// pool of face-down pieces, each kind and colour weighted by its count; the
/// opponent's flip is valued as standing still (a flip changes no expected material).
/// Standard 军棋: the mean over a few determinizations drawn from its beliefs (what
/// the events so far allow each hidden enemy piece to be, as hard-v1 draws them).
/// Equal values are broken at random. It declines draws and never resigns.
pub fn expectimax2<R: Rng + ?Sized>(info: &Information, rng: &mut R) -> Decision {
    if let Some(d) = not_my_turn(info) {
        return d;
    }
    let actions = info.safe_actions();
    let Some(me) = info.my_colour() else {
        // Before colours are assigned every flip is the same unknown.
        return random(info, rng);
    };
    if actions.is_empty() {
        return Decision::Play(Action::Pass);
    }
    let plies = Plies {
        caps: info.variant().caps(),
        options: info.options,
        me,
    };
    let values: Vec<f64> = match info.variant().caps().setup {
        SetupKind::Deal => {
            let pos = flip_position(info);
            actions
                .iter()
                .map(|&a| plies.action(&pos, &info.pool, a))
                .collect()
        }
        SetupKind::Deployment => {
            let worlds: Vec<Position> =
                (0..WORLDS).filter_map(|_| determinize(info, rng)).collect();
            if worlds.is_empty() {
                return random(info, rng);
            }
            let none: Pool = [[0; 12]; 2];
            actions
                .iter()
                .map(|&a| {
                    worlds
                        .iter()
                        .map(|w| plies.action(w, &none, a))
                        .sum::<f64>()
                        / worlds.len() as f64
                })
                .collect()
        }
    };
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best: Vec<Action> = actions
        .iter()
        .zip(&values)
        .filter(|&(_, &v)| v >= top - 1e-9)
        .map(|(&a, _)| a)
        .collect();
    Decision::Play(best[rng.random_range(0..best.len())])
}

/// Flip chess: face-up pieces as they are; a face-down station holds a hidden
/// placeholder (never a mine or flag, so the flag guard reads the public mine counts
/// set beside it), counted in material through the pool instead.
fn flip_position(info: &Information) -> Position {
    let mut pos = Position::from_tokens(Square::all().filter_map(|s| {
        if info.face_down(s) {
            Some((s, Token::hidden(Piece::Lieutenant, Colour::Red)))
        } else {
            info.known_piece(s).map(|(p, c)| (s, Token::shown(p, c)))
        }
    }));
    for c in Colour::BOTH {
        pos.assume_mines_left(c, info.mines_left[c.index()]);
    }
    pos
}

impl Plies {
    /// Material to `me`: pieces on the board that the position names (flip chess: the
    /// face-up ones) and, flip chess, the face-down pool.
    fn material(&self, pos: &Position, pool: &Pool) -> f64 {
        let mut total = 0;
        for (_, t) in pos.tokens() {
            if self.caps.deals() && !t.shown {
                continue;
            }
            total += if t.colour == self.me { 1 } else { -1 } * frozen_value(t.piece);
        }
        for (c, kinds) in pool.iter().enumerate() {
            let sign = if c == self.me.index() { 1 } else { -1 };
            for (k, &n) in kinds.iter().enumerate() {
                total += sign * n as i32 * frozen_value(Piece::ALL[k]);
            }
        }
        total as f64
    }

    /// The value of `a` to `me`: its outcome (flips averaged), then the reply.
    fn action(&self, pos: &Position, pool: &Pool, a: Action) -> f64 {
        match a {
            Action::Move { from, to } => {
                let mut next = pos.clone();
                let (_, target, _) = next.play_move(from, to);
                if target.is_some_and(|t| t.piece == Piece::Flag) {
                    return FLAG_TAKEN;
                }
                self.reply(&next, pool)
            }
            Action::Flip(at) => {
                let total: u32 = pool.iter().flatten().map(|&n| n as u32).sum();
                if total == 0 {
                    return self.reply(pos, pool);
                }
                let mut sum = 0.0;
                for c in Colour::BOTH {
                    for (k, &n) in pool[c.index()].iter().enumerate() {
                        if n == 0 {
                            continue;
                        }
                        let mut next = pos.clone();
                        let mines = next.mines_left(c);
                        next.take(at);
                        next.put(at, Token::shown(Piece::ALL[k], c));
                        // Face-down mines were already in the public count.
                        next.assume_mines_left(c, mines);
                        let mut rest = *pool;
                        rest[c.index()][k] -= 1;
                        sum += n as f64 * self.reply(&next, &rest);
                    }
                }
                sum / total as f64
            }
            _ => self.reply(pos, pool),
        }
    }

    /// The opponent's best reply to `me` in `pos`: the least material it leaves.
    fn reply(&self, pos: &Position, pool: &Pool) -> f64 {
        let enemy = self.me.other();
        let can_flip = self.caps.deals() && !pos.hidden().is_empty();
        let mut moves = Vec::with_capacity(64);
        pos.for_each_move(self.caps, &self.options, enemy.into(), |f, t| {
            moves.push((f, t))
        });
        if moves.is_empty() && !can_flip {
            return FLAG_TAKEN;
        }
        let mut worst = if can_flip {
            self.material(pos, pool)
        } else {
            f64::INFINITY
        };
        for (from, to) in moves {
            let mut next = pos.clone();
            let (_, target, _) = next.play_move(from, to);
            let v = if target.is_some_and(|t| t.piece == Piece::Flag) {
                -FLAG_TAKEN
            } else {
                self.material(&next, pool)
            };
            worst = worst.min(v);
        }
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::view::{View, Viewer};
    use crate::rules::{Game, Seat, Variant};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    /// South (red) to move in flip chess, with a face-down flag each and a blue mine.
    fn south_info(shown: &[(&str, Piece, Colour)]) -> Information {
        let hidden = [
            ("a12", Piece::Mine, Colour::Blue),
            ("e1", Piece::Flag, Colour::Red),
            ("b1", Piece::Flag, Colour::Blue),
        ];
        let tokens = shown
            .iter()
            .map(|&(s, p, c)| (sq(s), Token::shown(p, c)))
            .chain(hidden.map(|(s, p, c)| (sq(s), Token::hidden(p, c))));
        let g = Game::from_position(
            Variant::Flip,
            Options::default(),
            Position::from_tokens(tokens),
            Seat::South,
            Some([Colour::Red, Colour::Blue]),
        );
        Information::new(View::of(&g, Viewer::Seat(Seat::South)), *g.options())
    }

    fn attack(from: &str, to: &str) -> Decision {
        Decision::Play(Action::Move {
            from: sq(from),
            to: sq(to),
        })
    }

    #[test]
    fn expectimax2_takes_a_free_general() {
        let info = south_info(&[
            ("c6", Piece::Marshal, Colour::Red),
            ("c7", Piece::General, Colour::Blue),
            ("a1", Piece::Captain, Colour::Red),
            ("e12", Piece::Major, Colour::Blue),
        ]);
        for seed in 0..4 {
            let d = expectimax2(&info, &mut StdRng::seed_from_u64(seed));
            assert_eq!(d, attack("c6", "c7"));
        }
    }

    #[test]
    fn expectimax2_sees_the_recapture_greedy_walks_into() {
        // The major on c7 is guarded by the marshal behind it: taking it costs the
        // general.
        let info = south_info(&[
            ("c6", Piece::General, Colour::Red),
            ("c7", Piece::Major, Colour::Blue),
            ("c8", Piece::Marshal, Colour::Blue),
            ("a1", Piece::Captain, Colour::Red),
            ("e12", Piece::Major, Colour::Blue),
        ]);
        for seed in 0..4 {
            let mut rng = StdRng::seed_from_u64(seed);
            assert_eq!(greedy(&info, &mut rng), attack("c6", "c7"));
            assert_ne!(expectimax2(&info, &mut rng), attack("c6", "c7"));
        }
    }
}
