//! Random self-play: both seats choose uniformly among the legal flips and moves.
//! Used by `junqi selfplay`, the benchmarks and the property tests.

use crate::record::{Record, Setup};
use crate::rules::SetupKind;
use crate::rules::deal::{Deal, FlipStart};
use crate::rules::layout::Deployment;
use crate::rules::{
    Action, EndReason, Game, Layout, LegalActions, Options, Outcome, Seat, Variant,
};
use rand::rngs::StdRng;
use rand::{CryptoRng, RngExt, SeedableRng};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Sets up a new game with a random deal or random layouts and a random first seat.
pub fn new_game<R: CryptoRng + ?Sized>(variant: Variant, rng: &mut R) -> (Game, Record) {
    let options = Options::default();
    match variant.caps().setup {
        SetupKind::Deal => {
            let start = FlipStart::random(rng);
            let game = start.game(options);
            let mut record = Record::new(
                variant,
                options,
                1,
                start.first,
                Some(Setup::Deal(start.deal)),
            );
            record.commitment = Some(start.commitment);
            record.salt = Some(start.salt);
            (game, record)
        }
        SetupKind::Deployment => {
            let mut deployment = Deployment::new(
                Layout::random(Seat::South, rng),
                Layout::random(Seat::North, rng),
            );
            let first = if rng.random::<bool>() {
                Seat::South
            } else {
                Seat::North
            };
            deployment.ready(first).expect("a random layout is valid");
            deployment
                .ready(first.other())
                .expect("a random layout is valid");
            let game = deployment.start(options).expect("both seats ready");
            let setup = Setup::Layouts {
                south: deployment.layout(Seat::South).clone(),
                north: deployment.layout(Seat::North).clone(),
            };
            (game, Record::new(variant, options, 1, first, Some(setup)))
        }
    }
}

/// The game `new_game` sets up from the same draws of `rng`, without its record: no
/// commitment to hash, no layouts to copy. `run` keeps nothing but the outcome.
fn new_bare_game<R: CryptoRng + ?Sized>(variant: Variant, rng: &mut R) -> Game {
    let options = Options::default();
    match variant.caps().setup {
        SetupKind::Deal => {
            // FlipStart::random's draws, in its order: deal, first seat, salt.
            let deal = Deal::random(rng);
            let first = if rng.random::<bool>() {
                Seat::South
            } else {
                Seat::North
            };
            let _salt: [u8; 32] = rng.random();
            Game::new_flip(options, &deal, first)
        }
        SetupKind::Deployment => {
            // Layout::random's draws, then the first seat; a random layout is valid by
            // construction (the test below compares with the checked way).
            let south = Layout::random_cells(Seat::South, rng);
            let north = Layout::random_cells(Seat::North, rng);
            let first = if rng.random::<bool>() {
                Seat::South
            } else {
                Seat::North
            };
            Game::new_standard_cells(options, &south, &north, first)
        }
    }
}

/// Plays `game` to its end, choosing uniformly among the legal flips and moves, and
/// calls `on_action` with each action taken. Returns the number of actions. `legal`
/// is left empty: the choice is made from `Game::legal`, which builds no list (the
/// same actions in the same order, so a seed plays the same game either way).
pub fn play_out<R: RngExt + ?Sized>(
    game: &mut Game,
    rng: &mut R,
    legal: &mut Vec<Action>,
    on_action: impl FnMut(Seat, Action),
) -> u32 {
    legal.clear();
    play(game, rng, on_action)
}

/// `play_out` without a scratch list.
pub fn play<R: RngExt + ?Sized>(
    game: &mut Game,
    rng: &mut R,
    on_action: impl FnMut(Seat, Action),
) -> u32 {
    play_with(game, |n| rng.random_range(0..n), on_action)
}

/// Plays `game` to its end; `pick(n)` chooses an index below `n` among the legal actions.
fn play_with(
    game: &mut Game,
    mut pick: impl FnMut(usize) -> usize,
    mut on_action: impl FnMut(Seat, Action),
) -> u32 {
    let mut n = 0;
    let mut legal = LegalActions::new();
    while !game.is_over() {
        game.legal_into(&mut legal);
        let seat = game.to_move();
        let action = legal
            .get(pick(legal.len()))
            .expect("an index below the count");
        game.apply_listed(action);
        on_action(seat, action);
        n += 1;
    }
    n
}

/// Picks moves for `run`: SplitMix64, seeded once per game from the cryptographic
/// generator. Choosing a move needs no secrecy, and a ChaCha draw cost about a
/// fifteenth of a whole step.
pub(crate) struct Chooser(pub(crate) u64);

impl Chooser {
    /// Uniform below `n` (> 0): Lemire's multiply-and-shift, rejecting the few values
    /// that would favour some results.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        loop {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            let m = z as u128 * n as u128;
            let low = m as u64;
            if low >= n || low >= n.wrapping_neg() % n {
                return (m >> 64) as usize;
            }
        }
    }
}

/// One random game and its record.
pub fn random_game<R: CryptoRng + ?Sized>(variant: Variant, rng: &mut R) -> (Game, Record) {
    let (mut game, mut record) = new_game(variant, rng);
    play(&mut game, rng, |s, a| record.actions.push((s, a)));
    (game, record)
}

/// What a self-play run found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub variant: Variant,
    pub games: u64,
    pub seed: u64,
    pub actions: u64,
    pub mean_length: f64,
    pub seconds: f64,
    pub actions_per_second: f64,
    /// Games by "result/reason", e.g. "south/flag" or "draw/no_capture_limit".
    pub outcomes: BTreeMap<String, u64>,
}

/// Plays `games` games on one thread from `seed`, working out every legal action at
/// every step (`Game::legal_into`), and times the whole loop, set-up included (the
/// deal or layouts; not the commitment or the record, which self-play does not keep).
pub fn run(variant: Variant, games: u64, seed: u64) -> Report {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    let mut actions = 0u64;
    let start = Instant::now();
    for _ in 0..games {
        let mut game = new_bare_game(variant, &mut rng);
        let mut chooser = Chooser(rng.random());
        actions += play_with(&mut game, |n| chooser.below(n), |_, _| {}) as u64;
        let o = game.outcome().expect("played out");
        *outcomes.entry(outcome_key(o)).or_default() += 1;
    }
    let elapsed = start.elapsed().max(Duration::from_nanos(1));
    Report {
        variant,
        games,
        seed,
        actions,
        mean_length: if games == 0 {
            0.0
        } else {
            actions as f64 / games as f64
        },
        seconds: elapsed.as_secs_f64(),
        actions_per_second: actions as f64 / elapsed.as_secs_f64(),
        outcomes,
    }
}

pub fn outcome_key(o: Outcome) -> String {
    format!("{}/{}", crate::record::result_name(o), o.reason)
}

impl Report {
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{} games of {} (seed {}): {} actions, mean length {:.1}\n",
            self.games,
            self.variant.name(),
            self.seed,
            self.actions,
            self.mean_length
        );
        s += "outcomes by reason:\n";
        let mut by_reason: BTreeMap<&str, u64> = BTreeMap::new();
        for (k, n) in &self.outcomes {
            let reason = k.split('/').nth(1).unwrap_or(k);
            *by_reason.entry(reason).or_default() += n;
        }
        for r in EndReason::ALL {
            if let Some(n) = by_reason.get(r.name()) {
                let pct = 100.0 * *n as f64 / self.games.max(1) as f64;
                s += &format!("  {:<17} {:>8}  {:5.1}%\n", r.name(), n, pct);
            }
        }
        s += &format!(
            "throughput: {:.0} actions/s on one thread ({:.3} s)\n",
            self.actions_per_second, self.seconds
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chooser_is_uniform() {
        let mut c = Chooser(1);
        let mut seen = [0u32; 7];
        for _ in 0..70_000 {
            seen[c.below(7)] += 1;
        }
        assert!(
            seen.iter().all(|&k| (9_500..10_500).contains(&k)),
            "{seen:?}"
        );
    }

    /// `run` plays the very games `new_game` would have set up.
    #[test]
    fn bare_games_are_new_games() {
        for variant in [Variant::Flip, Variant::Standard] {
            for seed in 0..20 {
                let (full, _) = new_game(variant, &mut StdRng::seed_from_u64(seed));
                let bare = new_bare_game(variant, &mut StdRng::seed_from_u64(seed));
                assert_eq!(full, bare, "{variant:?} seed {seed}");
            }
        }
    }
}
